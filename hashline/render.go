package hashline

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
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
	last := min(t.Len(), first+limit-1)
	v := View{First: first, Last: last, Seen: &LineSet{}}
	var b strings.Builder
	size := len(display) + 8
	if last >= first {
		size += t.starts[last] - t.starts[first-1] + (last-first+1)*(digits(last)+1)
	}
	b.Grow(size)
	b.WriteString(Header(display, t.Tag()))
	b.WriteByte('\n')
	runStart := first
	// One check of the window spares one per row: the rows are split at
	// ASCII bytes, so they are valid UTF-8 exactly when the window is.
	valid := last < first || utf8.ValidString(t.raw[t.starts[first-1]:t.starts[last]])
	// Consecutive row numbers are counted up in place, not formatted anew.
	num := strconv.AppendInt(make([]byte, 0, 20), int64(first), 10)
	for n := first; n <= last; n++ {
		b.Write(num)
		if appendRow(&b, n, t.Line(n), MaxLineChars, valid, anchors) {
			v.Clipped = append(v.Clipped, n)
			v.Seen.AddRange(runStart, n-1)
			runStart = n + 1
		}
		num = incDecimal(num)
	}
	v.Seen.AddRange(runStart, last)
	v.Content = b.String()
	return v
}

// RenderRows renders the given lines of t (ascending, 1-based) under its
// header, as grep shows its matches, clipping at width characters.
func RenderRows(display string, t *Text, lines []int, width int) View {
	return RenderRowsAs(AnchorTag, display, t, lines, width)
}

// RenderRowsAs is RenderRows with rows in the given anchor style.
func RenderRowsAs(anchors Anchors, display string, t *Text, lines []int, width int) View {
	v := View{Seen: &LineSet{}}
	if len(lines) > 0 {
		v.First, v.Last = lines[0], lines[len(lines)-1]
	}
	var b strings.Builder
	b.WriteString(Header(display, t.Tag()))
	b.WriteByte('\n')
	var num [20]byte
	for _, n := range lines {
		b.Write(strconv.AppendInt(num[:0], int64(n), 10))
		if appendRow(&b, n, t.Line(n), width, false, anchors) {
			v.Clipped = append(v.Clipped, n)
		} else {
			v.Seen.Add(n)
		}
	}
	v.Content = b.String()
	return v
}

// appendRow writes ":line\n" after row number n, which the caller wrote,
// cutting the line after width characters; it reports whether the row falls
// short of the line. A line that is not valid UTF-8 falls short too: it can
// only be shown with replacement characters, so the model never saw its
// bytes. valid says the caller has checked that line is valid.
func appendRow(b *strings.Builder, n int, line string, width int, valid bool, anchors Anchors) bool {
	b.WriteByte(':')
	if anchors == AnchorLine {
		b.WriteString(LineHash(line))
		b.WriteByte('|')
	}
	if !valid && !utf8.ValidString(line) {
		b.WriteString(clip(strings.ToValidUTF8(line, "\uFFFD"), width))
		fmt.Fprintf(b, " … [line %d is not valid UTF-8: shown with U+FFFD, so it cannot be edited by line]\n", n)
		return true
	}
	cut, total := clipAt(line, width)
	b.WriteString(line[:cut])
	if cut < len(line) {
		fmt.Fprintf(b, " … [line %d clipped: %d of %d characters shown]", n, width, total)
	}
	b.WriteByte('\n')
	return cut < len(line)
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

// incDecimal adds one to the decimal number in d.
func incDecimal(d []byte) []byte {
	for i := len(d) - 1; i >= 0; i-- {
		if d[i] < '9' {
			d[i]++
			return d
		}
		d[i] = '0'
	}
	d = append(d, '0')
	d[0] = '1'
	return d
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
