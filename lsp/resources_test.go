package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
	"hashline-ls/lsp/lsptest"
)

// Create and rename travel as resource operations when the editor
// announces them, and the editor performs them.
func TestResourceOperations(t *testing.T) {
	e := vscodeApplying(t, lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen, Save: true})

	t.Run("write creates", func(t *testing.T) {
		content := "hello\nworld\n"
		res := e.OK(commands.CmdWrite, map[string]any{"path": "new/dir/n.txt", "content": content})
		if !res.Created || res.Tag != tagOf(content) || res.Header != "[new/dir/n.txt#"+tagOf(content)+"]" {
			t.Fatalf("result = %s, want created with tag %s", res.Raw, tagOf(content))
		}
		if got := e.DiskText("new/dir/n.txt"); got != content {
			t.Fatalf("disk = %q, want %q", got, content)
		}
		dcs := lastApply(t, e).Edit.DocumentChanges
		if len(dcs) != 2 || dcs[0].Kind != "create" || e.PathOf(dcs[0].URI) != e.Path("new/dir/n.txt") || dcs[0].Options["overwrite"] {
			t.Fatalf("document changes = %+v, want a CreateFile that does not overwrite, then the text", dcs)
		}
		if v, err := dcs[1].Version(); err != nil || v != nil || dcs[1].Edits[0].NewText != content {
			t.Fatalf("text after create = %+v, want the content at version null", dcs[1])
		}
		// The session wrote it, so it may edit it at once.
		res = e.Edit("new/dir/n.txt", res.Tag, "PUT 2.=2:\n+there")
		if want := "hello\nthere\n"; e.DiskText("new/dir/n.txt") != want || res.Tag != tagOf(want) {
			t.Fatalf("edit after write: disk %q result %s", e.DiskText("new/dir/n.txt"), res.Raw)
		}
	})
	t.Run("MV renames", func(t *testing.T) {
		e.WriteFile("m.txt", "move me\n")
		r := e.Read("m.txt")
		res := e.Edit("m.txt", r.Tag, "MV moved/m2.txt")
		if res.Path != "moved/m2.txt" || res.Tag != tagOf("move me\n") || res.Header != "[moved/m2.txt#"+r.Tag+"]" {
			t.Fatalf("result = %s, want the file at moved/m2.txt with tag %s", res.Raw, r.Tag)
		}
		if e.Exists("m.txt") || e.DiskText("moved/m2.txt") != "move me\n" {
			t.Fatalf("after MV: m.txt exists %v, moved/m2.txt %q", e.Exists("m.txt"), e.DiskText("moved/m2.txt"))
		}
		dcs := lastApply(t, e).Edit.DocumentChanges
		if len(dcs) != 1 || dcs[0].Kind != "rename" || e.PathOf(dcs[0].OldURI) != e.Path("m.txt") || e.PathOf(dcs[0].NewURI) != e.Path("moved/m2.txt") {
			t.Fatalf("document changes = %+v, want one RenameFile", dcs)
		}
	})
	t.Run("MV with an edit of an open buffer", func(t *testing.T) {
		e.WriteFile("o.txt", "first\nsecond\n")
		e.Open("o.txt", 3)
		r := e.Read("o.txt")
		res := e.Edit("o.txt", r.Tag, "PUT 1.=1:\n+FIRST\n\nMV o2.txt")
		want := "FIRST\nsecond\n"
		if res.Path != "o2.txt" || res.Tag != tagOf(want) {
			t.Fatalf("result = %s, want o2.txt with tag %s", res.Raw, tagOf(want))
		}
		if e.Holds("o.txt") || e.BufferText("o2.txt") != want || e.Exists("o.txt") {
			t.Fatalf("after MV: old buffer held %v, new buffer %q, old file exists %v", e.Holds("o.txt"), e.BufferText("o2.txt"), e.Exists("o.txt"))
		}
		dcs := lastApply(t, e).Edit.DocumentChanges
		if len(dcs) != 2 || dcs[0].TextDocument == nil || dcs[1].Kind != "rename" {
			t.Fatalf("document changes = %+v, want the text edit, then the rename", dcs)
		}
		if v, err := dcs[0].Version(); err != nil || v == nil || *v != 3 {
			t.Fatalf("version = %s, want 3", dcs[0].TextDocument.Version)
		}
		res = e.Edit("o2.txt", res.Tag, "PUT 2.=2:\n+SECOND")
		if want := "FIRST\nSECOND\n"; e.BufferText("o2.txt") != want || res.Tag != tagOf(want) {
			t.Fatalf("edit after MV: buffer %q result %s", e.BufferText("o2.txt"), res.Raw)
		}
	})
}

// REM travels as a DeleteFile, whether the editor holds the file or not.
func TestResourceOperationDelete(t *testing.T) {
	e := vscodeApplying(t, lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen, Save: true})
	for _, open := range []bool{false, true} {
		e.WriteFile("r.txt", "remove me\n")
		if open {
			e.Open("r.txt", 1)
		}
		r := e.Read("r.txt")
		res := e.Edit("r.txt", r.Tag, "REM")
		if !res.Removed || e.Exists("r.txt") || e.Holds("r.txt") {
			t.Fatalf("open %v: result %s, file exists %v, buffer held %v", open, res.Raw, e.Exists("r.txt"), e.Holds("r.txt"))
		}
		dcs := lastApply(t, e).Edit.DocumentChanges
		if len(dcs) != 1 || dcs[0].Kind != "delete" || e.PathOf(dcs[0].URI) != e.Path("r.txt") {
			t.Fatalf("document changes = %+v, want one DeleteFile", dcs)
		}
	}
}

