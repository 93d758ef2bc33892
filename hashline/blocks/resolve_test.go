package blocks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"hashline-ls/internal/golden"
)

// span is an expected resolution: ok with start-end, or a decline whose
// reason contains want.
type span struct {
	start, end int
	want       string // substring of the reason; empty for a resolution
}

func (s span) String() string {
	if s.want != "" {
		return "decline containing " + fmt.Sprintf("%q", s.want)
	}
	return fmt.Sprintf("%d-%d", s.start, s.end)
}

// The core calls the resolver through hashline.BlockResolver; this package
// must not import the core, so the method set is pinned here instead, with
// the unnamed struct that both packages' Span name.
var _ interface {
	ResolveBlock(path, text string, line int) (struct{ Start, End int }, error)
} = New()

// reasonOf is a decline's reason, "" for a resolution. It fails the test
// run for an error that is no *Decline, which the contract rules out.
func reasonOf(err error) string {
	if err == nil {
		return ""
	}
	var d *Decline
	if !errors.As(err, &d) {
		panic(fmt.Sprintf("ResolveBlock returned %T, not a *Decline: %v", err, err))
	}
	return d.Reason
}

func lines(n, m int) span { return span{start: n, end: m} }

// holds reports whether a resolution (ok, lines start to end) or a decline
// (reason) is what s expects.
func (s span) holds(ok bool, start, end int, reason string) bool {
	if s.want == "" {
		return ok && start == s.start && end == s.end
	}
	return !ok && strings.Contains(reason, s.want)
}

// A resolveCase is one line of a want section under testdata/resolve:
//
//	LINE -> START-END: RULE
//	LINE -> declines "TEXT": RULE
//
// the first for a line that resolves to lines START to END, the second for
// a line that declines with a reason that contains TEXT, a Go string
// literal; RULE says what the case is about.
type resolveCase struct {
	line int
	want span
	rule string
}

// parseCase reads one line of a want section.
func parseCase(l string) (c resolveCase, err error) {
	head, rest, ok := strings.Cut(l, " -> ")
	if c.line, err = strconv.Atoi(head); !ok || err != nil {
		return c, fmt.Errorf("%q does not begin with LINE -> ", l)
	}
	if q, isDecline := strings.CutPrefix(rest, "declines "); isDecline {
		lit, err := strconv.QuotedPrefix(q)
		if err != nil {
			return c, fmt.Errorf("%q: %v", l, err)
		}
		if c.want.want, _ = strconv.Unquote(lit); c.want.want == "" {
			return c, fmt.Errorf("%q: an empty reason", l)
		}
		rest = q[len(lit):]
	} else {
		if _, err := fmt.Sscanf(rest, "%d-%d", &c.want.start, &c.want.end); err != nil {
			return c, fmt.Errorf("%q: %v", l, err)
		}
		rest = strings.TrimPrefix(rest, fmt.Sprintf("%d-%d", c.want.start, c.want.end))
	}
	if c.rule, ok = strings.CutPrefix(rest, ": "); !ok || c.rule == "" {
		return c, fmt.Errorf("%q does not end with : RULE", l)
	}
	return c, nil
}

// boolSection is the one-line section name, true or false.
func boolSection(t *testing.T, g *golden.File, name string) bool {
	t.Helper()
	b, err := strconv.ParseBool(g.Value(t, name))
	if err != nil {
		t.Fatalf("%s, section %s: %v", g.Path, name, err)
	}
	return b
}

// caseText is the text of a case's text section. A text whose last line
// has no LF is in a section named "text noeol" instead: the LF that ends
// the section is not part of it.
func caseText(t *testing.T, g *golden.File) string {
	t.Helper()
	if s, ok := g.Section("text noeol"); ok {
		return strings.TrimSuffix(s, "\n")
	}
	return g.Must(t, "text")
}

// resolveCases runs, for each golden file of dir, the cases of its want
// section on the path and text that source reads from the file.
func resolveCases(t *testing.T, dir string, atLeast int, source func(t *testing.T, g *golden.File) (path, text string)) {
	r := New()
	golden.Run(t, filepath.Join("testdata", "resolve", dir), atLeast, func(t *testing.T, g *golden.File) {
		path, text := source(t, g)
		for _, l := range strings.Split(g.Value(t, "want"), "\n") {
			c, err := parseCase(l)
			if err != nil {
				t.Fatalf("%s: %v", g.Path, err)
			}
			block, err := r.ResolveBlock(path, text, c.line)
			ok, reason := err == nil, reasonOf(err)
			if !c.want.holds(ok, block.Start, block.End, reason) {
				t.Errorf("%s line %d (%s): got ok=%v %d-%d %q, want %s", path, c.line, c.rule, ok, block.Start, block.End, reason, c.want)
			}
		}
	})
}

