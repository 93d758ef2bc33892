package commands

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"hashline-ls/hashline"
	"hashline-ls/search"
)

// grep's symbols mode: where declarations whose name matches the pattern
// are. It walks, ignores, globs, reads open buffers and bounds its results
// as every grep does; the line search runs first, with the pattern loosened
// so that any line holding a matching name matches it, and only a file
// with such a line, and that the outliner cannot tell from its bytes holds
// no matching declaration, is parsed for its outline.

// GrepSymbol is one declaration symbols mode found.
type GrepSymbol struct {
	Path      string `json:"path"`
	Name      string `json:"name"`
	Qualified string `json:"qualified"`
	Kind      string `json:"kind"`
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Line      int    `json:"line"`
}

// symbolSearch is what symbols mode adds to a grepper. Set before the
// search starts, then only read, but for unread, which the result's
// goroutine alone writes.
type symbolSearch struct {
	outliner hashline.Outliner
	names    *regexp.Regexp // the pattern, matched against a declared name
	// unread lists the files that held a matching line but could not be
	// outlined, and why.
	unread []string
}

// newSymbolSearch sets g up for symbols mode: the line search looks for
// lines that may hold a matching name.
func (g *grepper) newSymbolSearch(expr string) error {
	o, ok := g.s.Blocks.(hashline.Outliner)
	if !ok {
		return invalid("mode", "this server has no outlines, so symbols mode cannot run: grep in content mode for the declaration instead")
	}
	names, err := regexp.Compile(expr)
	if err != nil {
		return err // Compile accepted it already
	}
	loose, err := loosen(expr)
	if err != nil {
		return err
	}
	pat, err := search.Compile(loose)
	if err != nil {
		return err
	}
	g.pat, g.sym = pat, &symbolSearch{outliner: o, names: names}
	return nil
}

// loosen drops the zero-width assertions of expr (^, $, \b, \B): a name
// matches expr only where the line holding it then matches the result,
// whatever stands around the name in the line.
func loosen(expr string) (string, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", err
	}
	var walk func(r *syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			r.Op = syntax.OpEmptyMatch
		}
		for _, s := range r.Sub {
			walk(s)
		}
	}
	walk(re)
	return re.String(), nil
}

// outline finds, in a file whose lines may hold a matching name, the
// declarations whose names match. It runs on the search's workers.
func (ss *symbolSearch) outline(fd *found, abs, rel string) {
	text := fd.text.Normalized()
	// Most files that name a symbol only use it, and a parse costs far
	// more than reading the bytes again.
	if sc, ok := ss.outliner.(hashline.DeclarationScreen); ok && !sc.MayDeclare(abs, text, ss.names.MatchString) {
		return
	}
	syms, err := ss.outliner.Outline(abs, text, func(s hashline.Symbol) bool {
		return !s.Group && ss.names.MatchString(s.Name)
	})
	if err != nil {
		if ng, ok := err.(interface{ NoGrammar() bool }); !ok || !ng.NoGrammar() {
			fd.unread = rel + " (" + err.Error() + ")"
		}
		return
	}
	fd.symbols = syms
}

// acceptSymbols lists a file's matching declarations, as many as
// maxResults leaves room for.
func (g *grepper) acceptSymbols(abs, display string, fd found) error {
	if fd.unread != "" {
		g.sym.unread = append(g.sym.unread, fd.unread)
	}
	syms := fd.symbols
	if len(syms) == 0 {
		return nil
	}
	room, full := g.room(len(syms))
	syms = syms[:room]
	if len(syms) > 0 {
		t := fd.text
		g.sess.Record(abs, t, &hashline.LineSet{})
		g.res.Tags[display] = string(t.Tag())
		if g.content.Len() > 0 {
			g.content.WriteByte('\n')
		}
		g.content.WriteString(hashline.Header(display, t.Tag()) + "\n")
		for _, s := range syms {
			fmt.Fprintf(&g.content, "%s:%d-%d %s %s\n", display, s.Start, s.End, s.Kind, hashline.SymbolLabel(s))
			g.res.Symbols = append(g.res.Symbols, GrepSymbol{Path: display, Name: s.Name, Qualified: s.Qualified, Kind: s.Kind, Start: s.Start, End: s.End, Line: s.Line})
		}
		g.counted += len(syms)
	}
	if full {
		return errResultsFull
	}
	return nil
}

// notes says which files could not be outlined.
func (ss *symbolSearch) notes() []string {
	if ss == nil || len(ss.unread) == 0 {
		return nil
	}
	shown := ss.unread
	if len(shown) > 5 {
		shown = append(shown[:5:5], fmt.Sprintf("and %d more", len(ss.unread)-5))
	}
	return []string{fmt.Sprintf("%d file(s) hold a line that may name a match but could not be outlined, so their declarations are not listed: %s; grep them in content mode",
		len(ss.unread), strings.Join(shown, "; "))}
}
