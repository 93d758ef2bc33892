package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hashline-ls/endpoint"
	"hashline-ls/lsp/lsptest"
)

// An MCP client drives hashline-ls mcp, a process of its own, which finds
// the editor's language server (this process, publishing its endpoint as
// hashline-ls does in LSP mode) in the user's registry and works through
// it over the endpoint: a Unix socket, or on Windows a named pipe. The
// read sees the editor's unsaved text and the block edit lands in the
// editor's buffer, neither of which the disk has.
func TestMCPProcessBridgesToTheEditor(t *testing.T) {
	bin := buildBinary(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("LOCALAPPDATA", tmp)
	reg, err := endpoint.Open()
	if err != nil {
		t.Fatal(err)
	}
	opts := lsptest.VSCode()
	opts.Endpoints = reg
	e := lsptest.New(t, opts)
	e.WriteFile("a.go", "package a\n\nfunc f() int {\n\treturn 1\n}\n")
	e.Open("a.go", 1)
	e.Type("a.go", "return 1", "return 10")
	e.Sync()

	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &sdk.CommandTransport{Command: exec.Command(bin, "mcp", "--root", e.Root())}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(tool string, args map[string]any) string {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		text := textOf(t, res)
		if res.IsError {
			t.Fatalf("%s: %s", tool, text)
		}
		return text
	}
	read := call("hashline_read", map[string]any{"path": "a.go"})
	if !strings.Contains(read, "\treturn 10") {
		t.Fatalf("the read shows %q, not the editor's text", read)
	}
	header, _, _ := strings.Cut(read, "\n")
	tag := strings.TrimSuffix(strings.TrimPrefix(header, "[a.go#"), "]")
	call("hashline_edit", map[string]any{"path": "a.go", "tag": tag, "ops": "PUT 3*:\n+func f() int {\n+\treturn 2\n+}"})
	if got, want := e.BufferText("a.go"), "package a\n\nfunc f() int {\n\treturn 2\n}\n"; got != want {
		t.Fatalf("the editor's buffer = %q, want %q", got, want)
	}
	if got := e.DiskText("a.go"); !strings.Contains(got, "return 1\n") {
		t.Fatalf("the disk = %q: the edit went around the editor", got)
	}
	if applies := e.Applies(); len(applies) != 1 {
		t.Fatalf("%d applyEdit requests, want the edit's one", len(applies))
	}
	t.Logf("bridged through %s", reg.Socket(os.Getpid()))
}
