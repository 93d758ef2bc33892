package search

// The literal search: finding, in a text, where a literal the analysis
// chose occurs, by its rarest byte or, where none of its bytes is rare, by
// two at once.

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// literal is a string to look for.
type literal struct {
	s     []byte // lower case when fold
	fold  bool   // ASCII letters match in either case
	pivot int    // the index of the byte looked for first: the rarest
}

func newLiteral(l lit) literal {
	s := searchable(l)
	out := literal{s: []byte(s), fold: l.fold}
	for i := range out.s {
		if commonness(out.s[i]) < commonness(out.s[out.pivot]) {
			out.pivot = i
		}
	}
	return out
}

// commonness ranks how often a byte occurs in source text, so the search
// for a literal starts from its rarest byte, as ripgrep's does.
func commonness(c byte) int {
	const letters = "zqjxkvbpgywfmculdrhsnioate" // rarest first
	switch {
	case c >= utf8.RuneSelf:
		return 0
	case 'A' <= c && c <= 'Z':
		return 10 + strings.IndexByte(letters, c-'A'+'a')
	case 'a' <= c && c <= 'z':
		return 40 + strings.IndexByte(letters, c)
	case c == ' ' || c == '\t':
		return 100
	case '0' <= c && c <= '9':
		return 30
	case strings.IndexByte("().,;:_=", c) >= 0:
		return 50
	}
	return 20
}

// cursor is where a literal was last found in one text, so it is looked
// for again only once the scan has passed it, and which of its bytes this
// text has fewest of.
type cursor struct {
	at, lower, upper int // the literal, and its pivot byte in each case
	pivot            int // the pivot for this text
	pair             int // a second pivot, looked for with the first, or -1
	misses, since    int // pivots found that were not the literal, since this position
}

func newCursor(l *literal) cursor {
	return cursor{at: stale, lower: stale, upper: stale, pivot: l.pivot, pair: -1}
}

// stale marks a position not looked for yet; -1 means none is left.
const stale = -2

// Retuning the pivot: after missLimit misses at more than one per
// missSpan bytes, over at least retuneSpan bytes, the pivot becomes the
// literal's byte that is rarest in the next sampleBytes of the text. The
// span keeps the sampling to a small part of the search where no byte of
// the literal is rare. Where even the rarest is in more than one of
// pairSpan bytes, two bytes are looked for at once.
const (
	missLimit   = 16
	missSpan    = 256
	retuneSpan  = 64 << 10
	sampleBytes = 8 << 10
	pairSpan    = 64
)

// next returns the first position at or after pos where l occurs in t,
// or -1. It looks for the pivot byte, in either case when folding, and
// compares the rest around it.
func (l *literal) next(t []byte, pos int, c *cursor) int {
	if c.at == -1 || c.at >= pos {
		return c.at
	}
	if c.pair >= 0 {
		c.at = l.pairScan(t, pos, c.pivot, c.pair)
		return c.at
	}
	for from := pos + c.pivot; ; {
		q := l.nextPivot(t, from, c)
		if q < 0 {
			c.at = -1
			return -1
		}
		if s := q - c.pivot; s+len(l.s) <= len(t) && l.equal(t[s:s+len(l.s)]) {
			c.at = s
			return s
		}
		from = q + 1
		if c.misses++; c.misses > missLimit && q-c.since >= retuneSpan && q-c.since < c.misses*missSpan {
			// The pivot is common in this text: start again from this
			// position with a rarer one.
			s := q - c.pivot + 1
			c.pivot, c.pair = l.pivots(t[s:min(len(t), s+sampleBytes)])
			c.misses, c.since, c.lower, c.upper = 0, s, stale, stale
			if c.pair >= 0 {
				c.at = l.pairScan(t, s, c.pivot, c.pair)
				return c.at
			}
			from = s + c.pivot
		}
	}
}

// nextPivot returns the first position at or after from holding the
// pivot byte, in either case when folding.
func (l *literal) nextPivot(t []byte, from int, c *cursor) int {
	lo := l.s[c.pivot]
	q := nearest(t, from, lo, &c.lower)
	if l.fold && 'a' <= lo && lo <= 'z' {
		if u := nearest(t, from, lo-'a'+'A', &c.upper); u >= 0 && (q < 0 || u < q) {
			q = u
		}
	}
	return q
}

