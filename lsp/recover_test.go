package lsp_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
)

// Drift recovery (docs/contract.md §13) through the real pipe: the user types in the open
// buffer between the assistant's read and its edit.

const appGo = "package app\n\nfunc Start() error {\n\treturn nil\n}\n\nfunc Stop() {\n\tclose(done)\n}\n"

// Lines typed above the anchor move it: the edit lands on the moved lines,
// in the user's buffer, and the result says how far it moved.
func TestRecoveryUserInsertsAbove(t *testing.T) {
	e := vscodeHolding(t, "src/app.go", appGo)
	r := e.Read("src/app.go")
	typed := "// Package app starts and stops.\n// It is small.\n"
	e.TypeAt("src/app.go", 0, 0, typed, false)
	e.Flush()

	res := e.Edit("src/app.go", r.Tag, "PUT 8.=8:\n+\tclose(done) // stopped")
	want := typed + strings.Replace(appGo, "\tclose(done)\n", "\tclose(done) // stopped\n", 1)
	if got := e.BufferText("src/app.go"); got != want {
		t.Fatalf("buffer = %q, want %q", got, want)
	}
	warnings := []hashline.Warning{
		{Kind: hashline.WarnRecovered, Message: fmt.Sprintf("external change: src/app.go changed outside this session since your read (tag %s, now %s); the lines you edit were unchanged, so the edit was applied to the current text", r.Tag, tagOf(typed+appGo))},
		{Kind: hashline.WarnRecovered, Message: "line remap: lines were added or removed above your anchors, so the edit landed lower in the file (by +2); use the line numbers of the new tag from here on"},
	}
	if res.Tag != tagOf(want) || res.Path != "src/app.go" || !reflect.DeepEqual(res.Warnings, warnings) {
		t.Fatalf("result %s, want tag %s and warnings %+v", res.Raw, tagOf(want), warnings)
	}
	if n := len(e.Applies()); n != 1 {
		t.Fatalf("applyEdit sent %d times, want 1", n)
	}
	// The returned tag names the buffer, with the new numbering.
	e.Edit("src/app.go", res.Tag, "PUT 10.=10:\n+\tclose(done)")
	if got := e.BufferText("src/app.go"); got != typed+appGo {
		t.Fatalf("buffer after the second edit = %q", got)
	}
}

// The user changed the anchor line itself: nothing can place the edit. It
// is refused with the live tag and the live lines around the anchor, the
// changed one marked, and nothing reaches the editor; the lines shown are
// enough for the retry.
func TestRecoveryUserChangesTheAnchor(t *testing.T) {
	e := vscodeHolding(t, "src/app.go", appGo)
	r := e.Read("src/app.go")
	e.Type("src/app.go", "\treturn nil\n", "\treturn errStart\n")
	typed := strings.Replace(appGo, "\treturn nil\n", "\treturn errStart\n", 1)
	live := tagOf(typed)

	res := e.Fail(commands.CmdEdit, map[string]any{"path": "src/app.go", "tag": r.Tag, "ops": "PUT 4.=4:\n+\treturn fmt.Errorf(\"start\")"}, hashline.CodeTagMismatch)
	msg := fmt.Sprintf("src/app.go changed since your read: tag %s no longer matches (the file's tag is %s now), and the edit could not be placed safely: line 4 (\"\\treturn nil\") changed or was removed since your read. The lines around your anchors as they are now are below (lines 2-6, rows marked >>> changed since your read) and count as read: rebuild the ops against tag %s and these line numbers, or read the file again", r.Tag, live, live)
	content := fmt.Sprintf("[src/app.go#%s]\n2:\n3:func Start() error {\n>>>4:\treturn errStart\n5:}\n6:\n", live)
	d := res.Error.Details
	if res.Error.Message != msg || d.LiveTag != live || d.Content != content || !reflect.DeepEqual(d.Lines, []int{4}) || !res.Error.Retriable {
		t.Fatalf("error = %s\nwant message %q\nand content %q", res.Raw, msg, content)
	}
	if got := e.BufferText("src/app.go"); got != typed {
		t.Fatalf("buffer = %q, want the user's text", got)
	}
	if n := len(e.Applies()); n != 0 {
		t.Fatalf("a refused edit reached the editor %d times", n)
	}

	e.Edit("src/app.go", d.LiveTag, "PUT 4.=4:\n+\treturn fmt.Errorf(\"start: %w\", errStart)")
	if want := strings.Replace(typed, "\treturn errStart\n", "\treturn fmt.Errorf(\"start: %w\", errStart)\n", 1); e.BufferText("src/app.go") != want {
		t.Fatalf("buffer after the retry = %q, want %q", e.BufferText("src/app.go"), want)
	}
}
