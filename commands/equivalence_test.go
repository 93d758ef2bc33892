package commands_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
	"hashline-ls/lsp/lsptest"
)

// The same change, written as hashline.edit ops and as a kli patch, leaves
// byte-identical files: the two anchor styles share one engine, and neither
// loses a byte the other keeps, on disk or landed in an editor's buffer
// through WorkspaceEdits in UTF-16 positions. Every task of the corpus is
// one real change.
func TestEditAndPatchAgreeOnCorpus(t *testing.T) {
	corpusDir := testenv.Corpus(t, "react-edit")
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	ran, passed, back := 0, 0, 0
	for _, ent := range entries {
		if !ent.IsDir() {
			continue
		}
		task := filepath.Join(corpusDir, ent.Name())
		inputs, err := os.ReadDir(filepath.Join(task, "input"))
		if err != nil {
			continue
		}
		for _, in := range inputs {
			name := in.Name()
			input, err1 := os.ReadFile(filepath.Join(task, "input", name))
			expected, err2 := os.ReadFile(filepath.Join(task, "expected", name))
			if err1 != nil || err2 != nil {
				t.Errorf("%s/%s: %v %v", ent.Name(), name, err1, err2)
				continue
			}
			ran++
			ok := t.Run(ent.Name()+"/"+name, func(t *testing.T) {
				checkEquivalence(t, name, string(input), string(expected))
			})
			if ok {
				passed++
			}
			// The change undone is a change too, with the inserts and
			// deletes swapped.
			if t.Run(ent.Name()+"/"+name+"/undo", func(t *testing.T) {
				checkEquivalence(t, name, string(expected), string(input))
			}) {
				back++
			}
		}
	}
	if ran == 0 {
		t.Fatalf("no task folder with input/ and expected/ under %s", corpusDir)
	}
	t.Logf("react-edit corpus: %d tasks ran, %d passed (input to expected), %d passed undone (expected to input)", ran, passed, back)
}

func checkEquivalence(t *testing.T, name, input, expected string) {
	hunks, ok := hashline.LineHunks(hashline.NewText(input), hashline.NewText(expected))
	if !ok || len(hunks) == 0 {
		t.Fatalf("no line diff from input to expected (ok %v, %d hunks)", ok, len(hunks))
	}
	ops := editOps(hunks)
	viaEdit, viaPatch, patch := onDisk(t, name, input, ops, hunks)
	inEdit, inPatch := inEditor(t, name, input, ops, hunks)

	for _, c := range []struct{ how, got, change string }{
		{"edit result", viaEdit, "ops:\n" + ops},
		{"patch result", viaPatch, "patch:\n" + patch},
		{"edit landed in the editor's buffer", inEdit, "ops:\n" + ops},
		{"patch landed in the editor's buffer", inPatch, "patch:\n" + patch},
	} {
		if c.got != expected {
			t.Errorf("%s differs from expected at byte %d\n%s", c.how, firstDiff(c.got, expected), c.change)
		}
	}
	if viaEdit != viaPatch {
		t.Errorf("edit and patch results differ at byte %d", firstDiff(viaEdit, viaPatch))
	}
}