// pivots returns the index of the byte of l that sample holds fewest of,
// and when that is still common, another such that the two are seldom in
// place together, else -1.
func (l *literal) pivots(sample []byte) (int, int) {
	counts := make([]int, len(l.s))
	order := make([]int, len(l.s))
	for i, b := range l.s {
		order[i] = i
		counts[i] = bytes.Count(sample, []byte{b})
		if l.fold && 'a' <= b && b <= 'z' {
			counts[i] += bytes.Count(sample, []byte{b - 'a' + 'A'})
		}
	}
	slices.SortStableFunc(order, func(i, j int) int {
		if c := cmp.Compare(counts[i], counts[j]); c != 0 {
			return c
		}
		return cmp.Compare(commonness(l.s[i]), commonness(l.s[j]))
	})
	if counts[order[0]]*pairSpan <= len(sample) || len(order) < 2 {
		return order[0], -1
	}
	// Bytes that always come together, as the letters of one word do,
	// make a poor pair: count the places each pair of the rarest few is
	// in, together.
	best, fewest := [2]int{order[0], order[1]}, -1
	top := order[:min(len(order), pairCandidates)]
	for a, i := range top {
		for _, j := range top[a+1:] {
			if n := l.pairCount(sample, i, j); fewest < 0 || n < fewest {
				best, fewest = [2]int{i, j}, n
			}
		}
	}
	return best[0], best[1]
}

// pairCandidates is how many of a literal's rarest bytes are tried in
// pairs.
const pairCandidates = 5

// pairCount counts the positions of sample where the bytes at indexes i
// and j of l are both in place, as pairScan would flag them.
func (l *literal) pairCount(sample []byte, i, j int) int {
	n := 0
	l.pairs(sample, 0, i, j, func(int) bool { n++; return false })
	return n
}

// pairScan returns the first position at or after pos where l occurs in
// t, or -1, looking for the bytes at indexes i and j of l both in place: a
// search no byte of the literal makes fast on its own.
func (l *literal) pairScan(t []byte, pos, i, j int) int {
	found := -1
	l.pairs(t, pos, i, j, func(k int) bool {
		if k+len(l.s) <= len(t) && l.equal(t[k:k+len(l.s)]) {
			found = k
		}
		return found >= 0
	})
	if found >= 0 {
		return found
	}
	return -1
}

// pairs calls at, in order, with the positions at or after pos where the
// bytes at indexes i and j of l may both be in place, until it returns
// true. It looks at eight positions at once; the places it flags include
// every such place, and a few more.
func (l *literal) pairs(t []byte, pos, i, j int, at func(k int) bool) {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var fold uint64
	bi, bj := l.s[i], l.s[j]
	if l.fold {
		// Setting bit 5 makes a letter lower case; other bytes may meet
		// by it too, and the caller's comparison rules them out.
		fold, bi, bj = 0x2020202020202020, bi|0x20, bj|0x20
	}
	ri, rj := uint64(bi)*ones, uint64(bj)*ones
	s := pos
	if n := len(t) - max(i, j); n > 0 {
		ti, tj := t[i:i+n], t[j:j+n]
		for ; s+8 <= n; s += 8 {
			x := (binary.LittleEndian.Uint64(ti[s:s+8]) | fold) ^ ri
			y := (binary.LittleEndian.Uint64(tj[s:s+8]) | fold) ^ rj
			// Where a byte of both is zero, both bytes are in place.
			for m := (x - ones) &^ x & (y - ones) &^ y & highs; m != 0; m &= m - 1 {
				if at(s + bits.TrailingZeros64(m)/8) {
					return
				}
			}
		}
	}
	for ; s+max(i, j) < len(t); s++ {
		if (t[s+i]|byte(fold)) == bi && (t[s+j]|byte(fold)) == bj && at(s) {
			return
		}
	}
}

func (l *literal) equal(b []byte) bool {
	if l.fold {
		return equalFoldASCII(b, l.s)
	}
	return bytes.Equal(b, l.s)
}

// nearest returns the first position at or after from holding b, keeping
// it in at.
func nearest(t []byte, from int, b byte, at *int) int {
	if *at == -1 || *at >= from {
		return *at
	}
	*at = -1
	if from < len(t) {
		if i := bytes.IndexByte(t[from:], b); i >= 0 {
			*at = from + i
		}
	}
	return *at
}

// equalFoldASCII reports whether a equals lower, the letters of a in
// either case.
func equalFoldASCII(a, lower []byte) bool {
	for i, c := range a {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
