package hashline_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"

	"hashline-ls/hashline"
	"hashline-ls/internal/golden"
	"hashline-ls/internal/testenv"
)

// A unified golden file holds "old" and "new" (a section named "old noeol"
// or "new noeol" loses its final LF), optional "labels" (two lines; a/f.txt
// and b/f.txt without them), and "diff": what Unified prints, which is what
// diff -u prints. go-udiff, which rendered the diff shown after an edit
// before Unified, prints "diff" too, or the "udiff" section where it
// differs, so every difference between the two is written down here.
func TestUnifiedGolden(t *testing.T) {
	golden.Run(t, "testdata/unified", 12, func(t *testing.T, g *golden.File) {
		old, new := goldenText(t, g, "old"), goldenText(t, g, "new")
		la, lb := "a/f.txt", "b/f.txt"
		if l, ok := g.Section("labels"); ok {
			la, lb, _ = strings.Cut(strings.TrimSuffix(l, "\n"), "\n")
		}
		got, was := hashline.Unified(la, lb, old, new), udiff.Unified(la, lb, old, new)
		if *golden.Update {
			g.Set("diff", got)
			if was != got {
				g.Set("udiff", was)
			}
			g.Write(t)
			return
		}
		if want := g.Must(t, "diff"); got != want {
			t.Errorf("Unified =\n%s\nwant\n%s", got, want)
		}
		want, differs := g.Section("udiff")
		if !differs {
			want = g.Must(t, "diff")
		}
		if was != want {
			t.Errorf("go-udiff now prints\n%s\nwant\n%s", was, want)
		}
		if differs && want == g.Must(t, "diff") {
			t.Errorf("the udiff section equals the diff section: drop it")
		}
	})
}

func goldenText(t *testing.T, g *golden.File, name string) string {
	t.Helper()
	if s, ok := g.Section(name); ok {
		return s
	}
	if s, ok := g.Section(name + " noeol"); ok {
		return strings.TrimSuffix(s, "\n")
	}
	t.Fatalf("no %q section", name)
	return ""
}

// TestUnifiedCorpus diffs each real edit of the corpus both ways: the diff
// must turn the old text into the new one, and mark no more lines than
// go-udiff's does.
func TestUnifiedCorpus(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join(testenv.Corpus(t, "react-edit"), "*", "input", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("the react-edit corpus holds no input files")
	}
	for _, in := range inputs {
		a, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(in)), "expected", filepath.Base(in)))
		if err != nil {
			t.Fatal(err)
		}
		for _, pair := range [][2]string{{string(a), string(b)}, {string(b), string(a)}} {
			old, new := pair[0], pair[1]
			d := hashline.Unified("a/f", "b/f", old, new)
			if got, err := applyUnified(old, d); err != nil || got != new {
				t.Errorf("%s: the diff does not turn old into new (%v):\n%s", in, err, d)
			}
			if n, m := changedRows(d), changedRows(udiff.Unified("a/f", "b/f", old, new)); n > m {
				t.Errorf("%s: the diff marks %d lines, go-udiff's %d", in, n, m)
			}
		}
	}
}

func changedRows(d string) int {
	n := 0
	for _, l := range strings.Split(d, "\n") {
		if (l != "" && (l[0] == '-' || l[0] == '+')) && !strings.HasPrefix(l, "--- ") && !strings.HasPrefix(l, "+++ ") {
			n++
		}
	}
	return n
}

