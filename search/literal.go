package search

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"math/bits"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of the literal analysis: more alternatives than maxLiterals cost
// more passes over the text than the expression itself would.
const (
	maxLiterals = 8
	maxExact    = 16
)

// lit is a string a sub-expression matches, or must contain; fold says it
// matches in any case.
type lit struct {
	s    string
	fold bool
}

// facts is what the analysis knows of a sub-expression: exact lists every
// string it can match (nil when unknown or too many); required holds
// strings at least one of which every match contains (nil when none).
type facts struct {
	exact, required []lit
}

// requiredLiterals returns literals at least one of which every match of
// tree contains, ready to look for. ok is false when there are none worth
// a search; an empty list means no line can match.
func requiredLiterals(tree *syntax.Regexp) (set []literal, ok bool) {
	best := analyze(tree).best()
	if score(best) == 0 {
		return nil, false
	}
	seen := map[lit]bool{}
	set = []literal{}
	for _, l := range best {
		// A line holds no line ending, so a match that must contain one
		// is in no line.
		if strings.ContainsAny(l.s, "\r\n") {
			continue
		}
		sl := newLiteral(l)
		if key := (lit{string(sl.s), sl.fold}); !seen[key] {
			seen[key] = true
			set = append(set, sl)
		}
	}
	return set, true
}

func analyze(re *syntax.Regexp) facts {
	switch re.Op {
	case syntax.OpLiteral:
		return facts{exact: []lit{{string(re.Rune), re.Flags&syntax.FoldCase != 0}}}
	case syntax.OpCharClass:
		var exact []lit
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if len(exact)+int(re.Rune[i+1]-re.Rune[i])+1 > 4 {
				return facts{}
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				exact = append(exact, lit{s: string(r)})
			}
		}
		return facts{exact: exact}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return facts{exact: []lit{{}}}
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpConcat:
		return concat(re.Sub)
	case syntax.OpAlternate:
		return alternate(re.Sub)
	case syntax.OpPlus:
		// Simplify leaves no counted repetition: x{2,} is xx+.
		return facts{required: analyze(re.Sub[0]).best()}
	}
	return facts{}
}

// concat joins runs of exactly known parts into longer strings (use, then
// State or Effect, gives useState and useEffect) and keeps the best of the
// runs and of the other parts' required strings.
func concat(subs []*syntax.Regexp) facts {
	run := []lit{{}}
	allExact := true
	var found [][]lit
	for _, sub := range subs {
		f := analyze(sub)
		if f.exact != nil {
			if joined, ok := cross(run, f.exact); ok {
				run = joined
				continue
			}
			found = append(found, run)
			run, allExact = f.exact, false
			continue
		}
		found = append(found, run, f.required)
		run, allExact = []lit{{}}, false
	}
	found = append(found, run)
	out := facts{required: choose(found...)}
	if allExact {
		out.exact = run
	}
	return out
}

func alternate(subs []*syntax.Regexp) facts {
	var exact, required []lit
	exactOK, requiredOK := true, true
	for _, sub := range subs {
		f := analyze(sub)
		if exactOK = exactOK && f.exact != nil && len(exact)+len(f.exact) <= maxExact; exactOK {
			exact = append(exact, f.exact...)
		}
		best := f.best()
		if requiredOK = requiredOK && best != nil && len(required)+len(best) <= maxLiterals; requiredOK {
			required = append(required, best...)
		}
	}
	var out facts
	if exactOK {
		out.exact = exact
	}
	if requiredOK {
		out.required = required
	}
	return out
}

// best is the better of the exact and required strings for a search.
func (f facts) best() []lit { return choose(f.exact, f.required) }

// cross is every string of a followed by one of b, when there are few.
func cross(a, b []lit) ([]lit, bool) {
	if len(a)*len(b) > maxExact {
		return nil, false
	}
	out := make([]lit, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, lit{x.s + y.s, x.fold || y.fold})
		}
	}
	return out, true
}

// choose returns the set that narrows a search most, nil when none does.
func choose(sets ...[]lit) []lit {
	var best []lit
	bestScore := 0
	for _, s := range sets {
		if sc := score(s); sc > bestScore || sc == bestScore && sc > 0 && len(s) < len(best) {
			best, bestScore = s, sc
		}
	}
	return best
}

// score is the length of the shortest string of set a search can look
// for; longer strings occur less often. A set no line can contain scores
// highest.
func score(set []lit) int {
	if len(set) == 0 || len(set) > maxLiterals {
		return 0
	}
	shortest := math.MaxInt
	for _, l := range set {
		if strings.ContainsAny(l.s, "\r\n") {
			continue
		}
		shortest = min(shortest, len(searchable(l)))
	}
	return shortest
}

// searchable is the part of l a byte search can find: all of it, or for
// a string in any case its longest run of characters whose other cases
// are ASCII too, such as h and H but not k, whose other cases include the
// Kelvin sign, three bytes long.
func searchable(l lit) string {
	if !l.fold {
		return l.s
	}
	best, start := "", -1
	for i, r := range l.s + "\x00" {
		if i < len(l.s) && foldsInASCII(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start > len(best) {
			best = l.s[start:i]
		}
		start = -1
	}
	return strings.ToLower(best)
}

// foldsInASCII reports whether every case of r is one byte, or r has no
// other case at all.
func foldsInASCII(r rune) bool {
	if r == utf8.RuneError {
		return false
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf || r >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

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
