package hashline

import (
	"sort"
	"strconv"
	"strings"
)

// LineSet is a set of 1-based line numbers stored as sorted, disjoint,
// non-adjacent closed intervals. Reads display windows, so a whole read of a
// 10,000-line file is one interval, not 10,000 entries.
//
// The zero value is the empty set. A nil *LineSet is a different thing:
// "no provenance recorded" (docs/contract.md §5.3), which callers must keep distinct.
type LineSet struct {
	spans []span
}

type span struct{ lo, hi int }

// AddRange adds lines lo..hi inclusive. An empty range (hi < lo) adds nothing.
func (s *LineSet) AddRange(lo, hi int) {
	if hi < lo {
		return
	}
	// First span that could touch [lo, hi]: its hi >= lo-1.
	i := sort.Search(len(s.spans), func(i int) bool { return s.spans[i].hi >= lo-1 })
	j := i
	for j < len(s.spans) && s.spans[j].lo <= hi+1 {
		lo = min(lo, s.spans[j].lo)
		hi = max(hi, s.spans[j].hi)
		j++
	}
	if i == j {
		s.spans = append(s.spans, span{})
		copy(s.spans[i+1:], s.spans[i:])
		s.spans[i] = span{lo, hi}
		return
	}
	s.spans[i] = span{lo, hi}
	s.spans = append(s.spans[:i+1], s.spans[j:]...)
}

// Add adds one line.
func (s *LineSet) Add(n int) { s.AddRange(n, n) }

// Union adds every line of o.
func (s *LineSet) Union(o *LineSet) {
	if o == nil {
		return
	}
	for _, sp := range o.spans {
		s.AddRange(sp.lo, sp.hi)
	}
}

// Has reports whether line n is in the set.
func (s *LineSet) Has(n int) bool {
	i := sort.Search(len(s.spans), func(i int) bool { return s.spans[i].hi >= n })
	return i < len(s.spans) && s.spans[i].lo <= n
}

// Len is the number of lines in the set.
func (s *LineSet) Len() int {
	n := 0
	for _, sp := range s.spans {
		n += sp.hi - sp.lo + 1
	}
	return n
}

// Clone returns an independent copy; Clone of nil is nil.
func (s *LineSet) Clone() *LineSet {
	if s == nil {
		return nil
	}
	if len(s.spans) <= 1 {
		c := newLineSet()
		c.spans = append(c.spans, s.spans...)
		return c
	}
	return &LineSet{spans: append([]span(nil), s.spans...)}
}

// oneSpan is a LineSet with room for one span beside it.
type oneSpan struct {
	set  LineSet
	room [1]span
}

// newLineSet returns an empty set that holds one span without growing: a
// window read is one span, so the set and its span take one allocation.
func newLineSet() *LineSet {
	o := &oneSpan{}
	o.set.spans = o.room[:0]
	return &o.set
}

// String renders the set as "1-3,7" ("" when empty).
func (s *LineSet) String() string {
	var b strings.Builder
	for i, sp := range s.spans {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(sp.lo))
		if sp.hi > sp.lo {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(sp.hi))
		}
	}
	return b.String()
}

// FullLineSet returns the set 1..n.
func FullLineSet(n int) *LineSet {
	s := newLineSet()
	s.AddRange(1, n)
	return s
}

// formatRanges renders sorted line numbers compactly, "3-5, 9".
func formatRanges(lines []int) string {
	var s LineSet
	for _, n := range lines {
		s.Add(n)
	}
	return strings.ReplaceAll(s.String(), ",", ", ")
}
