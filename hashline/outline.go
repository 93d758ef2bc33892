package hashline

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Symbol is one declaration of a file's outline: its names, its kind and
// its lines. It names an unnamed struct, as Span does, so package blocks,
// which does not import the core, returns this type.
type Symbol = struct {
	// Name is the declared name; Qualified adds the declarations around
	// it (Server.read), and is empty for a Group.
	Name, Qualified, Kind string
	// Start..End are the symbol's lines: with Block set, the block that
	// PUT Start*: replaces, doc comments, decorators and attributes
	// included; else the one line, or lines, the declaration covers.
	Start, End int
	Block      bool
	// Line is the declaration's own first line, which an outline shows.
	Line int
	// Depth is how many symbols contain this one.
	Depth int
	// Group gathers other symbols (Go's const ( ... )) and has no name of
	// its own to read it by.
	Group bool
	// Folded is how many symbols nested in this one an outline folded to
	// a depth leaves out (FoldOutline); an outliner leaves it 0.
	Folded int
}

// Outliner lists the declarations of a normalized text of the file at
// path, in document order. keep, when set, is asked of each symbol with
// its Line known but not its range, and only what it keeps is listed and
// resolved. A BlockResolver may implement it. The error says why the file
// has no outline, in words that fit after "there is no outline: ".
type Outliner interface {
	Outline(path, text string, keep func(Symbol) bool) ([]Symbol, error)
}

// DeclarationScreen is what an Outliner may also tell before it parses:
// whether a normalized text of the file at path may hold a symbol, a
// Group aside, whose Name accept accepts. It answers false only when it is
// certain that none does.
type DeclarationScreen interface {
	MayDeclare(path, text string, accept func(name string) bool) bool
}

// MaxOutlineLineChars bounds the declaration line an outline row shows. A
// row cut short does not count as shown, as a clipped read row does not.
const MaxOutlineLineChars = 200

// RenderOutline renders syms, symbols of t, under t's header: one row per
// symbol, indented two spaces a level, "Start-End kind name" and then the
// declaration's own line as N:text, which counts as shown. A row at the
// top level names its symbol in full (Server.read), a nested one by its
// name within the symbol above it; the name is left out where the line
// shows it as a word (func NewStore, ## Usage), and a symbol of one line
// has the one number N. A row that folds symbols adds +Folded after the
// name: 12-40 h2 +3.
func RenderOutline(anchors Anchors, display string, t *Text, syms []Symbol) View {
	v := View{Seen: &LineSet{}}
	if len(syms) > 0 {
		v.First, v.Last = syms[0].Line, syms[len(syms)-1].Line
	}
	b := appendHeader(nil, display, t.Tag())
	for _, s := range syms {
		for range s.Depth {
			b = append(b, "  "...)
		}
		b = strconv.AppendInt(b, int64(s.Start), 10)
		if s.End != s.Start {
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(s.End), 10)
		}
		b = append(b, ' ')
		b = append(b, s.Kind...)
		label := SymbolLabel(s)
		if s.Depth > 0 {
			label = s.Name
		}
		line := t.Line(s.Line)
		if !isHeading(s.Kind) && !hasWord(line[:min(len(line), MaxOutlineLineChars)], label) {
			b = append(b, ' ')
			b = append(b, label...)
		}
		if s.Folded > 0 {
			b = append(b, " +"...)
			b = strconv.AppendInt(b, int64(s.Folded), 10)
		}
		b = append(b, "  "...)
		b = strconv.AppendInt(b, int64(s.Line), 10)
		var clipped bool
		if b, clipped = appendRow(b, s.Line, line, MaxOutlineLineChars, false, anchors); clipped {
			v.Clipped = append(v.Clipped, s.Line)
		} else {
			v.Seen.Add(s.Line)
		}
	}
	v.Content = stringOf(b)
	return v
}

// DocumentDepth is the depth an outline of headings is folded to when the
// read asks for none: a document's top two levels, its table of contents.
// A changelog or a manual has hundreds of headings, and an outline of all
// of them is a fair part of the document itself; a program's outline is
// listed in full, one row per declaration, as the reader looks for one.
const DocumentDepth = 2

// OutlineDepth is the depth an outline of syms is folded to by default:
// DocumentDepth for a document's headings, 0 (every level) for the rest.
func OutlineDepth(syms []Symbol) int {
	if len(syms) > 0 && isHeading(syms[0].Kind) {
		return DocumentDepth
	}
	return 0
}

// FoldOutline keeps the symbols of syms, a whole outline in document
// order, that are fewer than depth levels deep, each with Folded set to
// how many symbols nested in it are left out; depth 0 keeps every one.
// A symbol's parent is one level above it and comes before it, with
// nothing of its level or above in between, so the last row kept before a
// symbol left out is the one that folds it.
func FoldOutline(syms []Symbol, depth int) []Symbol {
	if depth <= 0 {
		return syms
	}
	var out []Symbol
	for _, s := range syms {
		switch {
		case s.Depth < depth:
			s.Folded = 0
			out = append(out, s)
		case len(out) > 0:
			out[len(out)-1].Folded++
		}
	}
	return out
}

