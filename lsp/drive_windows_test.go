package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/lsp/lsptest"
)

// The editor holds a file by VS Code's URI, file:///c%3A/...; a call that
// names it with the drive in either case, either separator or another
// spelling of the URI reads the editor's text, not the disk's, and an edit
// goes back to the editor under the URI it knows the file by.
func TestDriveLetterNamesOneFile(t *testing.T) {
	e := vscodeApplying(t, lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen})
	e.WriteFile("Sub/a.txt", "on disk\n")
	e.Open("Sub/a.txt", 1)
	e.Type("Sub/a.txt", "on disk", "in the editor")
	abs := e.Path("Sub/a.txt")
	if uri := lsptest.URI(abs); !strings.HasPrefix(uri, "file:///"+strings.ToLower(abs[:1])+"%3A/") {
		t.Fatalf("the editor spells %s as %s, not as VS Code does", abs, uri)
	}
	var tag string
	for _, name := range []string{
		"Sub/a.txt",
		`sub\A.TXT`,
		strings.ToLower(abs[:1]) + abs[1:],
		strings.ToUpper(abs[:1]) + abs[1:],
		"file:///" + filepath.ToSlash(abs),
		lsptest.URI(abs),
	} {
		r := e.OK(commands.CmdRead, map[string]any{"path": name})
		if !strings.Contains(r.Content, "in the editor") || r.Path != "Sub/a.txt" {
			t.Fatalf("read of %q = %s, want the editor's text of Sub/a.txt", name, r.Raw)
		}
		tag = r.Tag
	}
	e.Edit(`SUB\a.txt`, tag, "PUT 1.=1:\n+edited")
	dcs := lastApply(t, e).Edit.DocumentChanges
	if len(dcs) != 1 || dcs[0].TextDocument == nil || dcs[0].TextDocument.URI != lsptest.URI(abs) {
		t.Fatalf("document changes = %+v, want one edit of %s", dcs, lsptest.URI(abs))
	}
	if got := e.BufferText("Sub/a.txt"); got != "edited\n" {
		t.Fatalf("buffer = %q", got)
	}
}