// TestContract pins the rules the contract states (docs/contract.md §10.4) on the fixtures,
// independently of the goldens, so a regenerated golden cannot quietly
// change them: its cases under testdata/resolve/contract are written by
// hand, and -update leaves them alone. A file's fixture section names a
// fixture under testdata, its want section holds the cases on it, one a
// line as resolveCase says, and its comment the rule they pin.
func TestContract(t *testing.T) {
	resolveCases(t, "contract", 40, func(t *testing.T, g *golden.File) (string, string) {
		fixture := g.Value(t, "fixture")
		raw, err := readFixture(fixture)
		if err != nil {
			t.Fatal(err)
		}
		return fixture, string(raw)
	})
}

// readFixture reads testdata/name, or testdata/name.fixture for the files
// Go's own tools would otherwise read.
func readFixture(name string) ([]byte, error) {
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if os.IsNotExist(err) {
		return os.ReadFile(filepath.Join("testdata", name+".fixture"))
	}
	return raw, err
}

// TestLanguage looks up the paths of testdata/resolve/language/paths.txt,
// a path and the name of its language row a line, or a path alone for one
// that has none.
func TestLanguage(t *testing.T) {
	g := golden.Read(t, filepath.Join("testdata", "resolve", "language", "paths.txt"))
	rows := strings.Split(g.Value(t, "want"), "\n")
	if len(rows) < 47 {
		t.Fatalf("%d paths, want at least 47", len(rows))
	}
	for _, row := range rows {
		path, want, _ := strings.Cut(row, " ")
		if got := langName(path); got != want {
			t.Errorf("lookup(%q) is %q, want %q", path, got, want)
		}
	}
}

// langName is the name of path's language row, "" when there is none.
func langName(path string) string {
	if l := lookup(path); l != nil {
		return l.name
	}
	return ""
}

func TestUnsupported(t *testing.T) {
	r := New()
	for _, path := range []string{"notes.txt", "Dockerfile"} {
		_, err := r.ResolveBlock(path, "a\nb\n", 1)
		if reason := reasonOf(err); err == nil || !strings.Contains(reason, "not available for") || !strings.Contains(reason, "plain line ranges") {
			t.Errorf("%s: ok=%v reason %q, want a decline that says block ops are unavailable and plain ranges work", path, err == nil, reason)
		}
		if clean, supported := r.Parses(path, "a\n"); clean || supported {
			t.Errorf("Parses(%s) = %v, %v, want false, false", path, clean, supported)
		}
	}
	if _, err := r.ResolveBlock("x/notes.txt", "a\n", 1); !strings.Contains(reasonOf(err), ".txt files") {
		t.Errorf("reason %q should name the extension", reasonOf(err))
	}
}

func TestLineOutsideFile(t *testing.T) {
	r := New()
	text := "fn a() {\n}\n"
	for _, line := range []int{-1, 0, 3} {
		if _, err := r.ResolveBlock("a.rs", text, line); err == nil || !strings.Contains(reasonOf(err), "outside the file, which has lines 1 to 2") {
			t.Errorf("line %d: ok=%v reason %q", line, err == nil, reasonOf(err))
		}
	}
	if _, err := r.ResolveBlock("a.rs", "", 1); err == nil || !strings.Contains(reasonOf(err), "empty") {
		t.Errorf("empty file: ok=%v reason %q", err == nil, reasonOf(err))
	}
	// A last line without its LF is still a line.
	if block, err := r.ResolveBlock("a.rs", "fn a() {\n}", 1); err != nil || block.Start != 1 || block.End != 2 {
		t.Errorf("no final LF: %d-%d ok=%v %q", block.Start, block.End, err == nil, reasonOf(err))
	}
}

func TestSizeLimit(t *testing.T) {
	r := New()
	body := strings.Repeat("x = 1\n", MaxParseBytes/6+1)
	text := "def f():\n" + body
	if _, err := r.ResolveBlock("big.py", text, 1); err == nil || !strings.Contains(reasonOf(err), "4 MiB") {
		t.Errorf("over the limit: ok=%v reason %q", err == nil, reasonOf(err))
	}
	if clean, supported := r.Parses("big.py", text); clean || !supported {
		t.Errorf("Parses over the limit = %v, %v, want false, true", clean, supported)
	}
}

