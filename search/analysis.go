package search

// The literal analysis: which strings every match of an expression must
// contain, so a byte search can find the lines worth running it on.

import (
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
