package commands

import (
	"fmt"
	"strings"
	"sync"

	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// Reading less of a file: its outline (one row per declaration, with the
// declaration's own line, which counts as shown), and one declaration's
// lines under the whole file's tag, as a window of the file. The ranges
// are the block resolver's, so the range an outline shows is the range
// PUT N*: on its first line replaces. The last outlines made are kept, by
// file and text, for the symbol reads that follow.

// The views of hashline.read.
const (
	ViewLines   = "lines"
	ViewOutline = "outline"
)

// maxOutlineRows bounds one outline, as defaultLimit bounds a read.
const maxOutlineRows = defaultLimit

// OutlineSymbol is one declaration, as a result lists it.
type OutlineSymbol struct {
	Name      string `json:"name"`
	Qualified string `json:"qualified,omitempty"`
	Kind      string `json:"kind"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Line      int    `json:"line"`
	Depth     int    `json:"depth,omitempty"`
	// Block says PUT Start*: replaces exactly Start..End.
	Block bool `json:"block"`
	// Folded is how many declarations nested in this one the outline's
	// depth leaves out.
	Folded int `json:"folded,omitempty"`
}

func outlineSymbol(s hashline.Symbol) OutlineSymbol {
	return OutlineSymbol{Name: s.Name, Qualified: s.Qualified, Kind: s.Kind, Start: s.Start, End: s.End, Line: s.Line, Depth: s.Depth, Block: s.Block, Folded: s.Folded}
}

// readDeclarations answers a read with view outline or a symbol.
func (s *Server) readDeclarations(a ReadArgs, wp workspace.Path, t *hashline.Text) (Result, error) {
	field := "view"
	if a.Symbol != "" {
		field = "symbol"
		switch {
		case a.Offset != 0 || a.Limit != 0:
			return nil, invalid("symbol", "symbol reads exactly the lines of one declaration, so offset and limit do not apply: leave them out, or read a range with offset and limit and no symbol")
		case a.View == ViewOutline:
			return nil, invalid("symbol", `view "outline" lists every declaration and symbol reads one: send one of them`)
		}
	}
	o, ok := s.Blocks.(hashline.Outliner)
	if !ok {
		return nil, invalid(field, fmt.Sprintf("this server has no outlines: read %s by lines with offset and limit", wp.Rel))
	}
	if t.Size() > hashline.MaxBlockParse {
		e := invalid(field, fmt.Sprintf("%s is %d bytes, over the %d MiB limit for outlines and symbol reads: read it by lines with offset and limit, or find a declaration with hashline_grep", wp.Rel, t.Size(), hashline.MaxBlockParse>>20))
		e.Details.Limit = hashline.MaxBlockParse
		return nil, e
	}
	if a.Symbol != "" {
		return s.readSymbol(o, a, wp, t)
	}
	return s.readOutline(o, a, wp, t)
}

// maxCachedOutlines is how many outlines a server keeps: a model reads an
// outline, then the symbols it needs, of the same few files.
const maxCachedOutlines = 16

// outlineCache keeps the last outlines made, each of one text of one file,
// so the symbol reads that follow an outline parse nothing again.
type outlineCache struct {
	mu    sync.Mutex // guards m and order
	m     map[outlineKey][]hashline.Symbol
	order []outlineKey // oldest first
}

type outlineKey struct {
	abs    string
	digest hashline.Digest
}

// outline is the whole outline of t, the text of the file at abs: the
// cached one when this text was outlined before. The symbols must not be
// modified.
func (s *Server) outline(o hashline.Outliner, abs string, t *hashline.Text) ([]hashline.Symbol, error) {
	c := &s.outlines
	key := outlineKey{abs, t.Digest()}
	c.mu.Lock()
	syms, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return syms, nil
	}
	syms, err := o.Outline(abs, t.Normalized(), nil)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[outlineKey][]hashline.Symbol{}
	}
	if _, ok := c.m[key]; !ok {
		if len(c.order) == maxCachedOutlines {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
		c.m[key] = syms
		c.order = append(c.order, key)
	}
	return syms, nil
}

func invalid(field, msg string) *hashline.Error {
	return &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: field}, Message: msg}
}

// noOutline is the error of a file the outliner declines.
func noOutline(field, rel string, err error) *hashline.Error {
	return invalid(field, fmt.Sprintf("there is no outline of %s: %v: read it by lines with offset and limit instead", rel, err))
}

// readOutline lists the declarations whose own line is in the window of
// offset and limit (default: the whole file), at most maxOutlineRows, to
// the depth asked for (default: hashline.OutlineDepth), as
// docs/contract.md §5.6 says. A symbol read finds a declaration the depth
// leaves out as it finds any other.
func (s *Server) readOutline(o hashline.Outliner, a ReadArgs, wp workspace.Path, t *hashline.Text) (Result, error) {
	total := t.Len()
	first, last := max(a.Offset, 1), total
	if a.Limit > 0 {
		last = min(total, first+a.Limit-1)
	}
	if first > max(total, 1) {
		return nil, invalid("offset", fmt.Sprintf("offset %d is past the end of %s, which has %d lines: read the outline from offset 1", first, wp.Rel, total))
	}
	all, err := s.outline(o, wp.Abs, t)
	if err != nil {
		return nil, noOutline("view", wp.Rel, err)
	}
	depth := a.Depth
	if depth == 0 {
		depth = hashline.OutlineDepth(all)
	}
	var syms []hashline.Symbol
	next := 0
	for _, sym := range hashline.FoldOutline(all, depth) {
		if sym.Line < first || sym.Line > last {
			continue
		}
		if len(syms) == maxOutlineRows {
			next = sym.Line
			break
		}
		syms = append(syms, sym)
	}
	sess := s.Sessions.Get(a.sessionName())
	v := hashline.RenderOutline(anchorStyle(a.Anchors), wp.Rel, t, syms)
	sess.Record(wp.Abs, t, v.Seen)
	res := &ReadResult{
		OK: true, Content: v.Content, Tag: string(t.Tag()), Path: wp.Rel, Root: wp.Root,
		Offset: first, LineCount: len(syms), TotalLines: total, Truncated: next > 0, FileBytes: t.Size(),
		Symbols: make([]OutlineSymbol, len(syms)),
	}
	for i, sym := range syms {
		res.Symbols[i] = outlineSymbol(sym)
	}
	res.Notice = outlineNotice(syms, next, v.Clipped, depth)
	return res, nil
}

// outlineNotice tells the model how to go on from an outline, with an
// example from the file itself.
func outlineNotice(syms []hashline.Symbol, next int, clipped []int, depth int) string {
	var notes []string
	if len(syms) == 0 {
		notes = append(notes, "no declarations found: read the file by lines")
	} else {
		// The example is a block, and not one that holds all the others
		// (a document's title), which is the whole file over again.
		example := syms[0]
		for _, sym := range syms {
			whole := len(syms) > 1 && sym.Start <= syms[0].Start && sym.End >= syms[len(syms)-1].End
			if sym.Block && !sym.Group && !whole {
				example = sym
				break
			}
		}
		n := fmt.Sprintf("%d declarations, each Start-End kind name, then its own line N:text; read one with symbol, e.g. %q: its lines then count as shown", len(syms), hashline.SymbolLabel(example))
		if example.Block {
			n += fmt.Sprintf(", and PUT %d*: replaces lines %d-%d", example.Start, example.Start, example.End)
		}
		notes = append(notes, n)
	}
	folded := 0
	for _, sym := range syms {
		folded += sym.Folded
	}
	if folded > 0 {
		notes = append(notes, fmt.Sprintf("listed to depth %d: a row marked +N holds N more declarations, %d in all; read the outline with depth %d for the next level, or read one of them by symbol", depth, folded, depth+1))
	}
	if next > 0 {
		notes = append(notes, fmt.Sprintf("stopped at %d declarations: read the outline with offset %d for the rest", maxOutlineRows, next))
	}
	if len(clipped) > 0 {
		notes = append(notes, fmt.Sprintf("the line(s) %s were cut short and do not count as shown", joinInts(clipped)))
	}
	return strings.Join(notes, "; ")
}

// readSymbol reads one declaration's lines, as a window of the file.
func (s *Server) readSymbol(o hashline.Outliner, a ReadArgs, wp workspace.Path, t *hashline.Text) (Result, error) {
	q := hashline.NewSymbolQuery(a.Symbol, wp.Rel)
	all, err := s.outline(o, wp.Abs, t)
	if err != nil {
		return nil, noOutline("symbol", wp.Rel, err)
	}
	var cands []hashline.Symbol
	for _, sym := range all {
		if q.Keeps(sym) {
			cands = append(cands, sym)
		}
	}
	picked := q.Pick(cands)
	switch {
	case len(picked) == 0:
		return nil, symbolNotFound(a.Symbol, wp.Rel, q.Nearest(all, 5))
	case len(picked) > 1:
		return nil, symbolAmbiguous(a.Symbol, wp.Rel, picked)
	}
	sym := picked[0]
	sess := s.Sessions.Get(a.sessionName())
	v := sess.ReadAs(anchorStyle(a.Anchors), wp.Abs, wp.Rel, t, sym.Start, sym.End-sym.Start+1)
	found := outlineSymbol(sym)
	res := &ReadResult{
		OK: true, Content: v.Content, Tag: string(t.Tag()), Path: wp.Rel, Root: wp.Root,
		Offset: sym.Start, LineCount: max(v.Last-v.First+1, 0), TotalLines: t.Len(), Truncated: v.Last < t.Len(), FileBytes: t.Size(),
		Symbol: &found,
	}
	notes := []string{fmt.Sprintf("%s of %d lines; these lines count as shown", hashline.DescribeSymbol(sym), t.Len())}
	if sym.Block {
		notes[0] += fmt.Sprintf(", and PUT %d*: replaces exactly them", sym.Start)
	} else {
		notes[0] += fmt.Sprintf(": no block opens here, so name the lines with PUT %d.=%d:", sym.Start, sym.End)
	}
	if len(v.Clipped) > 0 {
		notes = append(notes, fmt.Sprintf("line(s) %s could not be shown in full and cannot be edited by line; replace them with hashline_write if needed", joinInts(v.Clipped)))
	}
	res.Notice = strings.Join(notes, "; ")
	return res, nil
}

func symbolNotFound(q, rel string, near []hashline.Symbol) *hashline.Error {
	msg := fmt.Sprintf("%s declares nothing named %q", rel, q)
	if len(near) == 0 {
		return invalid("symbol", msg+`: read the outline ("view": "outline") for every name`)
	}
	names := make([]string, len(near))
	for i, s := range near {
		names[i] = fmt.Sprintf("%s (%s, line %d)", hashline.SymbolLabel(s), s.Kind, s.Line)
	}
	return invalid("symbol", msg+"; the closest names: "+strings.Join(names, ", ")+`: name one of them, or read the outline ("view": "outline") for every name`)
}

func symbolAmbiguous(q, rel string, picked []hashline.Symbol) *hashline.Error {
	names := make([]string, 0, len(picked))
	for _, s := range picked {
		names = append(names, hashline.DescribeSymbol(s))
	}
	first := picked[0]
	return invalid("symbol", fmt.Sprintf("%q names %d declarations in %s: %s; read one by its lines instead, e.g. offset %d and limit %d for the first, or name it by a longer qualified name",
		q, len(picked), rel, strings.Join(names, ", "), first.Start, first.End-first.Start+1))
}
