package blocks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
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
// must not import the core, so the method set is pinned here instead.
var _ interface {
	ResolveBlock(path, text string, line int) (start, end int, ok bool, reason string)
} = New()

func lines(n, m int) span      { return span{start: n, end: m} }
func declines(why string) span { return span{want: why} }

// TestContract pins the rules the contract states (§8.2) on the fixtures,
// independently of the goldens, so a regenerated golden cannot quietly
// change them.
func TestContract(t *testing.T) {
	cases := []struct {
		fixture string
		line    int
		want    span
		rule    string
	}{
		// Rule 1: leading attached nodes are separate.
		{"python/blocks.py", 8, lines(8, 17), "first decorator: decorators and the definition"},
		{"python/blocks.py", 12, lines(12, 17), "definition line: the definition alone"},
		{"python/blocks.py", 9, lines(9, 11), "a later decorator that spans lines is itself"},
		{"python/blocks.py", 7, declines("is a comment"), "a standalone comment is not a block"},
		{"python/blocks.py", 24, lines(24, 26), "method decorator and method"},
		{"python/blocks.py", 25, lines(25, 26), "method alone"},
		{"rust/blocks.rs", 6, lines(6, 14), "first attribute of the run: the run and the item"},
		{"rust/blocks.rs", 10, lines(10, 14), "item line: the item alone"},
		{"rust/blocks.rs", 5, declines("is a comment"), "a doc comment is not a block"},
		{"rust/blocks.rs", 11, lines(11, 12), "field attribute and field, its comma kept"},
		{"rust/blocks.rs", 24, lines(24, 37), "#[test] and the function"},
		{"rust/blocks.rs", 50, declines("is a comment"), "a block comment over lines is not a block"},
		{"typescript/blocks.ts", 4, lines(4, 25), "class decorators and the class"},
		{"typescript/blocks.ts", 8, lines(8, 25), "class line: the class alone"},
		{"typescript/blocks.ts", 16, lines(16, 24), "method decorators (siblings in the class body) and the method"},
		{"typescript/blocks.ts", 17, declines("16* covers the decorators"), "a later one-line decorator"},
		{"typescript/blocks.ts", 18, lines(18, 24), "method line: the method alone"},
		{"typescript/blocks.ts", 1, declines("is a comment"), "a JSDoc comment is not a block"},
		{"javascript/blocks.js", 10, lines(10, 21), "JavaScript class decorators and the class"},
		{"javascript/blocks.js", 14, lines(14, 21), "class line without its decorators"},
		{"javascript/blocks.js", 15, lines(15, 18), "method decorator and method"},
		{"javascript/blocks.js", 16, lines(16, 18), "method line without its decorator"},
		{"java/Blocks.java", 12, lines(12, 16), "annotations and the method"},
		{"java/Blocks.java", 13, declines("14* the declaration alone"), "a later annotation"},
		{"java/Blocks.java", 14, lines(14, 16), "method line without its annotations"},
		{"java/Blocks.java", 22, lines(22, 24), "method line that starts with its return type"},
		{"cpp/blocks.cpp", 12, lines(12, 15), "[[attribute]] and the function"},
		{"cpp/blocks.cpp", 13, lines(13, 15), "function line without its attribute"},
		{"lua/blocks.lua", 6, lines(6, 8), "function line without its documentation comment"},
		{"go/blocks.go", 14, lines(14, 16), "doc comment stays outside"},
		// Trailing comments stay outside the construct before them.
		{"yaml/blocks.yaml", 3, lines(3, 7), "the comment below a mapping is not swept in"},
		{"toml/blocks.toml", 8, lines(8, 10), "the comment above the next table is not swept in"},
		// Rule 2: markdown headings open sections.
		{"markdown/blocks.md", 1, lines(1, 34), "h1 covers everything below it"},
		{"markdown/blocks.md", 6, lines(6, 19), "h2 through its h3, without the blank line before the next h2"},
		{"markdown/blocks.md", 15, lines(15, 19), "h3 up to the next h2"},
		{"markdown/blocks.md", 21, lines(21, 24), "a setext h2 is a heading of the same level"},
		{"markdown/blocks.md", 26, lines(26, 29), "setext heading section"},
		{"markdown/blocks.md", 31, declines("nothing under it"), "empty section"},
		{"markdown/blocks.md", 12, declines("continues the fenced code block"), "a # line inside a code fence is no heading"},
		// Nesting: the outermost construct that starts on the line.
		{"tsx/blocks.tsx", 9, lines(9, 19), "return statement around the JSX"},
		{"tsx/blocks.tsx", 10, lines(10, 18), "JSX element"},
		{"tsx/blocks.tsx", 13, lines(13, 15), "nested JSX element"},
		{"python/blocks.py", 14, lines(14, 17), "if with its else"},
		{"python/blocks.py", 16, lines(16, 17), "else clause"},
		{"ruby/blocks.rb", 22, lines(22, 25), "elsif through the else"},
		// Declines.
		{"rust/blocks.rs", 22, declines("use the plain range 22.=22"), "one-line construct"},
		{"rust/blocks.rs", 14, declines("last line of the struct item that opens on line 10"), "closing line"},
		{"rust/blocks.rs", 2, declines("is blank"), "blank line"},
		{"typescript/blocks.ts", 62, declines(`goes on with "(err) => {"`), "a block that ends mid-line"},
		{"typescript/blocks.ts", 21, declines("continues the if statement on lines 19-23"), "} else {"},
		{"json/blocks.json", 1, declines("whole document"), "the top-level JSON value"},
		{"json/blocks.json", 3, lines(3, 5), "a JSON pair whose value spans lines, with its comma"},
		{"json/trailing_comma.json", 1, declines("does not parse cleanly as JSON"), "strict JSON"},
		{"jsonc/blocks.jsonc", 4, lines(4, 6), "JSONC pair"},
		{"javascript/flow.js", 7, lines(7, 10), "Flow type through the tsx grammar"},
		{"javascript/broken.js", 3, declines("first syntax error at line 2"), "types without the Flow pragma"},
	}
	r := New()
	for _, c := range cases {
		raw, err := readFixture(c.fixture)
		if err != nil {
			t.Fatal(err)
		}
		start, end, ok, reason := r.ResolveBlock(c.fixture, string(raw), c.line)
		got := fmt.Sprintf("%d-%d", start, end)
		switch {
		case c.want.want == "" && (!ok || start != c.want.start || end != c.want.end):
			t.Errorf("%s line %d (%s): got ok=%v %s %q, want %s", c.fixture, c.line, c.rule, ok, got, reason, c.want)
		case c.want.want != "" && (ok || !strings.Contains(reason, c.want.want)):
			t.Errorf("%s line %d (%s): got ok=%v %s %q, want %s", c.fixture, c.line, c.rule, ok, got, reason, c.want)
		}
	}
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

func TestLanguage(t *testing.T) {
	for path, want := range map[string]string{
		"src/main.rs": "rust", "a.ts": "typescript", "a.mts": "typescript", "a.cts": "typescript", "a.d.ts": "typescript",
		"a.tsx": "tsx", "a.js": "javascript", "a.mjs": "javascript", "a.cjs": "javascript", "a.jsx": "jsx",
		"package.json": "json", "a.jsonc": "jsonc", "tsconfig.json": "jsonc", "sub/jsconfig.json": "jsonc",
		"README.md": "markdown", "a.markdown": "markdown", "a.css": "css", "a.py": "python", "a.pyi": "python",
		"Cargo.toml": "toml", "Cargo.lock": "toml", "a.yaml": "yaml", "a.yml": "yaml", "a.html": "html", "a.htm": "html",
		"a.sh": "bash", "a.bash": "bash", "home/.bashrc": "bash", "main.go": "go", "a.c": "c", "a.h": "c",
		"a.cc": "cpp", "a.cpp": "cpp", "a.cxx": "cpp", "a.hpp": "cpp", "a.hh": "cpp", "A.java": "java",
		"a.rb": "ruby", "Rakefile": "ruby", "Gemfile": "ruby", "a.lua": "lua", "A.PY": "python", `dir\win.rs`: "rust",
		"Dockerfile": "", "a.txt": "", "noext": "", "a.json5": "",
	} {
		if got := Language(path); got != want {
			t.Errorf("Language(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestUnsupported(t *testing.T) {
	r := New()
	for _, path := range []string{"notes.txt", "Dockerfile"} {
		_, _, ok, reason := r.ResolveBlock(path, "a\nb\n", 1)
		if ok || !strings.Contains(reason, "not available for") || !strings.Contains(reason, "plain line ranges") {
			t.Errorf("%s: ok=%v reason %q, want a decline that says block ops are unavailable and plain ranges work", path, ok, reason)
		}
		if clean, supported := r.Parses(path, "a\n"); clean || supported {
			t.Errorf("Parses(%s) = %v, %v, want false, false", path, clean, supported)
		}
	}
	if _, _, _, reason := r.ResolveBlock("x/notes.txt", "a\n", 1); !strings.Contains(reason, ".txt files") {
		t.Errorf("reason %q should name the extension", reason)
	}
}

func TestLineOutsideFile(t *testing.T) {
	r := New()
	text := "fn a() {\n}\n"
	for _, line := range []int{-1, 0, 3} {
		if _, _, ok, reason := r.ResolveBlock("a.rs", text, line); ok || !strings.Contains(reason, "outside the file, which has lines 1 to 2") {
			t.Errorf("line %d: ok=%v reason %q", line, ok, reason)
		}
	}
	if _, _, ok, reason := r.ResolveBlock("a.rs", "", 1); ok || !strings.Contains(reason, "empty") {
		t.Errorf("empty file: ok=%v reason %q", ok, reason)
	}
	// A last line without its LF is still a line.
	if start, end, ok, reason := r.ResolveBlock("a.rs", "fn a() {\n}", 1); !ok || start != 1 || end != 2 {
		t.Errorf("no final LF: %d-%d ok=%v %q", start, end, ok, reason)
	}
}

func TestSizeLimit(t *testing.T) {
	r := New()
	body := strings.Repeat("x = 1\n", MaxParseBytes/6+1)
	text := "def f():\n" + body
	if _, _, ok, reason := r.ResolveBlock("big.py", text, 1); ok || !strings.Contains(reason, "4 MiB") {
		t.Errorf("over the limit: ok=%v reason %q", ok, reason)
	}
	if clean, supported := r.Parses("big.py", text); clean || !supported {
		t.Errorf("Parses over the limit = %v, %v, want false, true", clean, supported)
	}
}

func TestParses(t *testing.T) {
	r := New()
	for _, c := range []struct {
		path, text string
		clean      bool
	}{
		{"a.rs", "fn a() {}\n", true},
		{"a.rs", "fn a() {\n", false},
		{"a.json", `{"a": [1, 2]}`, true},
		{"a.json", "{\"a\": 1,}\n", false},             // trailing comma: not JSON
		{"a.json", "// c\n{\"a\": 1}\n", false},        // comment: not JSON
		{"a.jsonc", "// c\n{\"a\": 1,}\n", true},       // both allowed in JSONC
		{"a.jsonc", "{\"a\": 1}\n{\"b\": 2}\n", false}, // two values
		{"a.jsonc", "{a: 1}\n", false},                 // unquoted key
		{"a.jsonc", "[1, x]\n", false},                 // identifier
		{"a.json", "-1\n", true},
		{"a.json", "", false},
		{"a.json", "1 // c", false},
		{"a.jsonc", "1 // c", true}, // the wrapper's newline keeps the comment off the parenthesis
		{"a.js", "// @flow\nconst x: number = 1;\n", true},
		{"a.js", "// @flowtype\nconst x: number = 1;\n", false},           // not the pragma
		{"a.js", "const y = 1;\n// @flow\nconst x: number = 1;\n", false}, // pragma after code
		{"a.js", "const x: number = 1;\n", false},
		{"a.md", "# any text\n```\nunclosed\n", true},
		{"a.py", "def f(:\n", false},
	} {
		clean, supported := r.Parses(c.path, c.text)
		if clean != c.clean || !supported {
			t.Errorf("Parses(%s, %q) = %v, %v, want %v, true", c.path, c.text, clean, supported, c.clean)
		}
	}
}

func TestFlowPragma(t *testing.T) {
	for text, want := range map[string]bool{
		"/**\n * @flow strict-local\n */\n":   true,
		"// @flow\n":                          true,
		"#!/usr/bin/env node\n// @flow\nx;\n": true,
		"/* @noflow */\n":                     false,
		"x;\n// @flow\n":                      false,
		"// @flowx\n":                         false,
		"/* unterminated @flow":               false,
	} {
		if got := hasFlowPragma(text); got != want {
			t.Errorf("hasFlowPragma(%q) = %v, want %v", text, got, want)
		}
	}
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
		s, e, ok, reason := r.ResolveBlock("a.ts", text, line)
		want[line] = fmt.Sprint(s, e, ok, reason)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for line := 1 + g%3; line < len(want); line += 3 {
				s, e, ok, reason := r.ResolveBlock("a.ts", text, line)
				if got := fmt.Sprint(s, e, ok, reason); got != want[line] {
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
		if strings.HasSuffix(f, ".golden") {
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
					start, end, ok, reason := r.ResolveBlock(path, text, line)
					if ok && (start != line || end <= start || end > n) {
						t.Errorf("%s without line %d, line %d: span %d-%d in %d lines", f, i+1, line, start, end, n)
					}
					if !ok && reason == "" {
						t.Errorf("%s, line %d: a decline without a reason", f, line)
					}
				}
			}
		}
	}
}
