package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

// corpusDir is the react-edit corpus, beside the repository (it is not part
// of it).
const corpusDir = "../../shared/corpus/react-edit"

// The same change, written as hashline.edit ops and as a kli patch, leaves
// byte-identical files: the two anchor styles share one engine, and neither
// loses a byte the other keeps. Every task of the corpus is one real change.
func TestEditAndPatchAgreeOnCorpus(t *testing.T) {
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Skipf("the react-edit corpus is not at %s (it lives beside the repository, at ../shared/corpus): %v", corpusDir, err)
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
		t.Skipf("no task folder with input/ and expected/ under %s", corpusDir)
	}
	t.Logf("react-edit corpus: %d tasks ran, %d passed (input to expected), %d passed undone (expected to input)", ran, passed, back)
}

func checkEquivalence(t *testing.T, name, input, expected string) {
	hunks, ok := hashline.LineHunks(hashline.NewText(input), hashline.NewText(expected))
	if !ok || len(hunks) == 0 {
		t.Fatalf("no line diff from input to expected (ok %v, %d hunks)", ok, len(hunks))
	}

	// (a) hashline.edit, after a read in the tag style.
	s, dir := newServer(t, map[string]string{name: input})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": name, "anchors": "tag", "limit": 100000}))
	if r.Truncated || r.Notice != "" {
		t.Fatalf("read shows part of the file: %s", r.Notice)
	}
	ops := editOps(hunks)
	e, isErr := call(t, s, CmdEdit, map[string]any{"path": name, "tag": r.Tag, "ops": ops}).(*ErrorResult)
	if isErr {
		t.Fatalf("edit failed: %s: %s\nops:\n%s", e.Error.Code, e.Error.Message, ops)
	}
	viaEdit := readFile(t, filepath.Join(dir, name))

	// (b) hashline.patch, after a read in the line style, with the anchors
	// that read shows.
	s, dir = newServer(t, map[string]string{name: input})
	rl := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": name, "anchors": "line", "limit": 100000}))
	if rl.Truncated || rl.Notice != "" {
		t.Fatalf("line read shows part of the file: %s", rl.Notice)
	}
	patch := kliPatch(name, hunks, rowAnchors(t, rl.Content))
	p, isErr := call(t, s, CmdPatch, map[string]any{"patch": patch}).(*ErrorResult)
	if isErr {
		t.Fatalf("patch failed: %s: %s\npatch:\n%s", p.Error.Code, p.Error.Message, patch)
	}
	viaPatch := readFile(t, filepath.Join(dir, name))

	if viaEdit != expected {
		t.Errorf("edit result differs from expected at byte %d\nops:\n%s", firstDiff(viaEdit, expected), ops)
	}
	if viaPatch != expected {
		t.Errorf("patch result differs from expected at byte %d\npatch:\n%s", firstDiff(viaPatch, expected), patch)
	}
	if viaEdit != viaPatch {
		t.Errorf("edit and patch results differ at byte %d", firstDiff(viaEdit, viaPatch))
	}
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
