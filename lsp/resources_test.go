package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
)

// Create, rename and delete travel as resource operations when the editor
// announces them, and the editor performs them.
func TestResourceOperations(t *testing.T) {
	e := newEditor(t, vscodeOptions())
	e.setBehaviour(applyBehaviour{unheld: unheldOpen, save: true})

	t.Run("write creates", func(t *testing.T) {
		content := "hello\nworld\n"
		res := e.ok(commands.CmdWrite, map[string]any{"path": "new/dir/n.txt", "content": content})
		if !res.Created || res.Tag != tagOf(content) || res.Header != "[new/dir/n.txt#"+tagOf(content)+"]" {
			t.Fatalf("result = %s, want created with tag %s", res.raw, tagOf(content))
		}
		if got := e.diskText("new/dir/n.txt"); got != content {
			t.Fatalf("disk = %q, want %q", got, content)
		}
		dcs := lastApply(t, e).Edit.DocumentChanges
		if len(dcs) != 2 || dcs[0].Kind != "create" || dcs[0].URI != uriOf(e.path("new/dir/n.txt")) || dcs[0].Options["overwrite"] {
			t.Fatalf("document changes = %+v, want a CreateFile that does not overwrite, then the text", dcs)
		}
		if v, err := dcs[1].version(); err != nil || v != nil || dcs[1].Edits[0].NewText != content {
			t.Fatalf("text after create = %+v, want the content at version null", dcs[1])
		}
		// The session wrote it, so it may edit it at once.
		res = e.edit("new/dir/n.txt", res.Tag, "PUT 2.=2:\n+there")
		if want := "hello\nthere\n"; e.diskText("new/dir/n.txt") != want || res.Tag != tagOf(want) {
			t.Fatalf("edit after write: disk %q result %s", e.diskText("new/dir/n.txt"), res.raw)
		}
	})
	t.Run("MV renames", func(t *testing.T) {
		e.writeFile("m.txt", "move me\n")
		r := e.read("m.txt")
		res := e.edit("m.txt", r.Tag, "MV moved/m2.txt")
		if res.Path != "moved/m2.txt" || res.Tag != tagOf("move me\n") || res.Header != "[moved/m2.txt#"+r.Tag+"]" {
			t.Fatalf("result = %s, want the file at moved/m2.txt with tag %s", res.raw, r.Tag)
		}
		if e.exists("m.txt") || e.diskText("moved/m2.txt") != "move me\n" {
			t.Fatalf("after MV: m.txt exists %v, moved/m2.txt %q", e.exists("m.txt"), e.diskText("moved/m2.txt"))
		}
		dcs := lastApply(t, e).Edit.DocumentChanges
		if len(dcs) != 1 || dcs[0].Kind != "rename" || dcs[0].OldURI != uriOf(e.path("m.txt")) || dcs[0].NewURI != uriOf(e.path("moved/m2.txt")) {
			t.Fatalf("document changes = %+v, want one RenameFile", dcs)
		}
	})
	t.Run("MV with an edit of an open buffer", func(t *testing.T) {
		e.writeFile("o.txt", "first\nsecond\n")
		e.open("o.txt", 3)
		r := e.read("o.txt")
		res := e.edit("o.txt", r.Tag, "PUT 1.=1:\n+FIRST\n\nMV o2.txt")
		want := "FIRST\nsecond\n"
		if res.Path != "o2.txt" || res.Tag != tagOf(want) {
			t.Fatalf("result = %s, want o2.txt with tag %s", res.raw, tagOf(want))
		}
		if e.holds("o.txt") || e.bufferText("o2.txt") != want || e.exists("o.txt") {
			t.Fatalf("after MV: old buffer held %v, new buffer %q, old file exists %v", e.holds("o.txt"), e.bufferText("o2.txt"), e.exists("o.txt"))
		}
		dcs := lastApply(t, e).Edit.DocumentChanges
		if len(dcs) != 2 || dcs[0].TextDocument == nil || dcs[1].Kind != "rename" {
			t.Fatalf("document changes = %+v, want the text edit, then the rename", dcs)
		}
		if v, err := dcs[0].version(); err != nil || v == nil || *v != 3 {
			t.Fatalf("version = %s, want 3", dcs[0].TextDocument.Version)
		}
		res = e.edit("o2.txt", res.Tag, "PUT 2.=2:\n+SECOND")
		if want := "FIRST\nSECOND\n"; e.bufferText("o2.txt") != want || res.Tag != tagOf(want) {
			t.Fatalf("edit after MV: buffer %q result %s", e.bufferText("o2.txt"), res.raw)
		}
	})
	t.Run("REM deletes", func(t *testing.T) {
		for _, open := range []bool{false, true} {
			e.writeFile("r.txt", "remove me\n")
			if open {
				e.open("r.txt", 1)
			}
			r := e.read("r.txt")
			res := e.edit("r.txt", r.Tag, "REM")
			if !res.Removed || e.exists("r.txt") || e.holds("r.txt") {
				t.Fatalf("open %v: result %s, file exists %v, buffer held %v", open, res.raw, e.exists("r.txt"), e.holds("r.txt"))
			}
			dcs := lastApply(t, e).Edit.DocumentChanges
			if len(dcs) != 1 || dcs[0].Kind != "delete" || dcs[0].URI != uriOf(e.path("r.txt")) {
				t.Fatalf("document changes = %+v, want one DeleteFile", dcs)
			}
		}
	})
}

