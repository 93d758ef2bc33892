package blocks

import "fmt"

// The nesting limit. Tree-sitter's parse time grows faster than the text
// where constructs nest thousands deep (an HTML file of 16,000 nested
// elements takes seconds, 64,000 half a minute), and its markdown scanner
// aborts the whole process on a line that opens 256 containers (block
// quotes or lists). So a text nested past the limit is not parsed: the
// nesting is bounded from the text alone, cheaply and from above, before
// the parser sees it.

// Nesting limits: of brackets (and of elements, in HTML), and of markdown
// containers opened on one line.
const (
	MaxNesting         = 1024
	maxMarkdownNesting = 200
)

// tooDeep says why text nests past the limit for parsing in language l,
// or "" when it does not.
func tooDeep(l *lang, text string) string {
	switch {
	case l.sections:
		if n, line := markdownNesting(text); n > maxMarkdownNesting {
			return fmt.Sprintf("line %d of the file opens %d nested block quotes or lists, over the limit of %d for parsing", line, n, maxMarkdownNesting)
		}
	case l.name == "html":
		if n := tagNesting(text); n > MaxNesting {
			return fmt.Sprintf("the file nests elements %d deep, over the limit of %d for parsing", n, MaxNesting)
		}
	default:
		if n := bracketNesting(text); n > MaxNesting {
			return fmt.Sprintf("the file nests brackets %d deep, over the limit of %d for parsing", n, MaxNesting)
		}
	}
	return ""
}

// bracketNesting is the deepest that (, [ and { open at once, counting
// every bracket, in strings and comments too: an upper bound, short of
// brackets that close what never opened.
func bracketNesting(text string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(text); i++ {
		switch d := bracketStep[text[i]]; {
		case d > 0:
			depth++
			deepest = max(deepest, depth)
		case d < 0:
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// bracketStep is what each byte does to the bracket depth: a table read
// costs less than a switch over six bytes, on every byte of a file.
var bracketStep = func() (t [256]int8) {
	t['('], t['['], t['{'] = 1, 1, 1
	t[')'], t[']'], t['}'] = -1, -1, -1
	return t
}()

// htmlUnclosed are the elements that never close (void elements) or whose
// end tags may be left out: they nest nothing they do not close
// themselves.
var htmlUnclosed = setOf("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
	"track", "wbr", "p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot", "option", "optgroup",
	"colgroup", "caption", "rb", "rt", "rp")

// tagNesting is the deepest that HTML start tags open at once, but for
// elements that close themselves.
func tagNesting(text string) int {
	depth, deepest := 0, 0
	for i := 0; i+1 < len(text); i++ {
		if text[i] != '<' {
			continue
		}
		closing := text[i+1] == '/'
		j := i + 1
		if closing {
			j++
		}
		k := j
		for k < len(text) && (isIdentByte(text[k]) || text[k] == '-') {
			k++
		}
		if k == j || !isLetter(text[j]) {
			continue
		}
		name := text[j:k]
		if htmlUnclosed[lower(name)] {
			continue
		}
		if closing {
			depth = max(depth-1, 0)
			continue
		}
		end := k
		for end < len(text) && text[end] != '>' {
			end++
		}
		if end < len(text) && text[end-1] == '/' {
			continue // <x/> closes itself
		}
		depth++
		deepest = max(deepest, depth)
	}
	return deepest
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// markdownNesting bounds the containers a line of markdown opens: its
// block quote markers and list markers, and one for every two columns of
// indentation before the first of them (a nested list's own indent); it
// returns the largest bound and its line.
func markdownNesting(text string) (deepest, at int) {
	for n, start := 1, 0; start < len(text); n++ {
		end := start
		for end < len(text) && text[end] != '\n' {
			end++
		}
		if b := containers(text[start:end]); b > deepest {
			deepest, at = b, n
		}
		start = end + 1
	}
	return deepest, at
}

// containers bounds the containers the start of one line opens.
func containers(line string) int {
	n, cols := 0, 0
	spaceAfter := func(i int) bool { return i < len(line) && (line[i] == ' ' || line[i] == '\t') }
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == ' ' && n == 0:
			cols++
		case c == '\t' && n == 0:
			cols += 4
		case c == ' ' || c == '\t':
			// the space after a marker is part of it
		case c == '>':
			n++
		case (c == '-' || c == '*' || c == '+') && spaceAfter(i+1):
			n++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j >= len(line) || line[j] != '.' && line[j] != ')' || !spaceAfter(j+1) {
				return n + cols/2
			}
			n++
			i = j
		default:
			return n + cols/2
		}
	}
	return n + cols/2
}
