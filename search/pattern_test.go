package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

// reference is the plain search: hashline's lines, each matched alone.
func reference(t testing.TB, expr, text string, limit int) []int {
	t.Helper()
	re := regexp.MustCompile(expr)
	tx := hashline.NewText(text)
	var out []int
	for n := 1; n <= tx.Len() && (limit < 0 || len(out) < limit); n++ {
		if re.MatchString(tx.Line(n)) {
			out = append(out, n)
		}
	}
	return out
}

var patterns = []string{
	`func\s+\w+Handler`, `zzzqqqxxx`, `useState\(|useEffect\(`, `alpha`, `^alpha$`, `^`, `$`, `^$`, `a*`,
	`(?i)handler`, `(?i)HANDLER|kelvin`, `(?i)ſtate`, `[Hh]andler`, `\bx\b`, `\Bx`, `x\B`, `\Ax`, `x\z`, `^\s*$`,
	`\s+$`, `[^a]`, `(?s).`, `(?s)a.b`, `a\nb`, `a\rb|alpha`, `[\r\n]`, `\d{3}`, `[A-Z][a-z]+\d+`, `é`, `(?i)é`,
	`caf.`, "\uFEFF", `(?m)^a`, `(?U)a+?b`, `(alpha|beta)+`, `x?y`, `(?:ab){2,}`, `[^\x00-\x{10FFFF}]`, `.\r?$`,
	`\Qa.b\E`, `(?i)k`, `K`, `(?i)s`, `bet[a]`, `\x00`, `ACTIONS\(3999\)`, `(?i)actions\(3999`, `(?i)ction\(3999`,
}

var texts = []string{
	"",
	"\n",
	"alpha\nbeta\nalphabet\n",
	"x\r\nalpha  \r\n",
	"one\rtwo\ralpha\r",
	"mixed\n\r\nalpha\r\r\nbeta",
	"\uFEFFalpha\nbeta",
	"\uFEFF",
	"\uFEFF\n\uFEFFalpha\n",
	"no final alpha",
	"\n\n\n",
	"a\nb\na\rb\r\n",
	"func  \n  fooHandler()\nfunc barHandler() {}\n",
	"FUNC x HANDLER\nuseState(1)\nuseEffect(() => {})\nuseStat(\n",
	"caf\xe9\n\xff\xfe\ncafé\n",
	"K\u212A k\nſtate STATE\nx y\nxx\n\tx\n",
	"123 abc Abc12\r\n\r\n  \n \t \nababab\n",
	"a.b\nab\nzzzqqqxxx\n\x00\n",
	strings.Repeat("filler line\n", 50) + "alpha\n" + strings.Repeat("y", 70000) + "\nbeta\r\n",
	strings.Repeat("H", 5000) + "Handler func xHandler\n" + strings.Repeat("HandleHan\n", 300) + "func HHandler\n",
	// Past retuneSpan with a common pivot, so the search picks another.
	strings.Repeat("SHIFT(1) HANDLE alpha\n", 3200) + "func aHandler\n" + strings.Repeat("usestate USESTATE\n", 3800) + "useState(\n",
	tableText,
}

// tableText is a parser's table, where every byte of ACTIONS(3999) is
// common and the literal itself rare, so the search looks for two bytes at
// once; the last hit is in the part it looks at one position at a time.
var tableText = strings.Repeat("  [1234] = ACTIONS(3969), SHIFT(99),\n", 1500) + "  [7] = ACTIONS(3999), x\n" +
	strings.Repeat("  [1234] = ACTIONS(3969), SHIFT(99),\r\n", 1500) + "actions(3999)\nACTIONS(3999)"

func TestLinesMatchReference(t *testing.T) {
	for _, expr := range patterns {
		p, err := Compile(expr)
		if err != nil {
			t.Fatalf("%q: %v", expr, err)
		}
		for i, text := range texts {
			all := reference(t, expr, text, -1)
			for _, limit := range []int{-1, 1, 2} {
				want := all
				if limit >= 0 && len(all) > limit {
					want = all[:limit]
				}
				if got := p.LinesString(text, limit); !reflect.DeepEqual(got, want) {
					t.Errorf("%q in text %d (limit %d): lines %v, want %v", expr, i, limit, got, want)
				}
			}
		}
	}
}

// A text given a part at a time, each part ending after an LF, gives the
// lines the whole text does.
func TestScannerInParts(t *testing.T) {
	for i, text := range texts {
		b := []byte(text)
		var ends []int // just past each LF
		for at := 0; ; {
			j := bytes.IndexByte(b[at:], '\n')
			if j < 0 {
				break
			}
			at += j + 1
			ends = append(ends, at)
		}
		for _, expr := range patterns {
			p := mustCompile(t, expr)
			want := reference(t, expr, text, -1)
			for _, step := range []int{1, 2, 7} {
				grown, parts := p.newScanner(-1), p.newScanner(-1)
				from := 0
				for k := step - 1; k < len(ends); k += step {
					grown.feed(b[:ends[k]], false)
					// The same part given alone, after the one before.
					parts.feed(b[from:ends[k]], false)
					parts.rebase()
					from = ends[k]
				}
				grown.feed(b, true)
				parts.feed(b[from:], true)
				if !reflect.DeepEqual(grown.lines, want) || !reflect.DeepEqual(parts.lines, want) {
					t.Errorf("%q in text %d, parts of %d lines: %v and %v, want %v", expr, i, step, grown.lines, parts.lines, want)
				}
			}
		}
	}
}

