package documents

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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

func TestLineIndexOffsetAt(t *testing.T) {
	t.Parallel()
	const (
		cjk   = "日本語\nx"       // 日 本 語 are 3 bytes, 1 UTF-16 unit each
		emoji = "a😀b\n😀"       // 😀 is 4 bytes, 2 UTF-16 units
		mixed = "a\r\nb\rc\nd" // CRLF, lone CR, LF
	)
	cases := []struct {
		name string
		text string
		p    Position
		enc  Encoding
		want int
	}{
		{"ascii start", "hello\nworld", pos(0, 0), UTF16, 0},
		{"ascii mid first line", "hello\nworld", pos(0, 3), UTF16, 3},
		{"ascii second line", "hello\nworld", pos(1, 2), UTF8, 8},
		{"ascii end of last line", "hello\nworld", pos(1, 5), UTF32, 11},
		{"ascii end of first line", "hello\nworld", pos(0, 5), UTF16, 5},

		{"cjk utf-16 counts one unit", cjk, pos(0, 2), UTF16, 6},
		{"cjk utf-32 counts one code point", cjk, pos(0, 1), UTF32, 3},
		{"cjk utf-8 counts bytes", cjk, pos(0, 6), UTF8, 6},
		{"cjk utf-8 inside a character rounds down", cjk, pos(0, 4), UTF8, 3},
		{"cjk utf-8 last byte of a character rounds down", cjk, pos(0, 8), UTF8, 6},
		{"cjk line end", cjk, pos(0, 3), UTF16, 9},
		{"cjk next line", cjk, pos(1, 1), UTF16, 11},

		{"emoji utf-16 after the pair", emoji, pos(0, 3), UTF16, 5},
		{"emoji utf-16 inside the pair rounds down", emoji, pos(0, 2), UTF16, 1},
		{"emoji utf-16 after b", emoji, pos(0, 4), UTF16, 6},
		{"emoji utf-32 after the emoji", emoji, pos(0, 2), UTF32, 5},
		{"emoji utf-8 after the emoji", emoji, pos(0, 5), UTF8, 5},
		{"emoji utf-8 inside rounds down", emoji, pos(0, 3), UTF8, 1},
		{"emoji utf-16 inside the pair on the last line", emoji, pos(1, 1), UTF16, 7},
		{"emoji utf-16 past the pair on the last line", emoji, pos(1, 2), UTF16, 11},

		{"crlf second line", "ab\r\ncd", pos(1, 1), UTF16, 5},
		{"crlf clamp to before the ending", "ab\r\ncd", pos(0, 9), UTF16, 2},
		{"crlf clamp utf-8", "ab\r\ncd", pos(0, 3), UTF8, 2},
		{"lone cr ends a line", "ab\rcd", pos(1, 0), UTF16, 3},
		{"lone cr clamp", "ab\rcd", pos(0, 4), UTF32, 2},
		{"mixed endings line 1", mixed, pos(1, 0), UTF16, 3},
		{"mixed endings line 2", mixed, pos(2, 0), UTF16, 5},
		{"mixed endings line 3", mixed, pos(3, 1), UTF16, 8},
		{"cr then lf on the next line is one ending", "a\r\n\nb", pos(2, 0), UTF16, 4},
		{"final newline makes an empty last line", "a\n", pos(1, 0), UTF16, 2},
		{"final cr makes an empty last line", "a\r", pos(1, 0), UTF16, 2},

		{"clamp past line end", "hello\nworld", pos(0, 99), UTF16, 5},
		{"clamp past line end, last line", "hello\nworld", pos(1, 99), UTF8, 11},
		{"clamp past the last line", "hello\nworld", pos(2, 0), UTF16, 11},
		{"clamp far past the last line", "hello\nworld", pos(1<<31, 7), UTF16, 11},
		{"clamp huge character", "hello\nworld", pos(0, 1<<32-1), UTF8, 5},

		{"invalid byte counts as one unit", "a\xffb", pos(0, 2), UTF16, 2},
		{"invalid byte utf-32", "a\xffb", pos(0, 2), UTF32, 2},
		{"cut sequence is one unit a byte", "\xe6\x97x", pos(0, 2), UTF16, 2},
		{"cut sequence utf-8 no rounding", "\xe6\x97x", pos(0, 1), UTF8, 1},
		{"stray continuation after a character", "é\x80x", pos(0, 2), UTF16, 3},
		{"invalid at the end of text", "ab\xe6", pos(0, 3), UTF16, 3},

		{"empty text origin", "", pos(0, 0), UTF16, 0},
		{"empty text past end of line", "", pos(0, 5), UTF8, 0},
		{"empty text past last line", "", pos(3, 0), UTF32, 0},
	}
	for _, c := range cases {
		if got := NewLineIndex(c.text).OffsetAt(c.text, c.p, c.enc); got != c.want {
			t.Errorf("%s: LineIndex.OffsetAt(%q, %v, %v) = %d, want %d", c.name, c.text, c.p, c.enc, got, c.want)
		}
	}
}

