package hashline

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Header returns the section header "[path#TAG]" (docs/contract.md §5.1).
func Header(display string, tag Tag) string { return "[" + display + "#" + string(tag) + "]" }

// View is a rendered window of a file: the header, then one "N:text" row per
// line, numbered as in the file.
type View struct {
	Content string
	// Seen holds the rows displayed in full; clipped rows are left out
	// (docs/contract.md §5.3), because the model never saw their tails.
	Seen *LineSet
	// First and Last are the window's lines (Last < First when empty).
	First, Last int
	// Clipped lists rows cut at the width limit.
	Clipped []int
}

// Anchors is how rows name their lines.
type Anchors int

const (
	// AnchorTag rows are "N:text"; the header's tag vouches for them.
	AnchorTag Anchors = iota
	// AnchorLine rows are kli's "N:HH|text", HH the line's own hash
	// (docs/contract.md §17.1), for patches that anchor on each line.
	AnchorLine
)

// RenderWindowAs renders lines first..first+limit-1 of t (clamped to the
// file) under its header, rows in the given anchor style, clipping rows at
// MaxLineChars characters.
func RenderWindowAs(anchors Anchors, display string, t *Text, first, limit int) View {
	first = max(first, 1)
	if first == 1 && anchors == AnchorTag && t.index.Load() == nil {
		if v, ok := renderFresh(display, t, limit); ok {
			return v
		}
	}
	last := min(t.Len(), first+limit-1)
	x := t.x()
	size := len(display) + 8
	if last >= first {
		size += x.at(last) - x.at(first-1) + (last-first+1)*(digits(last)+1)
	}
	// One check of the window spares one per row: the rows are split at
	// ASCII bytes, so they are valid UTF-8 exactly when the window is.
	valid := last < first || utf8.ValidString(t.raw[x.at(first-1):x.at(last)])
	w := newRows(appendHeader(make([]byte, 0, size), display, t.Tag()), first, valid, anchors, x.hasCR)
	for n := first; n <= last; n++ {
		w.add(n, t.raw, x.at(n-1), x.at(n), x.contentEnd(t.raw, n-1))
	}
	return view(w.b, first, last, w.clipped)
}

// rows writes the rows of one window. It lives on its writer's stack:
// the row loop appends to a buffer no heap object points at.
type rows struct {
	b []byte
	// num is the next row's number and a colon, counted up in place; the
	// number is its first digits bytes.
	num     [24]byte
	digits  int
	clipped []int
	// valid says the window is valid UTF-8; plain, that a row whose line
	// ends in LF is that line as it is: an LF text in tag style.
	valid, plain bool
	anchors      Anchors
}

// newRows writes rows from row first on after b.
func newRows(b []byte, first int, valid bool, anchors Anchors, hasCR bool) rows {
	w := rows{b: b, valid: valid, plain: valid && anchors == AnchorTag && !hasCR, anchors: anchors}
	w.digits = len(strconv.AppendInt(w.num[:0], int64(first), 10))
	w.num[w.digits] = ':'
	return w
}

// add appends row n: raw[s:e] is its line with its ending, which starts
// at ce.
func (w *rows) add(n int, raw string, s, e, ce int) {
	if w.plain && e-s <= MaxLineChars && raw[e-1] == '\n' {
		w.b = append(append(w.b, w.num[:w.digits+1]...), raw[s:e]...)
		w.count()
		return
	}
	w.b = append(w.b, w.num[:w.digits]...)
	w.count()
	var clipped bool
	if w.b, clipped = appendRow(w.b, n, raw[s:ce], MaxLineChars, w.valid, w.anchors); clipped {
		w.clipped = append(w.clipped, n)
	}
}

// count adds one to the row number.
func (w *rows) count() {
	for i := w.digits - 1; i >= 0; i-- {
		if w.num[i] < '9' {
			w.num[i]++
			return
		}
		w.num[i] = '0'
	}
	// All nines turned to zeros: a digit more, and the colon after it.
	w.num[0] = '1'
	w.num[w.digits] = '0'
	w.digits++
	w.num[w.digits] = ':'
}

// view is the View of rows first..last, written to b, of which those in
// clipped fall short of their lines.
func view(b []byte, first, last int, clipped []int) View {
	v := View{Content: stringOf(b), Seen: newLineSet(), First: first, Last: last, Clipped: clipped}
	run := first
	for _, n := range clipped {
		v.Seen.AddRange(run, n-1)
		run = n + 1
	}
	v.Seen.AddRange(run, last)
	return v
}