// An editor that takes documentChanges but no resource operations: files
// it does not hold are created, moved and deleted on disk by the server; a
// file it holds is refused, since its buffer would go stale.
func TestResourceOperationsAbsent(t *testing.T) {
	opts := lsptest.VSCode()
	opts.ResourceOps = nil
	e := lsptest.New(t, opts)
	e.SetBehaviour(lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen})

	res := e.OK(commands.CmdWrite, map[string]any{"path": "w.txt", "content": "written\n"})
	if !res.Created || e.DiskText("w.txt") != "written\n" || res.Tag != tagOf("written\n") {
		t.Fatalf("write: result %s, disk %q", res.Raw, e.DiskText("w.txt"))
	}
	r := e.Read("w.txt")
	res = e.Edit("w.txt", r.Tag, "MV sub/w2.txt")
	if res.Path != "sub/w2.txt" || e.Exists("w.txt") || e.DiskText("sub/w2.txt") != "written\n" {
		t.Fatalf("MV: result %s", res.Raw)
	}
	r = e.Read("sub/w2.txt")
	res = e.Edit("sub/w2.txt", r.Tag, "REM")
	if !res.Removed || e.Exists("sub/w2.txt") {
		t.Fatalf("REM: result %s", res.Raw)
	}
	if n := len(e.Applies()); n != 0 {
		t.Fatalf("applyEdit sent %d times, want none", n)
	}

	e.WriteFile("held.txt", "held\n")
	e.Open("held.txt", 1)
	r = e.Read("held.txt")
	e.Fail(commands.CmdEdit, map[string]any{"path": "held.txt", "tag": r.Tag, "ops": "MV held2.txt"}, hashline.CodeToolFailed)
	if !e.Exists("held.txt") || e.Exists("held2.txt") || e.BufferText("held.txt") != "held\n" {
		t.Fatalf("a refused MV changed something")
	}
	// Text edits still go through the editor.
	res = e.Edit("held.txt", r.Tag, "PUT >$:\n+more")
	if want := "held\nmore\n"; e.BufferText("held.txt") != want || res.Tag != tagOf(want) || e.DiskText("held.txt") != "held\n" {
		t.Fatalf("text edit: buffer %q result %s", e.BufferText("held.txt"), res.Raw)
	}
}

// An editor without documentChanges gets the plain changes map.
func TestPlainChanges(t *testing.T) {
	e := lsptest.New(t, lsptest.Options{ApplyEdit: true})
	e.WriteFile("p.txt", "1\n2\n3\n")
	e.Open("p.txt", 1)
	r := e.Read("p.txt")
	res := e.Edit("p.txt", r.Tag, "CUT 2.=2\n\nPUT >$:\n+4")
	want := "1\n3\n4\n"
	if got := e.BufferText("p.txt"); got != want || res.Tag != tagOf(want) {
		t.Fatalf("buffer %q result %s, want %q", got, res.Raw, want)
	}
	a := lastApply(t, e)
	if len(a.Edit.DocumentChanges) != 0 || len(a.Edit.Changes[lsptest.URI(e.Path("p.txt"))]) != 2 {
		t.Fatalf("edit = %+v, want two plain changes for p.txt", a.Edit)
	}
}

// A client that cannot apply edits gets the disk written directly: each
// file replaced whole by a rename, keeping its mode.
func TestNoApplyEditCapability(t *testing.T) {
	e := lsptest.New(t, lsptest.Options{})
	e.WriteFile("d.txt", "a\nb\n")
	if err := os.Chmod(e.Path("d.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	mode := testenv.Mode(t, e.Path("d.txt")) // 0600, or on Windows 0666
	r := e.Read("d.txt")
	res := e.Edit("d.txt", r.Tag, "PUT 2.=2:\n+B")
	if want := "a\nB\n"; e.DiskText("d.txt") != want || res.Tag != tagOf(want) {
		t.Fatalf("edit: disk %q result %s", e.DiskText("d.txt"), res.Raw)
	}
	if got := testenv.Mode(t, e.Path("d.txt")); got != mode {
		t.Fatalf("mode after the edit = %v, want %v", got, mode)
	}
	res = e.OK(commands.CmdWrite, map[string]any{"path": "d.txt", "content": "whole\n"})
	if e.DiskText("d.txt") != "whole\n" || res.Created || res.Tag != tagOf("whole\n") {
		t.Fatalf("write over: disk %q result %s", e.DiskText("d.txt"), res.Raw)
	}
	res = e.OK(commands.CmdWrite, map[string]any{"path": "x/new.txt", "content": "new\n"})
	if e.DiskText("x/new.txt") != "new\n" || !res.Created {
		t.Fatalf("write new: disk %q result %s", e.DiskText("x/new.txt"), res.Raw)
	}
	if n := len(e.Applies()); n != 0 {
		t.Fatalf("applyEdit sent %d times to a client without the capability", n)
	}
	// Nothing staged is left behind.
	for _, dir := range []string{e.Root(), filepath.Join(e.Root(), "x")} {
		entries, _ := os.ReadDir(dir)
		for _, en := range entries {
			if strings.Contains(en.Name(), ".hashline-") {
				t.Fatalf("temporary file %s left in %s", en.Name(), dir)
			}
		}
	}
}

func lastApply(t *testing.T, e *lsptest.Editor) lsptest.ApplyEditRequest {
	t.Helper()
	applies := e.Applies()
	if len(applies) == 0 {
		t.Fatalf("no applyEdit received")
	}
	return applies[len(applies)-1]
}
