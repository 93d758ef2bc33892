package documents

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"hashline-ls/internal/golden"
)

func TestEncodingString(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		enc  Encoding
		want string
	}{
		{UTF16, "utf-16"},
		{UTF8, "utf-8"},
		{UTF32, "utf-32"},
		{Encoding(7), "Encoding(7)"},
	} {
		if got := c.enc.String(); got != c.want {
			t.Errorf("Encoding(%d).String() = %q, want %q", int(c.enc), got, c.want)
		}
	}
}

func pos(line, char uint32) Position { return Position{Line: line, Character: char} }

// TestLineIndexGolden runs the cases of testdata/position, one a file. Its
// text is the section "text quoted": one line, the text as a Go string
// literal (strconv.Unquote reads it), so that CR, invalid UTF-8 and a
// missing final newline show; testdata/store writes its texts the same
// way. Then one check: "encoding" and "position" (line:character) against
// "want offset", for OffsetAt; "encoding" and "offset" against "want
// position", for PositionAt; or, with neither, "want starts", the offsets
// the lines start at.
func TestLineIndexGolden(t *testing.T) {
	t.Parallel()
	golden.Run(t, "testdata/position", 73, func(t *testing.T, g *golden.File) {
		text := g.Quoted(t, "text quoted")
		x := NewLineIndex(text)
		var call, got, want string
		if in, ok := g.Section("position"); ok {
			p, enc := mustPosition(t, strings.TrimSpace(in)), mustEncoding(t, g)
			call, want = fmt.Sprintf("LineIndex.OffsetAt(%q, %v, %v)", text, p, enc), "want offset"
			got = strconv.Itoa(x.OffsetAt(text, p, enc))
		} else if in, ok := g.Section("offset"); ok {
			off, err := strconv.Atoi(strings.TrimSpace(in))
			if err != nil {
				t.Fatal(err)
			}
			enc := mustEncoding(t, g)
			call, want = fmt.Sprintf("LineIndex.PositionAt(%q, %d, %v)", text, off, enc), "want position"
			got = fmtPosition(x.PositionAt(text, off, enc))
		} else {
			call, want = fmt.Sprintf("NewLineIndex(%q) starts", text), "want starts"
			got = strings.Trim(fmt.Sprint(x.starts), "[]")
			if n := len(strings.Fields(g.Must(t, want))); x.Lines() != n && !*golden.Update {
				t.Errorf("NewLineIndex(%q).Lines() = %d, want %d", text, x.Lines(), n)
			}
		}
		if *golden.Update {
			g.Set(want, got+"\n")
			g.Write(t)
		} else if w := g.Must(t, want); got+"\n" != w {
			t.Errorf("%s = %s, want %s", call, got, strings.TrimSuffix(w, "\n"))
		}
	})
}

// mustEncoding reads the section "encoding": utf-16, utf-8 or utf-32.
func mustEncoding(t *testing.T, g *golden.File) Encoding {
	t.Helper()
	name := strings.TrimSpace(g.Must(t, "encoding"))
	for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
		if enc.String() == name {
			return enc
		}
	}
	t.Fatalf("%s: unknown encoding %q", g.Path, name)
	return 0
}

// mustPosition reads line:character.
func mustPosition(t *testing.T, s string) Position {
	t.Helper()
	l, c, ok := strings.Cut(s, ":")
	line, errL := strconv.ParseUint(l, 10, 32)
	char, errC := strconv.ParseUint(c, 10, 32)
	if !ok || errL != nil || errC != nil {
		t.Fatalf("position %q is not line:character", s)
	}
	return pos(uint32(line), uint32(char))
}

func fmtPosition(p Position) string { return fmt.Sprintf("%d:%d", p.Line, p.Character) }

// pieces make texts with every kind of character and line ending, invalid
// bytes included, side by side in any order.
var pieces = []string{"a", "z", " ", "\t", "é", "日", "😀", "𝄞", "\n", "\r\n", "\r", "\xff", "\xe6\x97", "\x80", "\uFEFF"}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// refChar is one character of a reference split of a text: where it starts
// and its size in each encoding.
type refChar struct{ off, u8, u16 int }

// refLines splits text into lines of characters the slow, obvious way, as
// an oracle independent of the code under test. Each line's last entry is
// its end, with sizes 0.
func refLines(text string) [][]refChar {
	var lines [][]refChar
	var cur []refChar
	for i := 0; i < len(text); {
		switch {
		case text[i] == '\n' || text[i] == '\r':
			w := 1
			if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				w = 2
			}
			lines = append(lines, append(cur, refChar{off: i}))
			cur = nil
			i += w
			continue
		}
		r, w := utf8.DecodeRuneInString(text[i:])
		u16 := 1
		if r > 0xFFFF {
			u16 = 2
		}
		cur = append(cur, refChar{off: i, u8: w, u16: u16})
		i += w
	}
	return append(lines, append(cur, refChar{off: len(text)}))
}

func units(c refChar, enc Encoding) uint32 {
	switch enc {
	case UTF8:
		return uint32(c.u8)
	case UTF16:
		return uint32(c.u16)
	}
	if c.u8 == 0 {
		return 0
	}
	return 1
}

// Every character boundary maps to the position the oracle gives, in every
// encoding, and back; every position, including ones inside a character or
// past a line's end, maps to the last boundary at or before it.
func TestPositionRoundTrip(t *testing.T) {
	t.Parallel()
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
		text := randomText(r, r.IntN(60))
		x := NewLineIndex(text)
		lines := refLines(text)
		if x.Lines() != len(lines) {
			t.Fatalf("seed %d: %q has %d lines, oracle %d", seed, text, x.Lines(), len(lines))
		}
		for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
			for ln, chars := range lines {
				var col uint32
				for _, c := range chars {
					want := pos(uint32(ln), col)
					if got := x.PositionAt(text, c.off, enc); got != want {
						t.Fatalf("seed %d %v: LineIndex.PositionAt(%q, %d) = %v, want %v", seed, enc, text, c.off, got, want)
					}
					// Every position from this boundary up to the next one
					// rounds down to it; past the line's end clamps to it.
					next := col + units(c, enc)
					if c.u8 == 0 {
						next = col + 3
					}
					for ch := col; ch < next; ch++ {
						p := pos(uint32(ln), ch)
						if got := x.OffsetAt(text, p, enc); got != c.off {
							t.Fatalf("seed %d %v: LineIndex.OffsetAt(%q, %v) = %d, want %d", seed, enc, text, p, got, c.off)
						}
					}
					col = next
				}
			}
			if got := x.OffsetAt(text, pos(uint32(len(lines)), 0), enc); got != len(text) {
				t.Fatalf("seed %d %v: LineIndex.OffsetAt(%q) past the last line = %d, want %d", seed, enc, text, got, len(text))
			}
		}
	}
}
