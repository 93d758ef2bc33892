package lsp_test

import (
	"errors"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"hashline-ls/hashline"
	"hashline-ls/lsp/lsptest"
)

const utf8BOM = "\uFEFF"

// callTimeout bounds what a test waits for itself, as the editor bounds
// its calls: a failure bound, far above what any answer needs.
const callTimeout = 10 * time.Second

func tagOf(text string) string { return string(hashline.TagOf(text)) }

// rpcCode is the JSON-RPC error code of err, or 0.
func rpcCode(err error) jsonrpc2.Code {
	var re *jsonrpc2.Error
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

func pos(line, character uint32) lsptest.Position {
	return lsptest.Position{Line: line, Character: character}
}

func span(start, end lsptest.Position) lsptest.Range { return lsptest.Range{Start: start, End: end} }

// vscodeHolding is a VS Code editor holding rel, written to disk as text
// and opened at version 1: where most tests of a buffer start.
func vscodeHolding(t *testing.T, rel, text string) *lsptest.Editor {
	t.Helper()
	e := lsptest.New(t, lsptest.VSCode())
	e.WriteFile(rel, text)
	e.Open(rel, 1)
	return e
}

// vscodeApplying is a VS Code editor that answers the applyEdit requests
// as behave says.
func vscodeApplying(t *testing.T, behave lsptest.ApplyBehaviour) *lsptest.Editor {
	t.Helper()
	e := lsptest.New(t, lsptest.VSCode())
	e.SetBehaviour(behave)
	return e
}
