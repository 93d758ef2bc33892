package blocks

import (
	"fmt"
	"strings"
	"testing"
)

// nesting generates deep nests of one construct for a language: lines
// that open each level, a leaf at the bottom, and lines that close each
// level on the way out. A closer is the construct's last line, or, when
// sibling is set, the next sibling's first line, so the construct ends
// just before it.
type nesting struct {
	file    string
	head    []string               // lines before the nest, such as a package clause
	tail    []string               // lines after it
	open    func(level int) string // level 1 is the outermost
	leaf    func(depth int) string // nil for none
	close   func(level int) string
	sibling bool
	max     int // the deepest level the construct has; 0 for no bound
	// lossy: the grammar loses track of this construct at some depth
	// (tree-sitter-html of long tag names past about 1 KiB of open tags):
	// a decline is fine there, a wrong span is not.
	lossy bool
}

func indent(n int, s string) string { return strings.Repeat("  ", n) + s }

// levels gives outer at level 1 and inner, indented, at every level below.
func levels(outer, inner string) func(level int) string {
	return func(l int) string {
		if l == 1 {
			return outer
		}
		return indent(l-1, inner)
	}
}

// closed is a nest whose levels each end with closer, indented as their
// opener.
func closed(file, outer, inner, leaf, closer string) nesting {
	return nesting{file: file, open: levels(outer, inner),
		leaf:  func(d int) string { return indent(d, leaf) },
		close: func(l int) string { return indent(l-1, closer) },
	}
}

func braces(file, outer, inner, leaf string) nesting { return closed(file, outer, inner, leaf, "}") }

func withHead(n nesting, head ...string) nesting { n.head = head; return n }

// inside puts the nest inside a construct that is the whole document,
// which is no block of its own.
func inside(n nesting, open, close string) nesting {
	n.head, n.tail = []string{open}, []string{close}
	return n
}

// generate writes a nest depth levels deep and returns it with the span
// every opener must resolve to.
func (n nesting) generate(depth int) (string, map[int]span) {
	rows := append([]string(nil), n.head...)
	at := len(rows) // lines before level 1
	for l := 1; l <= depth; l++ {
		rows = append(rows, n.open(l))
	}
	if n.leaf != nil {
		rows = append(rows, n.leaf(depth))
	}
	want := map[int]span{}
	for l := depth; l >= 1; l-- {
		rows = append(rows, n.close(l))
		end := len(rows)
		if n.sibling {
			end--
		}
		want[at+l] = lines(at+l, end)
	}
	rows = append(rows, n.tail...)
	return strings.Join(rows, "\n") + "\n", want
}

var nestings = map[string][]nesting{
	"rust":       {braces("n.rs", "fn f() {", "if x {", "y();")},
	"go":         {withHead(braces("n.go", "func f() {", "if x {", "y()"), "package p")},
	"c":          {braces("n.c", "void f() {", "if (x) {", "y();")},
	"cpp":        {braces("n.cpp", "void f() {", "if (x) {", "y();")},
	"java":       {braces("N.java", "class A {", "class B {", "int y;")},
	"javascript": {braces("n.js", "function f() {", "if (x) {", "y();")},
	"jsx":        {braces("n.jsx", "function f() {", "if (x) {", "y();")},
	"typescript": {braces("n.ts", "function f(): void {", "if (x) {", "y();")},
	"tsx":        {braces("n.tsx", "function f(): void {", "if (x) {", "y();")},
	"json":       {inside(braces("n.json", `"k": {`, `"k": {`, `"v": 1`), "{", "}")},
	"jsonc":      {inside(braces("n.jsonc", `"k": {`, `"k": {`, `"v": 1 // leaf`), "{", "}")},
	"css":        {braces("n.css", "@media screen {", "@media print {", "a { color: red; }")},
	"python": {{file: "n.py",
		open: func(l int) string {
			if l == 1 {
				return "def f():"
			}
			return strings.Repeat("    ", l-1) + "if x:"
		},
		leaf:  func(d int) string { return strings.Repeat("    ", d) + "y()" },
		close: func(l int) string { return strings.Repeat("    ", l) + fmt.Sprintf("done = %d", l) },
	}},
	"ruby": {closed("n.rb", "def f", "if x", "y", "end")},
	"lua":  {closed("n.lua", "function f()", "if x then", "y()", "end")},
	"bash": {{file: "n.sh", open: levels("f() {", "if true; then"),
		leaf: func(d int) string { return indent(d, "echo y") }, close: levels("}", "fi"),
	}},
	"toml": {closed("n.toml", "x = [", "[", "1", "]")},
	"yaml": {{file: "n.yaml",
		open: func(l int) string { return indent(l-1, "a:") },
		leaf: func(d int) string { return indent(d, "b: 1") }, close: func(l int) string { return indent(l, "c: 1") },
	}},
	"html": {
		closed("n.html", "<div>", "<div>", "<p>x</p>", "</div>"),
		{file: "n.html", open: func(l int) string { return indent(l-1, "<custom-element-with-a-long-name-here-xx>") },
			close: func(l int) string { return indent(l-1, "</custom-element-with-a-long-name-here-xx>") }, lossy: true,
			head: []string{"<div>"}, tail: []string{"</div>"}},
	},
	"markdown": {
		{file: "n.md", open: func(l int) string { return indent(l-1, "- item") },
			leaf: func(d int) string { return indent(d, "- leaf") }, close: func(l int) string { return indent(l-1, "- next") }, sibling: true},
		{file: "n.md", open: func(l int) string { return strings.Repeat("#", l) + " heading" },
			leaf: func(int) string { return "text" }, close: func(l int) string { return strings.Repeat("#", l) + " next" }, sibling: true, max: 6},
	},
}

