package blocks

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"hashline-ls/internal/golden"
	"hashline-ls/internal/testenv"
)

// The core calls the outliner through hashline.Outliner, with the unnamed
// struct both packages' Symbol name; the method set is pinned here.
var _ interface {
	Outline(path, text string, keep func(Symbol) bool) ([]Symbol, error)
} = New()

// outlineSource is one file an outline golden is made from: a real file
// (testenv.Outlined), or a sample under testdata/outline/samples.
type outlineSource struct {
	lang, name string // name is how the resolver sees the file
	header     string // the golden's first line
	text       func(t *testing.T) string
}

// outlineSources lists a source for every language: the real file where
// one is known, else the sample of that language.
func outlineSources(t *testing.T) []outlineSource {
	var out []outlineSource
	for _, lang := range sortedKeys(testenv.Outlined) {
		r := testenv.Outlined[lang]
		out = append(out, outlineSource{lang: lang, name: filepath.Base(r.Path), header: r.Name(), text: func(t *testing.T) string {
			text := r.Read(t)
			return text
		}})
	}
	samples, err := filepath.Glob(filepath.Join("testdata", "outline", "samples", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range samples {
		out = append(out, outlineSource{lang: langName(s), name: filepath.Base(s), header: filepath.ToSlash(s), text: func(t *testing.T) string {
			b, err := os.ReadFile(s)
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}})
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestOutlineGolden outlines one file of every language and compares the
// result with testdata/outline/LANG.golden: each symbol's lines, whether
// its first line opens a block of exactly those lines, its kind, its name
// and its own line. A real file's golden records the file's SHA-256, so a
// changed file is told apart from a changed outline. Review a rewritten
// golden by eye against the file.
func TestOutlineGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, src := range outlineSources(t) {
		t.Run(src.lang, func(t *testing.T) {
			if seen[src.lang] {
				t.Fatalf("two outline sources for %s", src.lang)
			}
			seen[src.lang] = true
			text := normalize(src.text(t))
			if got := langName(src.name); got != src.lang {
				t.Fatalf("%s reads as %s, not %s", src.name, got, src.lang)
			}
			syms, err := New().Outline(src.name, text, nil)
			if err != nil {
				t.Fatalf("%s: %v", src.header, err)
			}
			if len(syms) == 0 {
				t.Fatalf("%s: no symbols", src.header)
			}
			got := fmt.Sprintf("# %s: %s (sha256 %x)\n", src.lang, src.header, sha256.Sum256([]byte(text))) + renderOutline(syms)
			goldenPath := filepath.Join("testdata", "outline", src.lang+".golden")
			want, ok := golden.Text(t, goldenPath, got)
			if !ok || got == want {
				return
			}
			if first(want) != first(got) {
				t.Fatalf("%s is not the file %s was reviewed against (%s, now %s): run go test -update and review the outline anew", src.header, goldenPath, first(want), first(got))
			}
			t.Errorf("outline differs from %s (run go test -update and review the diff):\n%s", goldenPath, diffLines(want, got))
		})
	}
	for _, l := range languages {
		if !seen[l.name] {
			t.Errorf("language %s has no outline golden: add a real file to testenv.Outlined or a sample to testdata/outline/samples", l.name)
		}
		if outlines[l.name] == nil {
			t.Errorf("language %s has no outline rules", l.name)
		}
	}
}

func first(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

func normalize(s string) string {
	return strings.ReplaceAll(strings.TrimPrefix(s, "\uFEFF"), "\r\n", "\n")
}

// renderOutline is a golden's body: one row per symbol, indented by depth.
func renderOutline(syms []Symbol) string {
	var b strings.Builder
	for _, s := range syms {
		block := ""
		if s.Block {
			block = " block"
		}
		label := s.Qualified
		if s.Group {
			label = s.Name
		}
		fmt.Fprintf(&b, "%s%d-%d%s %s %s (line %d)\n", strings.Repeat("  ", s.Depth), s.Start, s.End, block, s.Kind, label, s.Line)
	}
	return b.String()
}

// TestOutlineRanges holds every outlined symbol to the block resolver: a
// block symbol's first line resolves to exactly its lines, any other's
// does not, its own line lies in its range, and a member lies in the range
// of the symbol that contains it.
func TestOutlineRanges(t *testing.T) {
	r := New()
	for _, src := range outlineSources(t) {
		t.Run(src.lang, func(t *testing.T) {
			text := normalize(src.text(t))
			syms, err := r.Outline(src.name, text, nil)
			if err != nil {
				t.Fatal(err)
			}
			blocks := 0
			var open []Symbol // the symbols containing the current one
			for _, s := range syms {
				sp, err := r.ResolveBlock(src.name, text, s.Start)
				resolves := err == nil && sp.Start == s.Start && sp.End == s.End
				if resolves != s.Block {
					t.Errorf("%s (lines %d-%d, block %v): line %d resolves to %v, %v", s.Qualified, s.Start, s.End, s.Block, s.Start, sp, err)
				}
				if s.Block {
					blocks++
				}
				if s.Line < s.Start || s.Line > s.End {
					t.Errorf("%s: its own line %d is outside its lines %d-%d", s.Qualified, s.Line, s.Start, s.End)
				}
				for len(open) > s.Depth {
					open = open[:len(open)-1]
				}
				if len(open) != s.Depth {
					t.Errorf("%s is at depth %d with %d symbols open", s.Qualified, s.Depth, len(open))
				} else if n := len(open); n > 0 && (s.Start < open[n-1].Start || s.End > open[n-1].End) {
					t.Errorf("%s (lines %d-%d) is outside %s (lines %d-%d), which contains it", s.Qualified, s.Start, s.End, open[n-1].Qualified, open[n-1].Start, open[n-1].End)
				}
				open = append(open, s)
			}
			t.Logf("%s: %d symbols, %d of them blocks", src.header, len(syms), blocks)
		})
	}
}

// TestOutlineKeep checks that keep sees each symbol with its own line and
// that what it leaves out is neither listed nor resolved.
func TestOutlineKeep(t *testing.T) {
	text := "package p\n\n// F doc.\nfunc F() {\n}\n\nfunc G() {}\n"
	var asked []string
	syms, err := New().Outline("p.go", text, func(s Symbol) bool {
		asked = append(asked, fmt.Sprintf("%s@%d", s.Name, s.Line))
		return s.Name == "F"
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(asked, " ") != "F@4 G@7" {
		t.Errorf("keep was asked %v", asked)
	}
	if len(syms) != 1 || syms[0].Start != 3 || syms[0].End != 5 || !syms[0].Block {
		t.Errorf("got %+v, want F at lines 3-5, a block", syms)
	}
}

// TestOutlineDeclines checks the files that have no outline.
func TestOutlineDeclines(t *testing.T) {
	cases := []struct {
		name, text, want string
		noGrammar        bool
	}{
		{"notes.txt", "hello\n", "there is no outline for .txt files", true},
		{"Makefile", "all:\n", "there is no outline for Makefile files", true},
		{"bad.go", "package p\nfunc (\n", "does not parse cleanly as go", false},
		{"big.js", strings.Repeat("x;\n", MaxParseBytes/3+1), "over the 4 MiB limit", false},
	}
	for _, c := range cases {
		_, err := New().Outline(c.name, c.text, nil)
		d, ok := err.(*Decline)
		if !ok || !strings.Contains(d.Reason, c.want) || d.NoGrammar() != c.noGrammar {
			t.Errorf("%s: got %v, want a decline containing %q (no grammar: %v)", c.name, err, c.want, c.noGrammar)
		}
	}
}

// TestOutlineDeep outlines a file nested deeper than any outline goes,
// and a file of one long line, within the parse limits.
func TestOutlineDeep(t *testing.T) {
	const depth = MaxNesting - 1
	var b strings.Builder
	for i := range depth {
		fmt.Fprintf(&b, "%snamespace N%d {\n", strings.Repeat(" ", i%8), i)
	}
	for range depth {
		b.WriteString("}\n")
	}
	syms, err := New().Outline("deep.ts", b.String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(syms) != maxOutlineDepth+1 || syms[len(syms)-1].Depth != maxOutlineDepth {
		t.Errorf("got %d symbols, the deepest at depth %d; want %d down to depth %d", len(syms), syms[len(syms)-1].Depth, maxOutlineDepth+1, maxOutlineDepth)
	}
	var line strings.Builder
	for i := 0; line.Len() < MaxParseBytes-64; i++ {
		fmt.Fprintf(&line, "function f%d(){return %d}", i, i)
	}
	syms, err = New().Outline("min.js", line.String()+"\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(syms) == 0 || syms[0].Line != 1 || syms[len(syms)-1].End != 1 {
		t.Errorf("one long line: %d symbols, want them all on line 1", len(syms))
	}
}
