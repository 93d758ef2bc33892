package hashline_test

import (
	"fmt"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

func numberedFile(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestHeader(t *testing.T) {
	t.Parallel()
	if got := hashline.Header("src/main.rs", "A1B2"); got != "[src/main.rs#A1B2]" {
		t.Fatalf("Header = %q, want [src/main.rs#A1B2]", got)
	}
}

func TestRenderWindow(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("// filler\n", 40) + "fn main() {\r\n    println!(\"hi\");  \n}\n"
	tx := hashline.NewText(body)
	tag := string(tx.Tag())
	cases := []struct {
		name         string
		first, limit int
		want         string
		seen         string
		firstL, last int
	}{
		// The header tags the whole file; rows keep absolute numbers and
		// their trailing whitespace, and drop their endings.
		{"window at an offset", 41, 3,
			"[src/main.rs#" + tag + "]\n41:fn main() {\n42:    println!(\"hi\");  \n43:}\n", "41-43", 41, 43},
		{"limit past the end is clamped", 42, 100,
			"[src/main.rs#" + tag + "]\n42:    println!(\"hi\");  \n43:}\n", "42-43", 42, 43},
		{"offset past the end shows the header only", 44, 10,
			"[src/main.rs#" + tag + "]\n", "", 44, 43},
		{"first line", 1, 1,
			"[src/main.rs#" + tag + "]\n1:// filler\n", "1", 1, 1},
		{"offset below 1 starts at line 1", 0, 2,
			"[src/main.rs#" + tag + "]\n1:// filler\n2:// filler\n", "1-2", 1, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			v := hashline.RenderWindowAs(hashline.AnchorTag, "src/main.rs", tx, c.first, c.limit)
			if v.Content != c.want {
				t.Fatalf("Content =\n%s\nwant\n%s", v.Content, c.want)
			}
			if v.Seen.String() != c.seen || v.First != c.firstL || v.Last != c.last || len(v.Clipped) != 0 {
				t.Fatalf("Seen %q First %d Last %d Clipped %v, want %q %d %d none", v.Seen, v.First, v.Last, v.Clipped, c.seen, c.firstL, c.last)
			}
		})
	}
}

func TestRenderEmptyFile(t *testing.T) {
	t.Parallel()
	v := hashline.RenderWindowAs(hashline.AnchorTag, "empty.txt", hashline.NewText(""), 1, 2000)
	if v.Content != "[empty.txt#B855]\n" || v.Seen.Len() != 0 {
		t.Fatalf("Content %q Seen %q, want the header alone and nothing seen", v.Content, v.Seen)
	}
}

// Clipping counts characters, not bytes: a row of 16,384 two-byte runes is
// shown whole, one more rune is clipped, and a clipped row is not seen.
func TestRenderWindowClipsAtCharacters(t *testing.T) {
	t.Parallel()
	full := strings.Repeat("é", hashline.MaxLineChars)
	over := strings.Repeat("é", hashline.MaxLineChars+1)
	tx := hashline.NewText("a\n" + full + "\n" + over + "\nb\n")
	v := hashline.RenderWindowAs(hashline.AnchorTag, "w.txt", tx, 1, 10)
	want := "[w.txt#" + string(tx.Tag()) + "]\n1:a\n2:" + full + "\n3:" + full +
		" … [line 3 clipped: 16384 of 16385 characters shown]\n4:b\n"
	if v.Content != want {
		t.Fatalf("Content differs (len %d, want %d); clipped tail %q", len(v.Content), len(want), v.Content[len(v.Content)-80:])
	}
	if v.Seen.String() != "1-2,4" || fmt.Sprint(v.Clipped) != "[3]" {
		t.Fatalf("Seen %q Clipped %v, want 1-2,4 and [3]", v.Seen, v.Clipped)
	}
	s := hashline.NewSession()
	s.Read("w.txt", "w.txt", tx, 1, 10)
	if got := s.Snapshots("w.txt")[0].Seen.String(); got != "1-2,4" {
		t.Fatalf("recorded Seen %q, want 1-2,4", got)
	}
}

func TestRenderRows(t *testing.T) {
	t.Parallel()
	tx := hashline.NewText("alpha\nbeta\ngamma\ndelta\nepsilon\n")
	tag := string(tx.Tag())
	v := hashline.RenderRows("g.txt", tx, []int{2, 4, 5}, 5)
	want := "[g.txt#" + tag + "]\n2:beta\n4:delta\n5:epsil … [line 5 clipped: 5 of 7 characters shown]\n"
	if v.Content != want {
		t.Fatalf("Content =\n%s\nwant\n%s", v.Content, want)
	}
	if v.Seen.String() != "2,4" || fmt.Sprint(v.Clipped) != "[5]" || v.First != 2 || v.Last != 5 {
		t.Fatalf("Seen %q Clipped %v First %d Last %d, want 2,4 [5] 2 5", v.Seen, v.Clipped, v.First, v.Last)
	}
	none := hashline.RenderRows("g.txt", tx, nil, 512)
	if none.Content != "[g.txt#"+tag+"]\n" || none.Seen.Len() != 0 {
		t.Fatalf("no rows: Content %q Seen %q, want the header alone", none.Content, none.Seen)
	}
}

func TestStripPasted(t *testing.T) {
	t.Parallel()
	const headerWarn = "removed the pasted header [a.go#1A2B] from the first line; content is the file's text only"
	const numbersWarn = "removed the N: line-number prefixes copied from read output; content is the file's text only"
	cases := []struct {
		name, in, want string
		warnings       []string
	}{
		{"header only", "[a.go#1A2B]\nfoo\nbar\n", "foo\nbar\n", []string{headerWarn}},
		{"header alone without newline", "[a.go#1A2B]", "", []string{headerWarn}},
		{"header with lowercase tag", "[a.go#1a2b]\nx\n", "x\n",
			[]string{"removed the pasted header [a.go#1a2b] from the first line; content is the file's text only"}},
		{"prefixes only", "1:foo\n2:bar\n", "foo\nbar\n", []string{numbersWarn}},
		{"prefixes from an offset, no final newline", "41:fn main() {\n42:}", "fn main() {\n}", []string{numbersWarn}},
		{"empty rows keep their place", "7:a\n8:\n9:b\n", "a\n\nb\n", []string{numbersWarn}},
		{"header and prefixes", "[src/main.rs#A1B2]\n41:fn main() {\n42:    x\n43:}\n", "fn main() {\n    x\n}\n",
			[]string{"removed the pasted header [src/main.rs#A1B2] from the first line; content is the file's text only", numbersWarn}},
		{"non-consecutive numbers are content", "1:a\n3:b\n", "1:a\n3:b\n", nil},
		{"descending numbers are content", "2:a\n1:b\n", "2:a\n1:b\n", nil},
		{"a line without a prefix keeps every prefix", "1:a\nb\n3:c\n", "1:a\nb\n3:c\n", nil},
		{"header kept when prefixes are irregular", "[a.go#1A2B]\n1:a\nb\n", "1:a\nb\n", []string{headerWarn}},
		{"CRLF content", "[a.go#1A2B]\r\n1:a\r\n2:b\r\n", "a\r\nb\r\n", []string{headerWarn, numbersWarn}},
		{"header not on the first line is content", "x\n[a.go#1A2B]\n", "x\n[a.go#1A2B]\n", nil},
		{"header with trailing text is content", "[a.go#1A2B] hi\nx\n", "[a.go#1A2B] hi\nx\n", nil},
		{"zero is not a row number", "0:a\n1:b\n", "0:a\n1:b\n", nil},
		{"plain text", "hello\n", "hello\n", nil},
		{"empty", "", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, warnings := hashline.StripPasted(c.in)
			if got != c.want {
				t.Fatalf("StripPasted(%q) = %q, want %q", c.in, got, c.want)
			}
			if strings.Join(warnings, "\n") != strings.Join(c.warnings, "\n") {
				t.Fatalf("warnings = %q, want %q", warnings, c.warnings)
			}
		})
	}
}