// onDisk lands the change through a disk-backed server, once as ops after
// a read in the tag style, once as a patch after a read in the line style
// with the anchors that read shows, and returns the two files and the patch.
func onDisk(t *testing.T, name, input, ops string, hunks []hashline.Hunk) (viaEdit, viaPatch, patch string) {
	t.Helper()
	s, dir := commands.NewTestServer(t, map[string]string{name: input})
	r := commands.MustRead(t, commands.Do(t, s, commands.CmdRead, map[string]any{"path": name, "anchors": "tag", "limit": 100000}))
	if r.Truncated || r.Notice != "" {
		t.Fatalf("read shows part of the file: %s", r.Notice)
	}
	if e, isErr := commands.Do(t, s, commands.CmdEdit, map[string]any{"path": name, "tag": r.Tag, "ops": ops}).(*commands.ErrorResult); isErr {
		t.Fatalf("edit failed: %s: %s\nops:\n%s", e.Error.Code, e.Error.Message, ops)
	}
	viaEdit = commands.ReadFile(t, filepath.Join(dir, name))

	s, dir = commands.NewTestServer(t, map[string]string{name: input})
	rl := commands.MustRead(t, commands.Do(t, s, commands.CmdRead, map[string]any{"path": name, "anchors": "line", "limit": 100000}))
	if rl.Truncated || rl.Notice != "" {
		t.Fatalf("line read shows part of the file: %s", rl.Notice)
	}
	patch = kliPatch(name, hunks, commands.RowAnchors(t, rl.Content))
	if p, isErr := commands.Do(t, s, commands.CmdPatch, map[string]any{"patch": patch}).(*commands.ErrorResult); isErr {
		t.Fatalf("patch failed: %s: %s\npatch:\n%s", p.Error.Code, p.Error.Message, patch)
	}
	return viaEdit, commands.ReadFile(t, filepath.Join(dir, name)), patch
}

// inEditor lands the same two through VS Code's side of the protocol, into
// buffers it holds, and returns what the buffers hold; the disk must stay
// as it was.
func inEditor(t *testing.T, name, input, ops string, hunks []hashline.Hunk) (inEdit, inPatch string) {
	t.Helper()
	e := lsptest.New(t, lsptest.VSCode())
	edited, patched := "edit/"+name, "patch/"+name
	for _, rel := range []string{edited, patched} {
		e.WriteFile(rel, input)
		e.Open(rel, 1)
	}
	r := e.OK(commands.CmdRead, map[string]any{"path": edited, "limit": 100000})
	e.Edit(edited, r.Tag, ops)
	patch := kliPatch(patched, hunks, e.LineAnchors(patched))
	if res, err := e.Exec(commands.CmdPatch, map[string]any{"patch": patch}); err != nil || !res.OK {
		t.Fatalf("patch through the editor: %v %s\npatch:\n%s", err, res.Raw, patch)
	}
	for _, rel := range []string{edited, patched} {
		if e.DiskText(rel) != input {
			t.Fatalf("%s: the disk changed under an open buffer", rel)
		}
	}
	return e.BufferText(edited), e.BufferText(patched)
}

// editOps writes hunks as hashline.edit ops, all against the read's line
// numbers.
func editOps(hunks []hashline.Hunk) string {
	var b strings.Builder
	for _, h := range hunks {
		switch {
		case h.Start == h.End && h.Start == 0:
			b.WriteString("PUT <1:\n")
		case h.Start == h.End:
			fmt.Fprintf(&b, "PUT >%d:\n", h.Start)
		case len(h.Lines) == 0:
			fmt.Fprintf(&b, "CUT %d.=%d\n", h.Start+1, h.End)
			continue
		default:
			fmt.Fprintf(&b, "PUT %d.=%d:\n", h.Start+1, h.End)
		}
		for _, l := range h.Lines {
			b.WriteString("+" + l + "\n")
		}
	}
	return b.String()
}

// kliPatch writes hunks as a kli patch with the anchors a read showed.
func kliPatch(name string, hunks []hashline.Hunk, anchors map[int]string) string {
	var b strings.Builder
	b.WriteString("@@ " + name + "\n")
	for _, h := range hunks {
		switch {
		case h.Start == h.End && h.Start == 0 && len(anchors) == 0:
			b.WriteString("<\n")
		case h.Start == h.End && h.Start == 0:
			b.WriteString("< " + anchors[1] + "\n")
		case h.Start == h.End:
			b.WriteString("+ " + anchors[h.Start] + "\n")
		case len(h.Lines) == 0:
			b.WriteString("- " + anchors[h.Start+1] + ".." + anchors[h.End] + "\n")
			continue
		default:
			b.WriteString("= " + anchors[h.Start+1] + ".." + anchors[h.End] + "\n")
		}
		for _, l := range h.Lines {
			b.WriteString("~" + l + "\n")
		}
	}
	return b.String()
}

func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