// An editor that takes documentChanges but no resource operations: files
// it does not hold are created, moved and deleted on disk by the server; a
// file it holds is refused, since its buffer would go stale.
func TestResourceOperationsAbsent(t *testing.T) {
	opts := vscodeOptions()
	opts.resourceOps = nil
	e := newEditor(t, opts)
	e.setBehaviour(applyBehaviour{unheld: unheldOpen})

	res := e.ok(commands.CmdWrite, map[string]any{"path": "w.txt", "content": "written\n"})
	if !res.Created || e.diskText("w.txt") != "written\n" || res.Tag != tagOf("written\n") {
		t.Fatalf("write: result %s, disk %q", res.raw, e.diskText("w.txt"))
	}
	r := e.read("w.txt")
	res = e.edit("w.txt", r.Tag, "MV sub/w2.txt")
	if res.Path != "sub/w2.txt" || e.exists("w.txt") || e.diskText("sub/w2.txt") != "written\n" {
		t.Fatalf("MV: result %s", res.raw)
	}
	r = e.read("sub/w2.txt")
	res = e.edit("sub/w2.txt", r.Tag, "REM")
	if !res.Removed || e.exists("sub/w2.txt") {
		t.Fatalf("REM: result %s", res.raw)
	}
	if n := len(e.appliesSeen()); n != 0 {
		t.Fatalf("applyEdit sent %d times, want none", n)
	}

	e.writeFile("held.txt", "held\n")
	e.open("held.txt", 1)
	r = e.read("held.txt")
	e.fail(commands.CmdEdit, map[string]any{"path": "held.txt", "tag": r.Tag, "ops": "MV held2.txt"}, hashline.CodeToolFailed)
	if !e.exists("held.txt") || e.exists("held2.txt") || e.bufferText("held.txt") != "held\n" {
		t.Fatalf("a refused MV changed something")
	}
	// Text edits still go through the editor.
	res = e.edit("held.txt", r.Tag, "PUT >$:\n+more")
	if want := "held\nmore\n"; e.bufferText("held.txt") != want || res.Tag != tagOf(want) || e.diskText("held.txt") != "held\n" {
		t.Fatalf("text edit: buffer %q result %s", e.bufferText("held.txt"), res.raw)
	}
}

// An editor without documentChanges gets the plain changes map.
func TestPlainChanges(t *testing.T) {
	e := newEditor(t, clientOptions{applyEdit: true})
	e.writeFile("p.txt", "1\n2\n3\n")
	e.open("p.txt", 1)
	r := e.read("p.txt")
	res := e.edit("p.txt", r.Tag, "CUT 2.=2\n\nPUT >$:\n+4")
	want := "1\n3\n4\n"
	if got := e.bufferText("p.txt"); got != want || res.Tag != tagOf(want) {
		t.Fatalf("buffer %q result %s, want %q", got, res.raw, want)
	}
	a := lastApply(t, e)
	if len(a.Edit.DocumentChanges) != 0 || len(a.Edit.Changes[uriOf(e.path("p.txt"))]) != 2 {
		t.Fatalf("edit = %+v, want two plain changes for p.txt", a.Edit)
	}
}

// A client that cannot apply edits gets the disk written directly: each
// file replaced whole by a rename, keeping its mode.
func TestNoApplyEditCapability(t *testing.T) {
	e := newEditor(t, clientOptions{})
	e.writeFile("d.txt", "a\nb\n")
	if err := os.Chmod(e.path("d.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := e.read("d.txt")
	res := e.edit("d.txt", r.Tag, "PUT 2.=2:\n+B")
	if want := "a\nB\n"; e.diskText("d.txt") != want || res.Tag != tagOf(want) {
		t.Fatalf("edit: disk %q result %s", e.diskText("d.txt"), res.raw)
	}
	if fi, err := os.Stat(e.path("d.txt")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode after the edit = %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	res = e.ok(commands.CmdWrite, map[string]any{"path": "d.txt", "content": "whole\n"})
	if e.diskText("d.txt") != "whole\n" || res.Created || res.Tag != tagOf("whole\n") {
		t.Fatalf("write over: disk %q result %s", e.diskText("d.txt"), res.raw)
	}
	res = e.ok(commands.CmdWrite, map[string]any{"path": "x/new.txt", "content": "new\n"})
	if e.diskText("x/new.txt") != "new\n" || !res.Created {
		t.Fatalf("write new: disk %q result %s", e.diskText("x/new.txt"), res.raw)
	}
	if n := len(e.appliesSeen()); n != 0 {
		t.Fatalf("applyEdit sent %d times to a client without the capability", n)
	}
	// Nothing staged is left behind.
	for _, dir := range []string{e.root, filepath.Join(e.root, "x")} {
		entries, _ := os.ReadDir(dir)
		for _, en := range entries {
			if strings.Contains(en.Name(), ".hashline-") {
				t.Fatalf("temporary file %s left in %s", en.Name(), dir)
			}
		}
	}
}

func lastApply(t *testing.T, e *editor) wireApply {
	t.Helper()
	applies := e.appliesSeen()
	if len(applies) == 0 {
		t.Fatalf("no applyEdit received")
	}
	return applies[len(applies)-1]
}
