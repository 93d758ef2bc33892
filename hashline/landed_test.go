package hashline_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

// LineHunks turns one LF text into another exactly, touching only lines
// that differ.
func TestLineHunksRoundTrip(t *testing.T) {
	t.Parallel()
	words := []string{"a", "b", "}", "", "return nil", "x := 1"}
	for seed := uint64(0); seed < 2000; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		gen := func() string {
			var b strings.Builder
			for i := r.IntN(12); i > 0; i-- {
				b.WriteString(words[r.IntN(len(words))] + "\n")
			}
			return b.String()
		}
		oldRaw, newRaw := gen(), gen()
		old, next := hashline.NewText(oldRaw), hashline.NewText(newRaw)
		hunks, ok := hashline.LineHunks(old, next)
		if !ok {
			t.Fatal("LineHunks declined a small text")
		}
		if got := old.Splice(hunks); got != newRaw && old.Len() > 0 {
			t.Fatalf("seed %d: %q → %q gave %q via %+v", seed, oldRaw, newRaw, got, hunks)
		}
		if oldRaw == newRaw && len(hunks) != 0 {
			t.Fatalf("seed %d: equal texts gave hunks %+v", seed, hunks)
		}
	}
}

func TestShowsEdit(t *testing.T) {
	t.Parallel()
	old := hashline.NewText("a\nb\nc\nd\n")
	replace := []hashline.Hunk{{Start: 1, End: 2, Lines: []string{"B"}}}  // line 2 → B
	insert := []hashline.Hunk{{Start: 2, End: 2, Lines: []string{"new"}}} // after line 2
	cases := []struct {
		name  string
		hunks []hashline.Hunk
		got   string
		want  bool
	}{
		{"replacement landed", replace, "a\nB\nc\nd\n", true},
		{"replacement landed, a formatter changed it", replace, "a\n  B;\nc\nd\n", true},
		{"replacement landed beside the user's typing", replace, "typed a\nB\nc\nd\n", true},
		{"replacement skipped, the user typed elsewhere", replace, "typed a\nb\nc\nd\n", false},
		{"insertion landed", insert, "a\nb\nnew\nc\nd\n", true},
		{"insertion skipped, the user typed elsewhere", insert, "a\nb\nc\nd typed\n", false},
		{"insertion skipped, nothing changed", insert, "a\nb\nc\nd\n", false},
	}
	for _, c := range cases {
		if got := hashline.ShowsEdit(old, c.hunks, hashline.NewText(c.got)); got != c.want {
			t.Errorf("%s: ShowsEdit = %v, want %v", c.name, got, c.want)
		}
	}
	// Two hunks: both must show.
	both := []hashline.Hunk{{Start: 0, End: 1, Lines: []string{"A"}}, {Start: 3, End: 4, Lines: []string{"D"}}}
	if !hashline.ShowsEdit(old, both, hashline.NewText("A\nb\nc\nD\n")) {
		t.Error("both hunks landed: want true")
	}
	if hashline.ShowsEdit(old, both, hashline.NewText("A\nb\nc\nd\n")) {
		t.Error("one hunk of two: want false")
	}
}