// Where no byte of the literal is rare, the search goes over to looking
// for two at once.
func TestPairSearchEngages(t *testing.T) {
	for _, expr := range []string{`ACTIONS\(3999\)`, `(?i)ction\(3999`} {
		p := mustCompile(t, expr)
		s := p.newScanner(-1)
		s.feed([]byte(tableText), true)
		if c := s.cursors[0]; c.pair < 0 || !reflect.DeepEqual(s.lines, reference(t, expr, tableText, -1)) {
			t.Errorf("%q: pair %d, lines %v", expr, c.pair, s.lines)
		}
	}
}

func mustCompile(t testing.TB, expr string) *Pattern {
	t.Helper()
	p, err := Compile(expr)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCompileErrorsAreRegexps(t *testing.T) {
	for _, expr := range []string{`(a`, `a**`, `[z-a]`, `\8`, `(?<x)`} {
		_, err := Compile(expr)
		_, want := regexp.Compile(expr)
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%q: error %v, want %v", expr, err, want)
		}
	}
}

// The literal each pattern is searched by: strings with /i look in any
// case; "none" means no line can match, "" that there is no literal.
func TestRequiredLiterals(t *testing.T) {
	cases := []struct {
		expr string
		want string
	}{
		{`zzzqqqxxx`, "zzzqqqxxx"},
		{`func\s+\w+Handler`, "Handler"},
		{`useState\(|useEffect\(`, "useState( useEffect("},
		{`(?i)handler`, "handler/i"},
		{`(?i)useState`, "tate/i"}, // s has a non-ASCII case, ſ
		{`(?i)k`, ""},
		{`[Hh]andler`, "handler/i"}, // the parser folds [Hh] into h in any case
		{`^\s*return\b`, "return"},
		{`(foo|bar)+baz`, "baz"},
		{`(foo|bar)+`, "foo bar"},
		{`a\nb`, "none"},
		{`\d+`, ""},
		{`x?y`, "y"},
		{`a|`, ""},
		{`é+`, "é"},
		{`(?i)é`, ""},
		{`a(?i:bcd)e`, "abcde/i"},
		{`[ab][cd]xy`, "acxy adxy bcxy bdxy"},
		{`[ab][cd][ef][gh][ij]x`, "ix jx"}, // 32 strings are too many; the run starts over
		{`a{3,}`, "aa"},                    // simplified to aa followed by a+
	}
	for _, c := range cases {
		tree, err := syntax.Parse(c.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		set, ok := requiredLiterals(tree.Simplify())
		got := ""
		switch {
		case ok && len(set) == 0:
			got = "none"
		case ok:
			var parts []string
			for _, l := range set {
				parts = append(parts, string(l.s)+map[bool]string{true: "/i"}[l.fold])
			}
			got = strings.Join(parts, " ")
		}
		if got != c.want {
			t.Errorf("%q: literals %q, want %q", c.expr, got, c.want)
		}
	}
}

func FuzzLines(f *testing.F) {
	for i, text := range texts {
		f.Add(uint(i), text)
	}
	f.Fuzz(func(t *testing.T, which uint, text string) {
		expr := patterns[which%uint(len(patterns))]
		p := mustCompile(t, expr)
		want := reference(t, expr, text, -1)
		if got := p.LinesString(text, -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q in %q: %v, want %v", expr, text, got, want)
		}
	})
}

// benchText is 200,000 lines of code-like text, about 6 MB.
func benchText() []byte {
	var sb strings.Builder
	for i := range 200000 {
		fmt.Fprintf(&sb, "\tvalue := parse%d(ctx, offset)\n", i)
	}
	return []byte(sb.String())
}

// BenchmarkBaseline is the unit: one count of the line endings of the same
// text, a single pass over its bytes.
func BenchmarkBaseline(b *testing.B) {
	text := benchText()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		bytes.Count(text, []byte{'\n'})
	}
}

func BenchmarkLines(b *testing.B) {
	text := benchText()
	for _, expr := range []string{`zzzqqqxxx`, `func\s+\w+Handler`, `(?i)handler`, `[A-Z]{3}\d`} {
		p := mustCompile(b, expr)
		b.Run(expr, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				p.Lines(text, -1)
			}
		})
	}
}

// pairScan finds what a plain search finds, from every position, in exact
// and in any case, whichever two bytes it looks for.
func TestPairScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aAbB(9 \n"
	for range 200 {
		text := make([]byte, rng.IntN(70))
		for i := range text {
			text[i] = alphabet[rng.IntN(len(alphabet))]
		}
		for _, fold := range []bool{false, true} {
			l := newLiteral(lit{s: "ab(9"[:2+rng.IntN(3)], fold: fold})
			for i := range l.s {
				for j := range l.s {
					if i == j {
						continue
					}
					for pos := range len(text) + 1 {
						want := -1
						for s := pos; s+len(l.s) <= len(text); s++ {
							if l.equal(text[s : s+len(l.s)]) {
								want = s
								break
							}
						}
						if got := l.pairScan(text, pos, i, j); got != want {
							t.Fatalf("%q in %q from %d, bytes %d and %d, fold %v: %d, want %d", l.s, text, pos, i, j, fold, got, want)
						}
					}
				}
			}
		}
	}
}
