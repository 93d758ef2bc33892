package hashline_test

import (
	"fmt"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

func sym(name, qualified, kind string, start, end, line, depth int, block bool) hashline.Symbol {
	return hashline.Symbol{Name: name, Qualified: qualified, Kind: kind, Start: start, End: end, Line: line, Depth: depth, Block: block}
}

func TestRenderOutline(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", hashline.MaxOutlineLineChars+5)
	text := "// T is a type.\ntype T struct {\n\ta int\n}\n\nfunc (t T) M() {\n\t" + long + "\n}\nfunc " + long + "() {}\n"
	tx := hashline.NewText(text)
	syms := []hashline.Symbol{
		sym("T", "T", "struct", 1, 4, 2, 0, true),
		sym("M", "T.M", "method", 6, 8, 6, 1, true),
		sym("x", "x", "func", 9, 9, 9, 0, false),
	}
	v := hashline.RenderOutline(hashline.AnchorTag, "p.go", tx, syms)
	want := "[p.go#" + string(tx.Tag()) + "]\n" +
		"1-4 struct  2:type T struct {\n" +
		"  6-8 method  6:func (t T) M() {\n" +
		"9 func x  9:func " + long[:hashline.MaxOutlineLineChars-5] +
		" … [line 9 clipped: 200 of 215 characters shown]\n"
	if v.Content != want {
		t.Fatalf("Content =\n%s\nwant\n%s", v.Content, want)
	}
	// The declarations' own lines were shown, body lines were not, and a
	// line cut short does not count.
	if v.Seen.String() != "2,6" || len(v.Clipped) != 1 || v.Clipped[0] != 9 {
		t.Fatalf("Seen %q Clipped %v, want 2,6 and [9]", v.Seen, v.Clipped)
	}
	heading := hashline.RenderOutline(hashline.AnchorTag, "p.md", hashline.NewText("# Guide\n\n## Usage\n\ntext\n"), []hashline.Symbol{
		sym("Guide", "Guide", "h1", 1, 5, 1, 0, true), sym("Usage", "Guide > Usage", "h2", 3, 5, 3, 1, true)})
	if !strings.HasSuffix(heading.Content, "]\n1-5 h1  1:# Guide\n  3-5 h2  3:## Usage\n") {
		t.Fatalf("headings: %s", heading.Content)
	}
	line := hashline.RenderOutline(hashline.AnchorLine, "p.go", tx, syms[:1])
	if !strings.Contains(line.Content, "1-4 struct  2:"+hashline.LineHash("type T struct {")+"|type T struct {\n") {
		t.Fatalf("line anchors: %s", line.Content)
	}
}

func TestSymbolQuery(t *testing.T) {
	t.Parallel()
	syms := []hashline.Symbol{
		sym("Server", "Server", "struct", 1, 5, 1, 0, true),
		sym("handle", "Server.handle", "method", 7, 9, 7, 0, true),
		sym("handle", "Client.handle", "method", 11, 13, 11, 0, true),
		sym("init", "init", "func", 15, 16, 15, 0, true),
		sym("init", "init", "func", 18, 19, 18, 0, true),
		sym("set", "Box.set", "func", 21, 22, 21, 0, true),
		sym("Usage", "Guide > Usage", "h2", 24, 30, 24, 1, true),
		{Name: "(A, B)", Kind: "const", Start: 32, End: 35, Line: 32, Block: true, Group: true},
	}
	cases := []struct {
		q    string
		want []int // the picked symbols' first lines
	}{
		{"Server.handle", []int{7}},   // qualified
		{"handle", []int{7, 11}},      // a bare name two declare
		{"Server", []int{1}},          // a qualified name beats a tail
		{"init", []int{15, 18}},       // two of one name
		{"Box::set", []int{21}},       // C++ spelling
		{"Box:set", []int{21}},        // Lua's
		{"Usage", []int{24}},          // a heading by its text
		{"Guide > Usage", []int{24}},  // and by its path
		{"p.Server.handle", []int{7}}, // the file's module name
		{"(A, B)", nil},               // a group is no name
		{"Serve", nil},                // no prefix matches
		{"Other.handle", nil},         // no wrong scope
		{"", nil},
	}
	for _, c := range cases {
		q := hashline.NewSymbolQuery(c.q, "pkg/p.go")
		var kept []hashline.Symbol
		for _, s := range syms {
			if q.Keeps(s) {
				kept = append(kept, s)
			}
		}
		var got []int
		for _, s := range q.Pick(kept) {
			got = append(got, s.Start)
		}
		if len(got) != len(c.want) || len(got) > 0 && (got[0] != c.want[0] || got[len(got)-1] != c.want[len(c.want)-1]) {
			t.Errorf("%q picks %v, want %v", c.q, got, c.want)
		}
	}
	near := hashline.NewSymbolQuery("Server.handel", "p.go").Nearest(syms, 5)
	if len(near) == 0 || near[0].Qualified != "Server.handle" {
		t.Errorf("Nearest(Server.handel) = %v, want Server.handle first", near)
	}
	if n := hashline.NewSymbolQuery("zzzz", "p.go").Nearest(syms, 5); len(n) != 0 {
		t.Errorf("Nearest(zzzz) = %v, want none", n)
	}
}

// TestFoldOutline: a symbol deeper than the depth is left out and counted
// on the row that holds it; depth 0 keeps every symbol.
func TestFoldOutline(t *testing.T) {
	t.Parallel()
	// One heading a line, each as deep as the spaces before its name.
	var syms []hashline.Symbol
	for i, h := range strings.Split("Guide\n Usage\n  Flags\n   Short\n  Files\n FAQ", "\n") {
		name := strings.TrimLeft(h, " ")
		depth := len(h) - len(name)
		syms = append(syms, hashline.Symbol{Name: name, Kind: fmt.Sprintf("h%d", depth+1), Start: i + 1, End: i + 1, Line: i + 1, Depth: depth})
	}
	cases := []struct {
		depth int
		want  string // name:folded of each row kept
	}{
		{0, "Guide:0 Usage:0 Flags:0 Short:0 Files:0 FAQ:0"},
		{1, "Guide:5"},
		{2, "Guide:0 Usage:3 FAQ:0"},
		{3, "Guide:0 Usage:0 Flags:1 Files:0 FAQ:0"},
		{9, "Guide:0 Usage:0 Flags:0 Short:0 Files:0 FAQ:0"},
	}
	for _, c := range cases {
		var got []string
		for _, s := range hashline.FoldOutline(syms, c.depth) {
			got = append(got, fmt.Sprintf("%s:%d", s.Name, s.Folded))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("depth %d: %s, want %s", c.depth, g, c.want)
		}
	}
	if d := hashline.OutlineDepth(syms); d != hashline.DocumentDepth {
		t.Errorf("OutlineDepth of headings = %d, want %d", d, hashline.DocumentDepth)
	}
	if d := hashline.OutlineDepth([]hashline.Symbol{sym("T", "T", "struct", 1, 4, 2, 0, true)}); d != 0 {
		t.Errorf("OutlineDepth of code = %d, want 0", d)
	}
	folded := hashline.FoldOutline(syms, 2)
	v := hashline.RenderOutline(hashline.AnchorTag, "p.md", hashline.NewText(strings.Repeat("x\n", 6)), folded[1:2])
	if !strings.Contains(v.Content, "]\n  2 h2 +3  2:x\n") {
		t.Fatalf("a folding row: %s", v.Content)
	}
}