func TestLineIndexPositionAt(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		text string
		off  int
		enc  Encoding
		want Position
	}{
		{"ascii", "hello\nworld", 8, UTF16, pos(1, 2)},
		{"at a line start", "hello\nworld", 6, UTF16, pos(1, 0)},
		{"at a line end", "hello\nworld", 5, UTF16, pos(0, 5)},
		{"end of text", "hello\nworld", 11, UTF16, pos(1, 5)},
		{"cjk utf-16", "日本語", 6, UTF16, pos(0, 2)},
		{"cjk utf-8", "日本語", 6, UTF8, pos(0, 6)},
		{"cjk utf-32", "日本語", 9, UTF32, pos(0, 3)},
		{"cjk inside rounds down", "日本語", 4, UTF8, pos(0, 3)},
		{"emoji utf-16", "a😀b", 5, UTF16, pos(0, 3)},
		{"emoji utf-32", "a😀b", 5, UTF32, pos(0, 2)},
		{"emoji inside rounds down", "a😀b", 3, UTF16, pos(0, 1)},
		{"between cr and lf is the line end", "ab\r\ncd", 3, UTF16, pos(0, 2)},
		{"after crlf", "ab\r\ncd", 4, UTF16, pos(1, 0)},
		{"after lone cr", "ab\rcd", 3, UTF16, pos(1, 0)},
		{"after final newline", "a\n", 2, UTF16, pos(1, 0)},
		{"invalid bytes", "\xff\xfex", 2, UTF16, pos(0, 2)},
		{"negative clamps", "abc", -4, UTF16, pos(0, 0)},
		{"past the end clamps", "a\nbc", 99, UTF16, pos(1, 2)},
		{"empty", "", 0, UTF32, pos(0, 0)},
	}
	for _, c := range cases {
		if got := NewLineIndex(c.text).PositionAt(c.text, c.off, c.enc); got != c.want {
			t.Errorf("%s: LineIndex.PositionAt(%q, %d, %v) = %v, want %v", c.name, c.text, c.off, c.enc, got, c.want)
		}
	}
}

func TestLineIndexLines(t *testing.T) {
	t.Parallel()
	for text, want := range map[string][]int{
		"":         {0},
		"a":        {0},
		"a\n":      {0, 2},
		"a\r\nb":   {0, 3},
		"a\rb\r":   {0, 2, 4},
		"\r\n\r\n": {0, 2, 4},
		"\n\r":     {0, 1, 2},
		"x\r\r\ny": {0, 2, 4},
		"日\n😀\r\n": {0, 4, 10},
	} {
		x := NewLineIndex(text)
		if !slices.Equal(x.starts, want) || x.Lines() != len(want) {
			t.Errorf("NewLineIndex(%q): starts %v, Lines %d; want %v", text, x.starts, x.Lines(), want)
		}
	}
}

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
