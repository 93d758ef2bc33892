package blocks

import (
	"errors"
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

func lines(n, m int) span      { return span{start: n, end: m} }
func declines(why string) span { return span{want: why} }

// TestContract pins the rules the contract states (docs/contract.md §10.4) on the fixtures,
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
		{"python/blocks.py", 7, lines(7, 17), "a # comment directly above the decorators documents them and the definition"},
		{"python/blocks.py", 24, lines(24, 26), "method decorator and method"},
		{"python/blocks.py", 25, lines(25, 26), "method alone"},
		{"rust/blocks.rs", 6, lines(6, 14), "first attribute of the run: the run and the item"},
		{"rust/blocks.rs", 10, lines(10, 14), "item line: the item alone"},
		{"rust/blocks.rs", 5, lines(5, 14), "a doc comment above attributes: the comment, the run and the item"},
		{"rust/blocks.rs", 1, declines("is a comment"), "an inner //! doc comment documents no item"},
		{"rust/blocks.rs", 11, lines(11, 12), "field attribute and field, its comma kept"},
		{"rust/blocks.rs", 24, lines(24, 37), "#[test] and the function"},
		{"rust/blocks.rs", 50, declines("is a comment"), "a block comment over lines is not a block"},
		{"typescript/blocks.ts", 4, lines(4, 25), "class decorators and the class"},
		{"typescript/blocks.ts", 8, lines(8, 25), "class line: the class alone"},
		{"typescript/blocks.ts", 16, lines(16, 24), "method decorators (siblings in the class body) and the method"},
		{"typescript/blocks.ts", 17, declines("16* covers the decorators"), "a later one-line decorator"},
		{"typescript/blocks.ts", 18, lines(18, 24), "method line: the method alone"},
		{"typescript/blocks.ts", 1, lines(1, 25), "a JSDoc comment above decorators: the comment, the decorators and the class"},
		{"typescript/blocks.ts", 2, declines("inside the doc comment that starts on line 1"), "a later line of a JSDoc block"},
		{"typescript/blocks.ts", 27, declines("is a comment"), "a // comment is no doc comment"},
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
		{"go/blocks.go", 14, lines(14, 16), "declaration line: the doc comment stays outside"},
		{"go/blocks.go", 13, lines(13, 16), "doc comment line: the doc comment and the declaration"},
		// Rule 1 for doc comments: the first line of a doc comment that sits
		// directly above a block resolves to both; a later line of it names
		// the first; every other comment stays standalone.
		{"rust/doc_comments.rs", 7, lines(7, 11), "/// run and the function"},
		{"rust/doc_comments.rs", 8, declines("inside the doc comment that starts on line 7: 7* covers"), "a later /// line"},
		{"rust/doc_comments.rs", 9, lines(9, 11), "function line without its doc comment"},
		{"rust/doc_comments.rs", 13, lines(13, 22), "doc comment, attribute run and struct"},
		{"rust/doc_comments.rs", 14, lines(14, 22), "first attribute: the run and the struct, not the doc comment"},
		{"rust/doc_comments.rs", 17, lines(17, 19), "field doc, field attribute and field"},
		{"rust/doc_comments.rs", 20, declines("is a comment"), "a doc comment above a one-line field"},
		{"rust/doc_comments.rs", 24, lines(24, 30), "/** */ block and the enum"},
		{"rust/doc_comments.rs", 26, declines("inside the doc comment that starts on line 24"), "the closing line of a /** */ block"},
		{"rust/doc_comments.rs", 1, declines("is a comment"), "inner //! doc"},
		{"rust/doc_comments.rs", 2, declines("is a comment"), "a later inner //! line"},
		{"rust/doc_comments.rs", 32, declines("is a comment"), "a doc comment separated by a blank line"},
		{"rust/doc_comments.rs", 38, declines("is a comment"), "a plain // comment"},
		{"rust/doc_comments.rs", 48, declines("is a comment"), "a doc comment above a one-line item"},
		{"rust/doc_comments.rs", 51, declines("is a comment"), "a doc line cut off from the item by a plain comment"},
		{"rust/doc_comments.rs", 53, lines(53, 56), "the doc line after the plain comment"},
		{"rust/doc_comments.rs", 58, declines("is a comment"), "//// is a plain comment"},
		{"rust/doc_comments.rs", 64, lines(64, 67), "method doc inside an impl"},
		{"rust/doc_comments.rs", 70, declines("is a comment"), "inner /*! doc"},
		{"rust/doc_comments.rs", 75, declines("is a comment"), "a doc comment sharing its line with the item"},
		{"rust/doc_comments.rs", 80, declines("is a comment"), "a doc comment above an if expression, which declares nothing"},
		{"rust/doc_comments.rs", 84, lines(84, 87), "a doc comment above a let statement"},
		{"go/doc_comments.go", 1, declines("is a comment"), "a comment above the one-line package clause"},
		{"go/doc_comments.go", 4, declines("is a comment"), "a comment above an import declaration"},
		{"go/doc_comments.go", 9, lines(9, 13), "godoc comment and the function"},
		{"go/doc_comments.go", 10, declines("inside the doc comment that starts on line 9"), "a later line of a godoc comment"},
		{"go/doc_comments.go", 15, lines(15, 23), "a /* */ godoc comment and the type"},
		{"go/doc_comments.go", 19, declines("is a comment"), "a field comment: not a top-level declaration"},
		{"go/doc_comments.go", 25, declines("is a comment"), "separated by a blank line"},
		{"go/doc_comments.go", 31, declines("is a comment"), "above a one-line declaration"},
		{"go/doc_comments.go", 34, lines(34, 39), "a doc comment with its directive"},
		{"go/doc_comments.go", 42, declines("is a comment"), "a comment inside a function body"},
		{"go/doc_comments.go", 48, lines(48, 52), "a var block"},
		{"python/doc_comments.py", 1, declines("is a comment"), "the interpreter line"},
		{"python/doc_comments.py", 2, lines(2, 4), "the comment below the interpreter line"},
		{"python/doc_comments.py", 7, lines(7, 10), "# run and the def"},
		{"python/doc_comments.py", 8, declines("inside the doc comment that starts on line 7"), "a later # line"},
		{"python/doc_comments.py", 13, lines(13, 19), "# run above decorators"},
		{"python/doc_comments.py", 22, declines("is a comment"), "separated by a blank line"},
		{"python/doc_comments.py", 28, declines("is a comment"), "above a one-line statement"},
		{"python/doc_comments.py", 31, declines("is a comment"), "above a multi-line statement that is no definition"},
		{"python/doc_comments.py", 38, lines(38, 40), "a method's comment inside a class"},
		{"python/doc_comments.py", 42, lines(42, 45), "above a decorated method"},
		{"ruby/doc_comments.rb", 1, lines(1, 33), "module"},
		{"ruby/doc_comments.rb", 6, lines(6, 9), "method"},
		{"ruby/doc_comments.rb", 11, declines("is a comment"), "above an endless one-line method"},
		{"ruby/doc_comments.rb", 14, declines("is a comment"), "above a call"},
		{"ruby/doc_comments.rb", 24, lines(24, 27), "singleton method"},
		{"ruby/doc_comments.rb", 29, declines("is a comment"), "above a multi-line statement that is no definition"},
		{"bash/doc_comments.sh", 1, declines("is a comment"), "the interpreter line"},
		{"bash/doc_comments.sh", 2, lines(2, 5), "function"},
		{"bash/doc_comments.sh", 16, declines("is a comment"), "above a loop"},
		{"bash/doc_comments.sh", 21, lines(21, 25), "function keyword form"},
		{"bash/doc_comments.sh", 22, declines("inside the doc comment that starts on line 21"), "a later # line"},
		{"lua/doc_comments.lua", 1, lines(1, 7), "--- run with annotations"},
		{"lua/doc_comments.lua", 3, declines("inside the doc comment that starts on line 1"), "a later ---@param line"},
		{"lua/doc_comments.lua", 5, lines(5, 7), "function line without its doc comment"},
		{"lua/doc_comments.lua", 7, declines("opens on line 5"), "a closing line names the code's first line, not the comment's"},
		{"lua/doc_comments.lua", 9, declines("is a comment"), "a plain -- comment"},
		{"lua/doc_comments.lua", 21, declines("plain range 21.=21"), "a one-line statement the grammar starts at its comment"},
		{"lua/doc_comments.lua", 23, lines(23, 27), "---@class run and the table"},
		{"lua/doc_comments.lua", 29, declines("is a comment"), "a ---------- banner"},
		{"javascript/blocks.js", 3, lines(3, 8), "JSDoc and the function"},
		{"javascript/doc_comments.js", 8, lines(8, 26), "JSDoc above class decorators"},
		{"javascript/doc_comments.js", 21, lines(21, 25), "JSDoc above a decorated method"},
		{"javascript/doc_comments.js", 28, declines("is a comment"), "separated by a blank line"},
		{"javascript/doc_comments.js", 39, declines("is a comment"), "a /* */ comment is no JSDoc"},
		{"javascript/doc_comments.js", 44, declines("is a comment"), "above a one-line statement"},
		{"javascript/doc_comments.js", 52, lines(52, 56), "two JSDoc blocks in one run"},
		{"javascript/doc_comments.js", 53, declines("inside the doc comment that starts on line 52"), "the second block of the run"},
		{"javascript/doc_comments.js", 58, declines("is a comment"), "a /*** banner"},
		{"javascript/doc_comments.js", 68, declines("is a comment"), "JSDoc above an if statement, which declares nothing"},
		{"javascript/doc_comments.js", 75, declines("is a comment"), "a header directly above an import"},
		{"typescript/doc_comments.ts", 1, declines("is a comment"), "a /// directive is no doc comment"},
		{"typescript/doc_comments.ts", 2, lines(2, 7), "JSDoc below a directive"},
		{"typescript/doc_comments.ts", 14, declines("is a comment"), "above a one-line decorated field"},
		{"typescript/doc_comments.ts", 17, lines(17, 24), "JSDoc above method decorators"},
		{"tsx/doc_comments.tsx", 1, lines(1, 13), "JSDoc and a component"},
		{"jsx/doc_comments.jsx", 1, lines(1, 10), "JSDoc and a component"},
		{"java/DocComments.java", 3, lines(3, 35), "Javadoc above an annotation and the class"},
		{"java/DocComments.java", 8, declines("is a comment"), "Javadoc above a one-line field"},
		{"java/DocComments.java", 11, lines(11, 18), "Javadoc above method annotations"},
		{"java/DocComments.java", 14, lines(14, 18), "first annotation: without the Javadoc"},
		{"java/DocComments.java", 16, lines(16, 18), "method line: without annotations or Javadoc"},
		{"java/DocComments.java", 30, declines("is a comment"), "separated by a blank line"},
		{"c/doc_comments.c", 3, lines(3, 6), "/** */ and a struct"},
		{"c/doc_comments.c", 8, lines(8, 12), "/// run and a function"},
		{"c/doc_comments.c", 14, declines("is a comment"), "a /* */ comment"},
		{"c/doc_comments.c", 19, declines("is a comment"), "above a one-line declaration"},
		{"c/doc_comments.c", 28, declines("is a comment"), "above a preprocessor conditional"},
		{"cpp/doc_comments.cpp", 1, lines(1, 6), "/// and a class"},
		{"cpp/doc_comments.cpp", 8, lines(8, 14), "/** */ above an [[attribute]]"},
		{"cpp/doc_comments.cpp", 21, declines("is a comment"), "separated by a blank line"},
		{"css/doc_comments.css", 1, lines(1, 4), "/** */ and a rule"},
		{"css/doc_comments.css", 6, declines("is a comment"), "a /* */ comment"},
		{"css/doc_comments.css", 11, lines(11, 18), "/** */ and a media query"},
		{"yaml/doc_comments.yaml", 1, declines("is a comment"), "YAML has no doc comments"},
		{"toml/doc_comments.toml", 1, declines("is a comment"), "TOML has no doc comments"},
		{"html/doc_comments.html", 1, declines("is a comment"), "HTML has no doc comments"},
		{"jsonc/doc_comments.jsonc", 2, declines("is a comment"), "JSON has no doc comments"},
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
		block, err := r.ResolveBlock(c.fixture, string(raw), c.line)
		ok, reason := err == nil, reasonOf(err)
		got := fmt.Sprintf("%d-%d", block.Start, block.End)
		switch {
		case c.want.want == "" && (!ok || block.Start != c.want.start || block.End != c.want.end):
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
func TestDocCommentEdges(t *testing.T) {
	r := New()
	for _, c := range []struct {
		path, text string
		line       int
		want       span
		why        string
	}{
		{"a.py", "class A:\n    def f(self):\n        pass\n# doc for g\ndef g():\n    pass\n", 4, lines(4, 6),
			"a comment at a dedent, which the grammar files inside the class, documents the def below it"},
		{"a.py", "x = 1  # trailing\n# doc\ndef g():\n    pass\n", 2, lines(2, 4),
			"a trailing comment on the line above is no part of the run"},
		{"a.py", "#!/usr/bin/env python\ndef f():\n    pass\n", 1, declines("is a comment"),
			"the interpreter line documents nothing"},
		{"a.rs", "/**/\nfn f() {\n}\n", 1, declines("is a comment"), "/**/ is an empty comment, not a doc comment"},
		{"a.rs", "/// a\n", 1, declines("is a comment"), "a doc comment at the end of the file"},
		{"a.rs", "/// a\n/// b", 2, declines("is a comment"), "a doc comment at the end of the file, without a final LF"},
		{"a.js", "x(); /** opened after code\n * more\n */\nfunction f() {\n}\n", 2, declines("is a comment"),
			"a block comment opened after code begins no run"},
		{"a.js", "/** a */\n\n/** b */\nfunction f() {\n}\n", 1, declines("is a comment"), "a blank line ends the run"},
		{"a.js", "/** a */\n\n/** b */\nfunction f() {\n}\n", 3, lines(3, 5), "the run after the blank line"},
		{"a.lua", "---@tag foo\n--- Documents f.\nlocal function f()\n  return 1\nend\n", 2, lines(2, 5),
			"a line the grammar files under no node ends the run above"},
		{"a.go", "package a\n\nfunc f() {\n\t// inner\n\tg := func() {\n\t}\n\t_ = g\n}\n", 4, declines("is a comment"),
			"godoc reads top-level declarations only"},
		{"a.go", "package a\n// F is documented, though it follows the package clause directly.\nfunc F() {\n}\n", 2, lines(2, 4),
			"no blank line is needed above the comment"},
	} {
		block, err := r.ResolveBlock(c.path, c.text, c.line)
		ok, reason := err == nil, reasonOf(err)
		got := fmt.Sprintf("ok=%v %d-%d %q", ok, block.Start, block.End, reason)
		if c.want.want == "" && (!ok || block.Start != c.want.start || block.End != c.want.end) ||
			c.want.want != "" && (ok || !strings.Contains(reason, c.want.want)) {
			t.Errorf("%s line %d (%s): got %s, want %s", c.path, c.line, c.why, got, c.want)
		}
	}
}

// clip counts characters, as the core's clip does, so a quote of text
// beyond ASCII keeps as many characters as a quote of ASCII.
func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"(err) => {", 40, "(err) => {"},
		{"abcdef", 3, "abc…"},
		{"abc", 3, "abc"},
		{"größe", 3, "grö…"},
		{"日本語のコメント", 3, "日本語…"},
	} {
		if got := clip(c.in, c.n); got != c.want {
			t.Errorf("clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