// hasWord reports whether s holds w with no letter, digit or underscore
// right before or after it.
func hasWord(s, w string) bool {
	if w == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isWordChar(s[start-1])) && (end == len(s) || !isWordChar(s[end])) {
			return true
		}
		i = start + 1
	}
}

func isWordChar(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// isHeading reports whether kind is a markdown heading's (h1 to h6).
func isHeading(kind string) bool {
	return len(kind) == 2 && kind[0] == 'h' && kind[1] >= '1' && kind[1] <= '6'
}

// SymbolLabel is how an outline names a symbol: its qualified name, or a
// group's own label.
func SymbolLabel(s Symbol) string {
	if s.Qualified == "" {
		return s.Name
	}
	return s.Qualified
}

// SymbolQuery is the name a read asks for: a qualified name (Server.read,
// Class.method, a heading's path), a bare name, or the tail of a qualified
// name. A module's name before it (the file's own name, pkg.Func) is
// accepted too.
type SymbolQuery struct {
	q, module string
}

// NewSymbolQuery reads a symbol argument for the file at file.
func NewSymbolQuery(q, file string) SymbolQuery {
	base := path.Base(filepath.ToSlash(file))
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return SymbolQuery{q: normName(strings.TrimSpace(q)), module: base}
}

// normName spells scope separators one way: A::B and M:f are A.B and M.f.
func normName(s string) string {
	if !strings.Contains(s, ":") {
		return s
	}
	return scopes.Replace(s)
}

var scopes = strings.NewReplacer("::", ".", ":", ".")

// Keeps reports whether s may be what the query names, by any of its rules.
func (sq SymbolQuery) Keeps(s Symbol) bool {
	return !s.Group && sq.rank(s) > 0
}

// rank is how well s matches: 4 its qualified name, 3 its name, 2 the
// tail of its qualified name, 1 one of those once the module's name is
// taken off the query; 0 not at all.
func (sq SymbolQuery) rank(s Symbol) int {
	if r := matchRank(sq.q, s); r > 0 {
		return r
	}
	if rest, ok := strings.CutPrefix(sq.q, sq.module+"."); ok && matchRank(rest, s) > 0 {
		return 1
	}
	return 0
}

func matchRank(q string, s Symbol) int {
	qual := normName(s.Qualified)
	switch {
	case q == "":
		return 0
	case qual == q:
		return 4
	case normName(s.Name) == q:
		return 3
	case strings.HasSuffix(qual, "."+q), strings.HasSuffix(s.Qualified, " > "+q):
		return 2
	}
	return 0
}

// Pick chooses among the symbols Keeps kept: those of the best rank.
// One is the symbol read; several are ambiguous.
func (sq SymbolQuery) Pick(cands []Symbol) []Symbol {
	best := 0
	for _, s := range cands {
		best = max(best, sq.rank(s))
	}
	var out []Symbol
	for _, s := range cands {
		if best > 0 && sq.rank(s) == best {
			out = append(out, s)
		}
	}
	return out
}

// Nearest lists at most n symbols of all whose names are closest to the
// query: by edit distance, ignoring case, or holding the query.
func (sq SymbolQuery) Nearest(all []Symbol, n int) []Symbol {
	type scored struct {
		s Symbol
		d int
	}
	q := strings.ToLower(sq.q)
	var out []scored
	for _, s := range all {
		if s.Group {
			continue
		}
		d := min(distance(q, strings.ToLower(normName(s.Qualified))), distance(q, strings.ToLower(normName(s.Name))))
		if len(q) >= 3 && strings.Contains(strings.ToLower(normName(s.Qualified)), q) {
			d = min(d, 1)
		}
		if d <= max(2, utf8.RuneCountInString(q)/3) {
			out = append(out, scored{s, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].d < out[j].d })
	var res []Symbol
	for i := 0; i < len(out) && i < n; i++ {
		res = append(res, out[i].s)
	}
	return res
}

// distance is the Levenshtein distance between a and b, in runes, bounded
// for long names: past 64 runes a name is no near miss of a short query.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 64 || len(rb) > 64 {
		return len(ra) + len(rb)
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// DescribeSymbol is a symbol as a message names it: "method Server.read
// (lines 40-117)".
func DescribeSymbol(s Symbol) string {
	if s.Start == s.End {
		return fmt.Sprintf("%s %s (line %d)", s.Kind, SymbolLabel(s), s.Start)
	}
	return fmt.Sprintf("%s %s (lines %d-%d)", s.Kind, SymbolLabel(s), s.Start, s.End)
}
