package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/documents"
	"hashline-ls/hashline"
)

// formatSaver stands in for an editor that saves with a format-on-save:
// it writes what landed uppercased to every file but one, which it leaves
// as it is.
type formatSaver struct {
	dirty string // the base name of the file left unsaved
	seen  []documents.ChangeSet
}

func (f *formatSaver) Save(_ context.Context, cs documents.ChangeSet, landed documents.Landed) (documents.Landed, []Unsaved) {
	f.seen = append(f.seen, cs)
	var unsaved []Unsaved
	for path, text := range landed {
		if filepath.Base(path) == f.dirty {
			unsaved = append(unsaved, Unsaved{Path: path, Why: "its buffer held unsaved changes"})
			continue
		}
		saved := strings.ToUpper(text.Raw())
		if err := os.WriteFile(path, []byte(saved), 0o644); err != nil {
			panic(err)
		}
		landed[path] = hashline.NewText(saved)
	}
	return landed, unsaved
}

// What a Saver leaves is what edit, write and patch report and record; a
// file it leaves unsaved gets one warning, named as the workspace names it.
func TestSaverResults(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "one\ntwo\n", "sub/b.txt": "three\n"})
	saver := &formatSaver{dirty: "b.txt"}
	s.Saver = saver

	tag := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a.txt"})).Tag
	ed := mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": tag, "ops": "PUT 2.=2:\n+zwei"}))
	if ed.Tag != string(hashline.TagOf("ONE\nZWEI\n")) || !strings.Contains(ed.Rendered(), "warning: the text that landed differs from the edit at lines 1-2") {
		t.Fatalf("edit: %s", ed.Rendered())
	}
	// The session recorded the saved text: a read shows it at the same tag.
	if r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a.txt"})); r.Tag != ed.Tag {
		t.Fatalf("the read after: %s, the edit said %s", r.Tag, ed.Tag)
	}

	tag = mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "sub/b.txt"})).Tag
	ed = mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "sub/b.txt", "tag": tag, "ops": "PUT 1.=1:\n+drei"}))
	want := "warning: sub/b.txt is not saved: its buffer held unsaved changes; the edit is in the editor's buffer, and the disk keeps the old text until the file is saved there\n"
	if len(ed.Warnings) != 1 || ed.Warnings[0].Kind != hashline.WarnUnsaved || !strings.HasSuffix(ed.Rendered(), want) {
		t.Fatalf("edit of the unsaved file: %s", ed.Rendered())
	}

	wr := mustOK[*WriteResult](t, call(t, s, CmdWrite, map[string]any{"path": "c.txt", "content": "four\n"}))
	if wr.Tag != string(hashline.TagOf("FOUR\n")) {
		t.Fatalf("write: %s", wr.Rendered())
	}
	patch := "@@ sub/b.txt\n+ 1:" + hashline.LineHash("drei") + "\n~fünf\n"
	pr := mustOK[*PatchResult](t, call(t, s, CmdPatch, map[string]any{"patch": patch}))
	if len(pr.Warnings) != 1 || !strings.HasPrefix(pr.Warnings[0].Message, "sub/b.txt is not saved: ") {
		t.Fatalf("patch: %s", pr.Rendered())
	}
	if len(saver.seen) != 4 {
		t.Fatalf("the saver saw %d change sets, want 4", len(saver.seen))
	}
}
