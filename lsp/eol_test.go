package lsp_test

import (
	"testing"

	"hashline-ls/commands"
	"hashline-ls/lsp/lsptest"
)

// A file the server creates takes CRLF only where the editor says it makes
// new files so (newFileEol, from VS Code's files.eol); content with its
// own endings, and a file that exists, keep theirs; a change of the
// setting applies to the next write.
func TestNewFileLineEnding(t *testing.T) {
	for _, c := range []struct {
		name, eol, content, want string
	}{
		{"CRLF asked", "\r\n", "a\nb\n", "a\r\nb\r\n"},
		{"LF asked", "\n", "a\nb\n", "a\nb\n"},
		{"nothing said", "", "a\nb\n", "a\nb\n"},
		{"the content's own CRLF", "\r\n", "a\r\nb\r\n", "a\r\nb\r\n"},
		{"the content's lone CR kept", "\r\n", "a\rb\n", "a\rb\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := lsptest.VSCode()
			opts.InitOptions = map[string]any{"hashline": map[string]any{"newFileEol": c.eol}}
			e := lsptest.New(t, opts)
			e.SetBehaviour(lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen, Save: true})
			if res := e.OK(commands.CmdWrite, map[string]any{"path": "n.txt", "content": c.content}); !res.Created {
				t.Fatalf("result = %s, want created", res.Raw)
			}
			if got := e.DiskText("n.txt"); got != c.want {
				t.Fatalf("new file = %q, want %q", got, c.want)
			}
		})
	}
	t.Run("an existing LF file stays LF", func(t *testing.T) {
		opts := lsptest.VSCode()
		opts.InitOptions = map[string]any{"hashline": map[string]any{"newFileEol": "\r\n"}}
		e := lsptest.New(t, opts)
		e.SetBehaviour(lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen, Save: true})
		e.WriteFile("old.txt", "x\n")
		e.Read("old.txt")
		e.OK(commands.CmdWrite, map[string]any{"path": "old.txt", "content": "y\nz\n"})
		if got := e.DiskText("old.txt"); got != "y\nz\n" {
			t.Fatalf("existing file = %q, want its LF kept", got)
		}
	})
	t.Run("the setting changes", func(t *testing.T) {
		e := vscodeApplying(t, lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen, Save: true})
		e.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"hashline": map[string]any{"newFileEol": "\r\n"}}})
		e.OK(commands.CmdWrite, map[string]any{"path": "later.txt", "content": "a\n"})
		if got := e.DiskText("later.txt"); got != "a\r\n" {
			t.Fatalf("after the change = %q, want CRLF", got)
		}
	})
}
