package lsptest

// The editor's position arithmetic is written from the specification, not
// shared with the documents package, so that a position bug in the server
// cannot hide behind the same code on both sides.

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"
)

// applyTextEdits applies LSP text edits, whose ranges all refer to the text
// before any of them, to *text. It works bottom-up, as VS Code and Neovim
// do, so every edit's range is still right in the text the previous one
// left; the returned change events, in that order, are what the editor
// reports in didChange.
func applyTextEdits(text *string, edits []TextEdit, enc string) ([]changeEvent, error) {
	order := make([]int, len(edits))
	for i := range order {
		order[i] = i
	}
	before := func(p, q Position) bool { return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character }
	// Later edits first; of two inserts at one position, the later in the
	// array first, so the earlier ends up in front as the spec says.
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := edits[order[a]].Range.Start, edits[order[b]].Range.Start
		if ra == rb {
			return order[a] > order[b]
		}
		return before(rb, ra)
	})
	t := *text
	bound := len(t)
	evs := make([]changeEvent, 0, len(edits))
	for _, i := range order {
		te := edits[i]
		s, err := clientOffset(t, te.Range.Start, enc)
		if err != nil {
			return nil, fmt.Errorf("edit %d start: %w", i, err)
		}
		en, err := clientOffset(t, te.Range.End, enc)
		if err != nil {
			return nil, fmt.Errorf("edit %d end: %w", i, err)
		}
		if en < s || en > bound {
			return nil, fmt.Errorf("edit %d: range %v is reversed or overlaps another edit", i, te.Range)
		}
		t = t[:s] + te.NewText + t[en:]
		bound = s
		r := te.Range
		evs = append(evs, changeEvent{Range: &r, Text: te.NewText})
	}
	*text = t
	return evs, nil
}

// clientOffset is the byte offset of an LSP position in text, from the
// specification: lines end at LF, CRLF or CR; a character counts UTF-16
// code units or UTF-8 bytes as negotiated. Unlike a lenient editor it
// refuses a position past a line's end or inside a character, so that a
// server bug shows.
func clientOffset(text string, p Position, enc string) (int, error) {
	off := 0
	for l := uint32(0); l < p.Line; l++ {
		i := strings.IndexAny(text[off:], "\r\n")
		if i < 0 {
			return 0, fmt.Errorf("line %d is past the last line (%d)", p.Line, l)
		}
		off += i
		if strings.HasPrefix(text[off:], "\r\n") {
			off += 2
		} else {
			off++
		}
	}
	end := len(text)
	if i := strings.IndexAny(text[off:], "\r\n"); i >= 0 {
		end = off + i
	}
	var n uint32
	for n < p.Character {
		if off >= end {
			return 0, fmt.Errorf("character %d is past the end of line %d (%d)", p.Character, p.Line, n)
		}
		r, w := utf8.DecodeRuneInString(text[off:])
		units := uint32(w)
		if enc == "utf-16" {
			units = 1
			if r >= 0x10000 {
				units = 2
			}
		}
		if n+units > p.Character {
			return 0, fmt.Errorf("character %d of line %d falls inside %q", p.Character, p.Line, r)
		}
		n += units
		off += w
	}
	return off, nil
}

// clientPosition is the LSP position of byte offset off, which must sit on
// a character boundary outside any line ending.
func clientPosition(text string, off int, enc string) Position {
	var p Position
	start := 0
	for i := 0; i < off; i++ {
		switch text[i] {
		case '\n':
			p.Line++
			start = i + 1
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			p.Line++
			start = i + 1
		}
	}
	for _, r := range text[start:off] {
		switch {
		case enc == "utf-8":
			p.Character += uint32(utf8.RuneLen(r))
		case r >= 0x10000:
			p.Character += 2
		default:
			p.Character++
		}
	}
	return p
}

// URI is the file URI of an absolute path, spelled as editors spell it:
// on Windows as VS Code does, file:///c%3A/Users/me/a.go (uri_windows.go).
func URI(path string) string { return uriOf(path) }

// filePath is the path of a file URI.
func filePath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", fmt.Errorf("%q is not a file URI", uri)
	}
	return pathOf(u), nil
}
