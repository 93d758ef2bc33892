package search

import (
	"bytes"
	"math"
	"regexp/syntax"
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
	misses, since    int // pivots found that were not the literal, since this position
}

func newCursor(l *literal) cursor {
	return cursor{at: stale, lower: stale, upper: stale, pivot: l.pivot}
}

// stale marks a position not looked for yet; -1 means none is left.
const stale = -2

// Retuning the pivot: after missLimit misses at more than one per
// missSpan bytes, over at least retuneSpan bytes, the pivot becomes the
// literal's byte that is rarest in the next sampleBytes of the text. The
// span keeps the sampling to a small part of the search where no byte of
// the literal is rare.
const (
	missLimit   = 16
	missSpan    = 256
	retuneSpan  = 64 << 10
	sampleBytes = 8 << 10
)

// next returns the first position at or after pos where l occurs in t,
// or -1. It looks for the pivot byte, in either case when folding, and
// compares the rest around it.
func (l *literal) next(t []byte, pos int, c *cursor) int {
	if c.at == -1 || c.at >= pos {
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
			c.pivot, c.misses, c.since = l.rarest(t[s:min(len(t), s+sampleBytes)]), 0, s
			c.lower, c.upper = stale, stale
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

// rarest returns the index of the byte of l that sample holds fewest of.
func (l *literal) rarest(sample []byte) int {
	best, fewest := l.pivot, -1
	for i, b := range l.s {
		n := bytes.Count(sample, []byte{b})
		if l.fold && 'a' <= b && b <= 'z' {
			n += bytes.Count(sample, []byte{b - 'a' + 'A'})
		}
		if fewest < 0 || n < fewest || n == fewest && commonness(b) < commonness(l.s[best]) {
			best, fewest = i, n
		}
	}
	return best
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