// TestParses checks Parses on the texts under testdata/resolve/parses: a
// file's path and text sections (text noeol, as caseText says, for a text
// without a final LF) and whether it parses cleanly, its clean section.
func TestParses(t *testing.T) {
	r := New()
	golden.Run(t, filepath.Join("testdata", "resolve", "parses"), 19, func(t *testing.T, g *golden.File) {
		path, text, want := g.Value(t, "path"), caseText(t, g), boolSection(t, g, "clean")
		clean, supported := r.Parses(path, text)
		if clean != want || !supported {
			t.Errorf("Parses(%s, %q) = %v, %v, want %v, true", path, text, clean, supported, want)
		}
	})
}

// TestFlowPragma checks hasFlowPragma on the texts under
// testdata/resolve/flow: a file's text section (or text noeol) and
// whether the text has the pragma, its pragma section.
func TestFlowPragma(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "resolve", "flow"), 7, func(t *testing.T, g *golden.File) {
		text, want := caseText(t, g), boolSection(t, g, "pragma")
		if got := hasFlowPragma(text); got != want {
			t.Errorf("hasFlowPragma(%q) = %v, want %v", text, got, want)
		}
	})
}

// TestConcurrent resolves from many goroutines at once: every call owns its
// parser and tree, so the race detector must stay quiet and the answers
// must agree.
func TestConcurrent(t *testing.T) {
	r := New()
	raw, err := os.ReadFile(filepath.Join("testdata", "typescript", "blocks.ts"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	want := make([]string, countLines(text)+1)
	for line := 1; line < len(want); line++ {
		block, err := r.ResolveBlock("a.ts", text, line)
		want[line] = fmt.Sprint(block, reasonOf(err))
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for line := 1 + g%3; line < len(want); line += 3 {
				block, err := r.ResolveBlock("a.ts", text, line)
				if got := fmt.Sprint(block, reasonOf(err)); got != want[line] {
					t.Errorf("line %d: concurrent answer %q, want %q", line, got, want[line])
				}
			}
		}(g)
	}
	wg.Wait()
}

// TestEditedFixtures resolves lines of every fixture with one line taken out
// or doubled, which breaks many of them in ways no golden shows: nothing may
// panic, and every span must start on its line and end inside the text.
func TestEditedFixtures(t *testing.T) {
	r := New()
	fixtures, err := filepath.Glob(filepath.Join("testdata", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fixtures {
		if fi, err := os.Stat(f); strings.HasSuffix(f, ".golden") || err == nil && fi.IsDir() {
			continue
		}
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		path := strings.TrimSuffix(f, ".fixture")
		all := strings.SplitAfter(string(raw), "\n")
		for i := range all {
			for _, edited := range [][]string{
				append(append([]string{}, all[:i]...), all[i+1:]...),
				append(append(append([]string{}, all[:i+1]...), all[i]), all[i+1:]...),
			} {
				text := strings.Join(edited, "")
				n := countLines(text)
				for _, line := range []int{i - 1, i, i + 1, i + 2, n} {
					block, err := r.ResolveBlock(path, text, line)
					if err == nil && (block.Start != line || block.End <= block.Start || block.End > n) {
						t.Errorf("%s without line %d, line %d: span %d-%d in %d lines", f, i+1, line, block.Start, block.End, n)
					}
					if err != nil && reasonOf(err) == "" {
						t.Errorf("%s, line %d: a decline without a reason", f, line)
					}
				}
			}
		}
	}
}

// TestDocCommentEdges pins doc comment cases the fixtures leave out: where
// a grammar files the comment, and texts at the edges of the definition.
// A file under testdata/resolve/edges holds a path, a text (text noeol, as
// caseText says, for one without a final LF) and the cases on it, one a
// line as resolveCase says.
func TestDocCommentEdges(t *testing.T) {
	resolveCases(t, "edges", 11, func(t *testing.T, g *golden.File) (string, string) {
		return g.Value(t, "path"), caseText(t, g)
	})
}

// clip counts characters, as the core's clip does, so a quote of text
// beyond ASCII keeps as many characters as a quote of ASCII. A file under
// testdata/resolve/clip holds the text (in), the count (n) and the clipped
// text (want), each a line.
func TestClip(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "resolve", "clip"), 5, func(t *testing.T, g *golden.File) {
		in, want := g.Value(t, "in"), g.Value(t, "want")
		n, err := strconv.Atoi(g.Value(t, "n"))
		if err != nil {
			t.Fatal(err)
		}
		if got := clip(in, n); got != want {
			t.Errorf("clip(%q, %d) = %q, want %q", in, n, got, want)
		}
	})
}
