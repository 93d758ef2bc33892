package documents

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Encoding is how a position's character offset counts.
type Encoding int

const (
	// UTF16 counts UTF-16 code units: the LSP default, and all VS Code speaks.
	UTF16 Encoding = iota
	// UTF8 counts bytes.
	UTF8
	// UTF32 counts code points.
	UTF32
)

// String is the LSP spelling, as sent back in the server's capabilities.
func (e Encoding) String() string {
	switch e {
	case UTF16:
		return "utf-16"
	case UTF8:
		return "utf-8"
	case UTF32:
		return "utf-32"
	}
	return fmt.Sprintf("Encoding(%d)", int(e))
}

// Position is a zero-based line and a character offset in that line, counted
// in some Encoding.
type Position struct{ Line, Character uint32 }

// Range runs from Start up to, not including, End.
type Range struct{ Start, End Position }

// Before reports whether p comes before q.
func (p Position) Before(q Position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character
}

// LineIndex holds where each line of one text starts, so that converting
// many positions costs a binary search and a walk along one line each
// rather than a scan from the top.
type LineIndex struct {
	// starts[i] is the byte offset where line i begins; starts[0] is 0, and
	// a text ending in a line ending has an empty last line starting at its
	// end, as LSP counts.
	starts []int
}

// NewLineIndex indexes the lines of text.
func NewLineIndex(text string) *LineIndex {
	return &LineIndex{starts: lineStarts(text)}
}

// Lines is the number of lines: one more than the number of line endings.
func (x *LineIndex) Lines() int { return len(x.starts) }

// OffsetAt returns the byte offset of p in text, the text x indexes. Lines
// end at LF, CRLF or a lone CR (as LSP and hashline.Text count them). A
// character past the end of its line clamps to the line's end (before its
// line ending), as the LSP spec says clients must accept; a line past the
// last clamps to len(text). A position inside a UTF-16 surrogate pair or
// inside a UTF-8 sequence rounds down to the start of that character.
func (x *LineIndex) OffsetAt(text string, p Position, enc Encoding) int {
	if int64(p.Line) >= int64(len(x.starts)) {
		return len(text)
	}
	off, _ := seek(text, x.starts[p.Line], p.Character, enc)
	return off
}

// PositionAt returns the position of the byte offset off in text, the text
// x indexes: the inverse of OffsetAt for an offset on a character boundary.
// An offset inside a character rounds down to its start, one inside a CRLF
// to the line's end, and one outside text clamps to it.
func (x *LineIndex) PositionAt(text string, off int, enc Encoding) Position {
	off = clampOffset(text, off)
	line, found := slices.BinarySearch(x.starts, off)
	if !found {
		line--
	}
	return Position{Line: uint32(line), Character: charsTo(text, x.starts[line], off, enc)}
}

// lineStarts finds where each line of text begins.
func lineStarts(text string) []int {
	if strings.IndexByte(text, '\r') < 0 {
		// LF only, the common case: count first so the slice is allocated once.
		dst := make([]int, 1, strings.Count(text, "\n")+1)
		for pos := 0; ; {
			i := strings.IndexByte(text[pos:], '\n')
			if i < 0 {
				return dst
			}
			pos += i + 1
			dst = append(dst, pos)
		}
	}
	dst := make([]int, 1, 64)
	for pos := 0; ; {
		e, ok := nextLine(text, pos, len(text))
		if !ok {
			return dst
		}
		pos = e
		dst = append(dst, pos)
	}
}

// nextLine returns where the line after the one holding pos starts, if that
// line's ending begins before limit.
func nextLine(text string, pos, limit int) (int, bool) {
	i := strings.IndexAny(text[pos:limit], "\r\n")
	if i < 0 {
		return 0, false
	}
	e := pos + i + 1
	if text[e-1] == '\r' && e < len(text) && text[e] == '\n' {
		e++
	}
	return e, true
}

// isLineStart reports whether a line begins at off in text.
func isLineStart(text string, off int) bool {
	if off == 0 {
		return true
	}
	switch text[off-1] {
	case '\n':
		return true
	case '\r':
		return off == len(text) || text[off] != '\n'
	}
	return false
}

func clampOffset(text string, off int) int {
	return max(0, min(off, len(text)))
}

// seek walks the line of text that begins at start to its character char in
// enc, stopping at the line's end. cut reports that the answer may depend on
// bytes past the end of text: the line ran off the end, or a character there
// is cut short. Callers holding the whole text ignore it; the store's batches
// use it to tell when a prefix of the text is not enough.
func seek(text string, start int, char uint32, enc Encoding) (off int, cut bool) {
	if enc == UTF8 {
		limit := len(text)
		if int64(char) <= int64(limit-start) {
			limit = start + int(char)
		} else {
			cut = true
		}
		if i := strings.IndexAny(text[start:limit], "\r\n"); i >= 0 {
			return start + i, false
		}
		off, short := roundDown(text, start, limit)
		return off, cut || short
	}
	var n uint32
	for i := start; i < len(text); {
		if n >= char {
			return i, cut
		}
		b := text[i]
		if b < utf8.RuneSelf {
			if b == '\n' || b == '\r' {
				return i, cut
			}
			n++
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(text[i:])
		if w == 1 && !utf8.FullRuneInString(text[i:]) {
			cut = true
		}
		u := uint32(1)
		if enc == UTF16 && r >= 0x10000 {
			u = 2
		}
		if n+u > char {
			// char falls between the two halves of a surrogate pair.
			return i, cut
		}
		n += u
		i += w
	}
	return len(text), cut || n < char
}

// roundDown moves off, in the line beginning at start, back to the start of
// the character holding it. A character starts at every byte that is not the
// continuation of a valid sequence, so only the three bytes before off need
// looking at. short reports that a sequence cut off by the end of text
// decided the answer.
func roundDown(text string, start, off int) (int, bool) {
	for k := 1; k < utf8.UTFMax && off-k >= start; k++ {
		b := text[off-k]
		if b < utf8.RuneSelf {
			return off, false
		}
		if utf8.RuneStart(b) {
			short := !utf8.FullRuneInString(text[off-k:])
			if _, w := utf8.DecodeRuneInString(text[off-k:]); w > k {
				return off - k, short
			}
			return off, short
		}
	}
	return off, false
}

// charsTo counts the characters in enc from start, a line start, to off,
// rounding off down to a character start and back to the line's end when it
// falls inside the line ending.
func charsTo(text string, start, off int, enc Encoding) uint32 {
	seg := text[start:off]
	if i := strings.IndexAny(seg, "\r\n"); i >= 0 {
		seg = seg[:i]
	} else {
		off, _ = roundDown(text, start, off)
		seg = text[start:off]
	}
	switch enc {
	case UTF8:
		return uint32(len(seg))
	case UTF32:
		return uint32(utf8.RuneCountInString(seg))
	}
	var n uint32
	for i := 0; i < len(seg); {
		if seg[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(seg[i:])
		n++
		if r >= 0x10000 {
			n++
		}
		i += w
	}
	return n
}
