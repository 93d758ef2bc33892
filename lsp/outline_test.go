package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/lsp/lsptest"
)

// The outline, a symbol read and a symbols grep of a file the editor holds
// are of its unsaved text, and a block op on what they showed lands in the
// buffer.
func TestOutlineOfOpenBuffer(t *testing.T) {
	disk := "package shop\n\nfunc Total() int {\n\treturn 0\n}\n"
	e := vscodeHolding(t, "shop.go", disk)
	e.Type("shop.go", "func Total", "// Discount is typed, not saved.\nfunc Discount() int {\n\treturn 5\n}\n\nfunc Total")
	live := e.BufferText("shop.go")

	o := e.OK(commands.CmdRead, map[string]any{"path": "shop.go", "view": "outline"})
	want := "[shop.go#" + tagOf(live) + "]\n3-6 func  4:func Discount() int {\n8-10 func  8:func Total() int {\n"
	if o.Tag != tagOf(live) || !strings.HasPrefix(text(t, o), want) {
		t.Fatalf("outline of the buffer:\n%s\nwant it to start\n%s", text(t, o), want)
	}

	g := e.OK(commands.CmdGrep, map[string]any{"pattern": "^Discount$", "mode": "symbols"})
	var grep struct {
		Symbols []commands.GrepSymbol `json:"symbols"`
	}
	if err := json.Unmarshal([]byte(g.Raw), &grep); err != nil || len(grep.Symbols) != 1 || grep.Symbols[0].Start != 3 || g.Tags["shop.go"] != tagOf(live) {
		t.Fatalf("symbols grep of the buffer: %s", g.Raw)
	}

	r := e.OK(commands.CmdRead, map[string]any{"path": "shop.go", "symbol": "Discount"})
	if r.Tag != tagOf(live) || !strings.Contains(r.Content, "3:// Discount is typed, not saved.\n4:func Discount() int {\n5:\treturn 5\n6:}\n") || strings.Contains(r.Content, "Total") {
		t.Fatalf("symbol read:\n%s", r.Content)
	}
	e.Edit("shop.go", r.Tag, "PUT 3*:\n+func Discount() int { return 10 }")
	if got, want := e.BufferText("shop.go"), "package shop\n\nfunc Discount() int { return 10 }\n\nfunc Total() int {\n\treturn 0\n}\n"; got != want {
		t.Fatalf("buffer = %q, want %q", got, want)
	}
	if e.DiskText("shop.go") != disk {
		t.Fatal("the disk changed")
	}
}

func text(t *testing.T, r lsptest.Result) string {
	t.Helper()
	var v struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal([]byte(r.Raw), &v); err != nil {
		t.Fatal(err)
	}
	return v.Text
}
