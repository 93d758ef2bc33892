package blocks

import (
	"strings"
	"testing"
)

// TestNestingLimit: texts nested past the limit are declined before the
// parser sees them, by every entry point, with a reason; texts just within
// it are parsed. Past it, tree-sitter's markdown scanner aborts the
// process (256 containers on a line) and its parse time runs to seconds
// and minutes (tens of thousands of nested elements).
func TestNestingLimit(t *testing.T) {
	quotes := func(n int) string { return strings.Repeat(">", n) + " x\n" }
	list := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("  ", i) + "- x\n")
		}
		return b.String()
	}
	cases := []struct {
		name, text, want string
	}{
		{"q.md", quotes(maxMarkdownNesting), ""},
		{"q.md", quotes(256), "line 1 of the file opens 256 nested block quotes or lists, over the limit of 200 for parsing"},
		{"q.md", "# t\n\n" + strings.Repeat("> ", 300) + "x\n", "line 3 of the file opens 300 nested"},
		{"l.md", list(maxMarkdownNesting), ""},
		{"l.md", list(300), "line 300 of the file opens 300 nested block quotes or lists"},
		{"a.html", strings.Repeat("<div>", MaxNesting) + strings.Repeat("</div>", MaxNesting), ""},
		{"a.html", strings.Repeat("<div>", MaxNesting+1) + strings.Repeat("</div>", MaxNesting+1), "the file nests elements 1025 deep, over the limit of 1024"},
		{"a.html", "<ul>" + strings.Repeat("<li>x<br><img src=a>", 5000) + "</ul>\n", ""},
		{"a.json", strings.Repeat("[", MaxNesting) + strings.Repeat("]", MaxNesting), ""},
		{"a.json", strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20), "the file nests brackets 1048576 deep, over the limit of 1024"},
		{"a.js", strings.Repeat("f(", 5000) + strings.Repeat(")", 5000) + "\n", "nests brackets 5000 deep"},
	}
	r := New()
	for _, c := range cases {
		_, resolveErr := r.ResolveBlock(c.name, c.text, 1)
		_, outlineErr := r.Outline(c.name, c.text, nil)
		clean, supported := r.Parses(c.name, c.text)
		if c.want == "" {
			if outlineErr != nil && strings.Contains(outlineErr.Error(), "limit") {
				t.Errorf("%s within the limit: %v", c.name, outlineErr)
			}
			continue
		}
		for _, err := range []error{resolveErr, outlineErr} {
			if err == nil || !strings.Contains(reasonOf(err), c.want) {
				t.Errorf("%s: %v, want a decline containing %q", c.name, err, c.want)
			}
		}
		if clean || !supported {
			t.Errorf("%s: Parses = %v, %v; want false, true", c.name, clean, supported)
		}
	}
}