// applyUnified applies a unified diff to old, checking every context and
// removed row against it and every hunk's line counts.
func applyUnified(old, d string) (string, error) {
	src := strings.SplitAfter(old, "\n")
	if src[len(src)-1] == "" {
		src = src[:len(src)-1]
	}
	var rows []string
	for _, r := range strings.SplitAfter(d, "\n") {
		switch {
		case r == "":
		case r == "\\ No newline at end of file\n":
			// The row before it is a line without its LF.
			if len(rows) == 0 {
				return "", fmt.Errorf("a no-newline marker opens the diff")
			}
			rows[len(rows)-1] = strings.TrimSuffix(rows[len(rows)-1], "\n")
		default:
			rows = append(rows, r)
		}
	}
	if len(rows) < 2 || !strings.HasPrefix(rows[0], "--- ") || !strings.HasPrefix(rows[1], "+++ ") {
		return "", fmt.Errorf("no header")
	}
	var out []string
	pos, oldLeft, newLeft := 0, 0, 0
	for _, r := range rows[2:] {
		if strings.HasPrefix(r, "@@ ") {
			if oldLeft != 0 || newLeft != 0 {
				return "", fmt.Errorf("a hunk ends %d old and %d new rows short", oldLeft, newLeft)
			}
			var start int
			var err error
			if start, oldLeft, newLeft, err = hunkHeader(r); err != nil {
				return "", err
			}
			if start < pos || start > len(src) {
				return "", fmt.Errorf("hunk %q is out of place", r)
			}
			out = append(out, src[pos:start]...)
			pos = start
			continue
		}
		mark, line := r[0], r[1:]
		if mark == ' ' || mark == '-' {
			if pos >= len(src) || src[pos] != line {
				return "", fmt.Errorf("row %q does not match old line %d", r, pos+1)
			}
			pos++
			oldLeft--
		}
		switch mark {
		case ' ', '+':
			out = append(out, line)
			newLeft--
		case '-':
		default:
			return "", fmt.Errorf("row %q has no mark", r)
		}
	}
	if oldLeft != 0 || newLeft != 0 {
		return "", fmt.Errorf("the last hunk ends %d old and %d new rows short", oldLeft, newLeft)
	}
	return strings.Join(append(out, src[pos:]...), ""), nil
}

// hunkHeader reads "@@ -a,b +c,d @@": the 0-based old line the hunk
// starts at and its old and new row counts.
func hunkHeader(h string) (start, oldN, newN int, err error) {
	f := strings.Fields(h)
	if len(f) != 4 || f[0] != "@@" || f[3] != "@@" || f[1][0] != '-' || f[2][0] != '+' {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q", h)
	}
	rng := func(s string) (int, int, error) {
		a, b, ok := strings.Cut(s, ",")
		n := 1
		if ok {
			var err error
			if n, err = strconv.Atoi(b); err != nil {
				return 0, 0, err
			}
		}
		l, err := strconv.Atoi(a)
		return l, n, err
	}
	l, oldN, err := rng(f[1][1:])
	if err != nil {
		return 0, 0, 0, err
	}
	if _, newN, err = rng(f[2][1:]); err != nil {
		return 0, 0, 0, err
	}
	if oldN > 0 {
		l--
	}
	return l, oldN, newN, nil
}

// Unified diffs only what lies between the lines both texts share at
// their ends, with context: its diff turns the old text into the new one
// and marks as many lines as the diff of the whole texts, on random edits
// of random texts with repeated lines, with and without a final LF. (Where
// two shortest diffs tie, go-diff's cleanup may pick the other one.)
func TestUnifiedTrimsCommonEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 7))
	pick := []string{"a\n", "b\n", "a\n", "}\n", "\n", "  x = 1\n", "c"}
	text := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			l := pick[rng.IntN(len(pick))]
			if l == "c" && i < n-1 {
				l = "c\n"
			}
			b.WriteString(l)
		}
		return b.String()
	}
	same := 0
	for i := 0; i < 3000; i++ {
		old := text(rng.IntN(40))
		lines := strings.SplitAfter(old, "\n")
		for k := rng.IntN(4); k > 0; k-- {
			at := rng.IntN(len(lines) + 1)
			switch rng.IntN(3) {
			case 0:
				lines = slices.Insert(lines, at, text(1+rng.IntN(3)))
			case 1:
				if at < len(lines) {
					lines = slices.Delete(lines, at, at+1)
				}
			default:
				if at < len(lines) {
					lines[at] = text(1)
				}
			}
		}
		new := strings.Join(lines, "")
		if old == new {
			same++
			continue
		}
		got, whole := hashline.Unified("a", "b", old, new), hashline.UnifiedWhole("a", "b", old, new)
		if applied, err := applyUnified(old, got); err != nil || applied != new || changedRows(got) != changedRows(whole) {
			t.Fatalf("old %q new %q (%v):\ntrimmed:\n%s\nwhole:\n%s", old, new, err, got, whole)
		}
		if got == whole {
			same++
		}
	}
	t.Logf("%d of 3000 diffs are the whole texts' diff byte for byte", same)
	if same < 2500 {
		t.Fatalf("only %d of 3000 diffs are the whole texts' diff byte for byte", same)
	}
}
