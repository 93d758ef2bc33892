package hashline

import "unicode/utf8"

// Narrow returns the smallest edit of raw with e's effect: the bytes e
// would write over the same bytes, at either end, are left alone, so an
// editor keeps the cursor and marks of the person typing there. A line an
// edit replaces with itself plus a changed word becomes an edit of the
// word. Its ends fall on character boundaries and never right after a CR:
// an editor holds a CR and the LF after it as one line break, and an edit
// between them would split it.
func Narrow(raw string, e ByteEdit) ByteEdit {
	old := raw[e.Start:e.End]
	ok := func(o, n int) bool {
		q := e.Start + o
		return (q == len(raw) || utf8.RuneStart(raw[q])) && (q == 0 || raw[q-1] != '\r') && (n == 0 || e.New[n-1] != '\r')
	}
	p := 0
	for p < len(old) && p < len(e.New) && old[p] == e.New[p] {
		p++
	}
	for p > 0 && !ok(p, p) {
		p--
	}
	s := 0
	for s < len(old)-p && s < len(e.New)-p && old[len(old)-1-s] == e.New[len(e.New)-1-s] {
		s++
	}
	for s > 0 && !ok(len(old)-s, len(e.New)-s) {
		s--
	}
	return ByteEdit{Start: e.Start + p, End: e.End - s, New: e.New[p : len(e.New)-s]}
}
