package documents

import (
	"testing"

	"hashline-ls/hashline"
)

func change(l1, c1, l2, c2 uint32, text string) Change {
	return Change{Range: &Range{Start: Position{l1, c1}, End: Position{l2, c2}}, Text: text}
}

// watched is a store holding /f open with text base, and the watch of an
// edit of it, ended with the test.
func watched(t *testing.T, base string) (*Store, *Watch) {
	t.Helper()
	s := NewStore()
	s.Open("/f", "file:///f", 1, base)
	old := Live{Text: hashline.NewText(base), Version: 1, Open: true}
	w, err := s.Watch(ChangeSet{Files: []FileChange{{Kind: Modify, Path: "/f", Old: &old}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.End)
	return s, w
}

// The journal finds an edit applied after a keystroke it was not planned
// for, only when that put it at other text, and its undo restores the
// text the editor applied it to.
func TestMisplaced(t *testing.T) {
	base := "a\nb\nc\nd\n"
	typed := change(0, 0, 0, 0, "new\n")
	// The edit: line 3 becomes C, and a line after line 4.
	sent := []Change{change(2, 0, 2, 1, "C"), change(4, 0, 4, 0, "e\n")}
	for _, tc := range []struct {
		name     string
		reported []Change // what the editor reports after the edit was sent
		want     string   // the text the undo gives back, "" for not misplaced
		lines    [2]int
	}{
		{"applied after the keystroke", []Change{typed, change(4, 0, 4, 0, "e\n"), change(2, 0, 2, 1, "C")}, "new\na\nb\nc\nd\n", [2]int{3, 5}},
		{"applied where planned, then the keystroke", []Change{change(4, 0, 4, 0, "e\n"), change(2, 0, 2, 1, "C"), typed}, "", [2]int{}},
		{"a keystroke below the edit", []Change{change(3, 1, 3, 1, "!"), change(4, 0, 4, 0, "e\n"), change(2, 0, 2, 1, "C")}, "", [2]int{}},
		{"only the keystroke", []Change{typed}, "", [2]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, w := watched(t, base)
			for i, c := range tc.reported {
				if err := s.Change("/f", int32(2+i), []Change{c}); err != nil {
					t.Fatal(err)
				}
			}
			d, _ := s.Get("/f")
			m := w.misplaced("/f", d.Text, sent, UTF16)
			if tc.want == "" {
				if m != nil {
					t.Fatalf("misplaced = %+v, want none", m)
				}
				return
			}
			if m == nil {
				t.Fatal("misplaced = none")
			}
			undone := d.Text
			for _, c := range m.Undo {
				undone = applyChange(undone, c, UTF16)
			}
			if undone != tc.want || m.Applied != tc.want || m.Lines != tc.lines {
				t.Fatalf("undo gives %q (applied to %q, lines %v), want %q at lines %v", undone, m.Applied, m.Lines, tc.want, tc.lines)
			}
		})
	}
}

// An edit that landed where it was planned is not misplaced when the text
// judged not to show it was looked at before the edit's didChange came.
// The didChange holds one content change per text edit, and its first
// alone is a text that the whole edit, rewriting lines of the same length,
// turns into the same result.
func TestMisplacedJudgesTheTextLookedAt(t *testing.T) {
	base := "a\nb\nc\n"
	sent := []Change{change(0, 0, 0, 1, "A"), change(2, 0, 2, 1, "C")}
	s, w := watched(t, base)
	if err := s.Change("/f", 2, []Change{sent[1], sent[0]}); err != nil {
		t.Fatal(err)
	}
	if m := w.misplaced("/f", base, sent, UTF16); m != nil {
		t.Fatalf("misplaced = %+v for text looked at before the edit came, want none", m)
	}
}