// Every grammar, on nests it reads cleanly, resolves each opener to
// exactly its construct's lines; deeper, where a grammar may lose track
// (tree-sitter-html did on long tag names), a block resolves exactly or
// declines, never to other lines (docs/contract.md §10.4).
func TestNestings(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range languages {
		seen[l.name] = true
		if len(nestings[l.name]) == 0 {
			t.Errorf("no nesting generator for %s: add one", l.name)
		}
	}
	for name, gens := range nestings {
		if !seen[name] {
			t.Errorf("a nesting generator for %s, which the table does not have", name)
		}
		for gi, n := range gens {
			for _, depth := range []int{1, 3, 25, 30, 120} {
				if n.max > 0 && depth > n.max {
					depth = n.max
				}
				t.Run(fmt.Sprintf("%s/%d/depth %d", name, gi, depth), func(t *testing.T) {
					text, want := n.generate(depth)
					declined, reason := 0, ""
					for line, w := range want {
						if depth > 30 && line%10 != 0 && line > 3 && line < len(want)-1 {
							continue // every parse reads the whole nest: a sample will do
						}
						got, err := New().ResolveBlock(n.file, text, line)
						if why := reasonOf(err); why != "" {
							declined, reason = declined+1, why
							if depth <= 30 && !n.lossy {
								t.Errorf("line %d declined: %s", line, why)
							}
							continue
						}
						if got.Start != w.start || got.End != w.end {
							t.Errorf("line %d resolved to %d-%d, want %s", line, got.Start, got.End, w)
						}
					}
					if declined > 0 {
						t.Logf("%d openers declined at depth %d: %s", declined, depth, reason)
					}
				})
			}
		}
	}
}

// The input of the report: long custom tag names nested 25 deep, which
// tree-sitter-html answers with erroneous_end_tag nodes and no ERROR.
// Before the fix, line 2 resolved to 2-50 instead of 2-51.
func TestHTMLErroneousEndTagDeclines(t *testing.T) {
	const tag = "custom-element-with-a-long-name-here-xx"
	rows := []string{"<div>"}
	for i := 1; i <= 25; i++ {
		rows = append(rows, indent(i, "<"+tag+">"))
	}
	for i := 25; i >= 1; i-- {
		rows = append(rows, indent(i, "</"+tag+">"))
	}
	rows = append(rows, "</div>")
	text := strings.Join(rows, "\n") + "\n"
	for line := 1; line <= 26; line++ {
		got, err := New().ResolveBlock("x.html", text, line)
		if why := reasonOf(err); !strings.Contains(why, "erroneous end tag") {
			t.Fatalf("line %d = %v, %q; want a decline naming the erroneous end tag", line, got, why)
		}
	}
}