// RenderRows renders the given lines of t (ascending, 1-based) under its
// header, as grep shows its matches, clipping at width characters.
func RenderRows(display string, t *Text, lines []int, width int) View {
	return RenderRowsAs(AnchorTag, display, t, lines, width)
}

// RenderRowsAs is RenderRows with rows in the given anchor style.
func RenderRowsAs(anchors Anchors, display string, t *Text, lines []int, width int) View {
	v := View{Seen: newLineSet()}
	if len(lines) > 0 {
		v.First, v.Last = lines[0], lines[len(lines)-1]
	}
	b := appendHeader(nil, display, t.Tag())
	for _, n := range lines {
		b = strconv.AppendInt(b, int64(n), 10)
		var clipped bool
		if b, clipped = appendRow(b, n, t.Line(n), width, false, anchors); clipped {
			v.Clipped = append(v.Clipped, n)
		} else {
			v.Seen.Add(n)
		}
	}
	v.Content = stringOf(b)
	return v
}

// appendHeader appends the header line "[path#TAG]\n".
func appendHeader(b []byte, display string, tag Tag) []byte {
	b = append(b, '[')
	b = append(b, display...)
	b = append(b, '#')
	b = append(b, tag...)
	return append(b, "]\n"...)
}

// stringOf is the string b holds, which nothing writes again.
func stringOf(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// appendRow appends ":line\n" after row number n, which the caller wrote,
// cutting the line after width characters; it reports whether the row falls
// short of the line. A line that is not valid UTF-8 falls short too: it can
// only be shown with replacement characters, so the model never saw its
// bytes. valid says the caller has checked that line is valid.
func appendRow(b []byte, n int, line string, width int, valid bool, anchors Anchors) ([]byte, bool) {
	b = append(b, ':')
	if anchors == AnchorLine {
		b = append(b, LineHash(line)...)
		b = append(b, '|')
	}
	if !valid && !utf8.ValidString(line) {
		b = append(b, clip(strings.ToValidUTF8(line, "\uFFFD"), width)...)
		return fmt.Appendf(b, " … [line %d is not valid UTF-8: shown with U+FFFD, so it cannot be edited by line]\n", n), true
	}
	cut, total := clipAt(line, width)
	b = append(b, line[:cut]...)
	if cut < len(line) {
		b = fmt.Appendf(b, " … [line %d clipped: %d of %d characters shown]", n, width, total)
	}
	return append(b, '\n'), cut < len(line)
}

// clipAt returns the byte length of the first width characters of s, and
// the character count of s when it is longer than width.
func clipAt(s string, width int) (cut, total int) {
	if len(s) <= width {
		return len(s), 0
	}
	chars := 0
	for i := range s {
		if chars == width {
			return i, utf8.RuneCountInString(s)
		}
		chars++
	}
	return len(s), 0
}

// clip shortens s to at most n characters for messages.
func clip(s string, n int) string {
	cut, _ := clipAt(s, n)
	if cut < len(s) {
		return s[:cut] + "…"
	}
	return s
}

func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}

var (
	headerRe = regexp.MustCompile(`^\[[^\[\]\n]+#[0-9A-Fa-f]{4}\]$`)
	prefixRe = regexp.MustCompile(`^([1-9][0-9]*):`)
)

// StripPasted removes what a model copies from read output into content it
// writes (docs/contract.md §16.3): a leading [path#TAG] header, and "N:" prefixes when every
// line carries one and they count up by one. Anything less regular is left
// alone, because a line that merely starts with digits and a colon is
// content. It returns a warning for each thing it removed.
func StripPasted(content string) (string, []string) {
	var warnings []string
	first, rest, found := strings.Cut(content, "\n")
	if headerRe.MatchString(strings.TrimSuffix(first, "\r")) {
		warnings = append(warnings, fmt.Sprintf("removed the pasted header %s from the first line; content is the file's text only", strings.TrimSuffix(first, "\r")))
		if !found {
			rest = ""
		}
		content = rest
	}
	if stripped, ok := stripNumbers(content); ok {
		warnings = append(warnings, "removed the N: line-number prefixes copied from read output; content is the file's text only")
		content = stripped
	}
	return content, warnings
}

func stripNumbers(content string) (string, bool) {
	if content == "" {
		return "", false
	}
	lines := strings.SplitAfter(content, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	want := -1
	var b strings.Builder
	b.Grow(len(content))
	for _, l := range lines {
		m := prefixRe.FindStringSubmatch(l)
		if m == nil {
			return "", false
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || (want >= 0 && n != want) {
			return "", false
		}
		want = n + 1
		b.WriteString(l[len(m[0]):])
	}
	return b.String(), true
}
