// Package search finds the lines of a text that a regular expression
// matches, with the speed of a whole-buffer search and the meaning of a
// line-by-line one: a line matches when the expression, run on that line
// alone, matches it.
//
// Lines are hashline's (docs/contract.md §3.1): they end at LF, CRLF or a lone CR, the ending
// is not part of the line, and a leading UTF-8 BOM is not content; line N
// here is line N of hashline.Text. The expression never runs on the whole
// text, where a match could cross a line end or meet ^ and $ elsewhere: a
// literal that every match must contain (analysis.go) is looked for with a
// byte search (literal.go), and the expression then runs on each line
// holding one. An expression with no such literal runs on every line,
// which the standard package does faster than a search of the whole text,
// whose automaton steps every byte. Files are read in pieces (file.go).
package search

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"unsafe"
)

// Pattern is a compiled search. It is safe for concurrent use.
type Pattern struct {
	line *regexp.Regexp // the expression as given, run on one line

	// lits are literals at least one of which every match contains, or
	// nil, and then every line is tried. none says no line can match.
	lits []literal
	none bool
}

// Compile compiles expr, in RE2 syntax as package regexp reads it. Its
// errors are regexp.Compile's.
func Compile(expr string) (*Pattern, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	p := &Pattern{line: re}
	if set, ok := requiredLiterals(tree.Simplify()); ok {
		p.lits, p.none = set, len(set) == 0
	}
	return p, nil
}

var bom = []byte("\uFEFF")

// Lines returns the numbers (1-based) of the first limit lines of text that
// match; a negative limit means every one.
func (p *Pattern) Lines(text []byte, limit int) []int {
	s := p.newScanner(limit)
	s.feed(text, true)
	return s.lines
}

// LinesString is Lines for a string; it does not copy it.
func (p *Pattern) LinesString(text string, limit int) []int {
	return p.Lines(unsafe.Slice(unsafe.StringData(text), len(text)), limit)
}

// scanner finds the matching lines of one text, which it may be given a
// part at a time.
type scanner struct {
	p     *Pattern
	limit int
	lines []int // the matching lines found so far
	done  bool  // limit lines found, or none can match

	text    []byte // the text so far
	started bool   // a BOM, if any, has been passed: only a file has one
	cr      bool   // the text so far has a CR, so a line may end at one
	pos     int    // the start of the first line not yet searched
	line    int    // the number of the line starting at counted
	counted int
	cursors [maxLiterals]cursor
}

func (p *Pattern) newScanner(limit int) *scanner {
	s := &scanner{p: p, limit: limit, line: 1, done: p.none || limit == 0}
	for i := range p.lits {
		s.cursors[i] = newCursor(&p.lits[i])
	}
	return s
}

// feed searches the lines text adds to what came before: text holds all
// of it so far, and ends after a line ending, or at the end of the whole
// text when last is set.
func (s *scanner) feed(text []byte, last bool) {
	s.text = text
	if !s.started {
		// A text shorter than a BOM that ends in an LF holds none.
		s.started = true
		if bytes.HasPrefix(text, bom) {
			s.pos, s.counted = len(bom), len(bom)
		}
	}
	if s.done || s.pos >= len(text) {
		return
	}
	if !s.cr && bytes.IndexByte(text[s.pos:], '\r') >= 0 {
		s.cr = true
	}
	// What was not found before may be in the new part.
	for i := range s.cursors {
		c := &s.cursors[i]
		c.at, c.lower, c.upper = fresh(c.at), fresh(c.lower), fresh(c.upper)
	}
	s.search()
	if !last && !s.done {
		// Count while the part is still in the cache.
		s.line += s.breaks(s.counted, len(text))
		s.counted = len(text)
	}
}

// rebase takes the next text fed as the continuation of the last one,
// which the scanner has searched and counted to its end; only the next
// text's own bytes are given.
func (s *scanner) rebase() {
	s.pos, s.counted, s.started = 0, 0, true
	for i := range s.p.lits {
		c := &s.cursors[i]
		c.at, c.lower, c.upper, c.misses, c.since = stale, stale, stale, 0, 0
	}
}

func fresh(at int) int {
	if at == -1 {
		return stale
	}
	return at
}

func (s *scanner) search() {
	text := s.text
	for s.pos < len(text) {
		c := s.next(s.pos)
		if c < 0 {
			s.pos = len(text)
			return
		}
		ls, le, next := s.bounds(s.pos, c)
		s.line += s.breaks(s.counted, ls)
		s.counted = ls
		if s.p.line.Match(text[ls:le]) {
			s.lines = append(s.lines, s.line)
			if s.limit > 0 && len(s.lines) == s.limit {
				s.done = true
				return
			}
		}
		s.pos = next
	}
}

// next returns a position at or after pos in a line that may match, such
// that no line between pos and it matches; -1 when no further line can.
func (s *scanner) next(pos int) int {
	if s.p.lits == nil {
		return pos
	}
	best := -1
	for i := range s.p.lits {
		at := s.p.lits[i].next(s.text, pos, &s.cursors[i])
		if at >= 0 && (best < 0 || at < best) {
			best = at
		}
	}
	return best
}

// bounds returns the line holding position c, which is a line start or
// lies within a line's content, in the line starting at pos or a later
// one: where it starts and its content ends, and where the next starts.
func (s *scanner) bounds(pos, c int) (start, end, next int) {
	t := s.text
	start = pos
	if s.cr {
		if i := lastIndexEnding(t[pos:c]); i >= 0 {
			start = pos + i + 1
		}
	} else if i := bytes.LastIndexByte(t[pos:c], '\n'); i >= 0 {
		start = pos + i + 1
	}
	var i int
	if s.cr {
		i = bytes.IndexAny(t[c:], "\r\n")
	} else {
		i = bytes.IndexByte(t[c:], '\n')
	}
	if i < 0 {
		return start, len(t), len(t)
	}
	end, next = c+i, c+i+1
	if t[end] == '\r' && next < len(t) && t[next] == '\n' {
		next++
	}
	return start, end, next
}

// breaks counts the line endings in text[from:to], both line starts.
func (s *scanner) breaks(from, to int) int {
	seg := s.text[from:to]
	n := bytes.Count(seg, lf)
	if s.cr {
		n += bytes.Count(seg, cr) - bytes.Count(seg, crlf)
	}
	return n
}

var (
	lf   = []byte{'\n'}
	cr   = []byte{'\r'}
	crlf = []byte{'\r', '\n'}
)

func lastIndexEnding(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' || b[i] == '\r' {
			return i
		}
	}
	return -1
}
