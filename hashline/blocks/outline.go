package blocks

import (
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// The outline of a file: its declarations, each with the lines the block
// resolver gives it. A symbol's range is never computed here on its own
// terms: it is the span ResolveBlock returns for the symbol's first line
// (the doc comment, decorators or attributes above the declaration when
// they resolve with it, else the declaration's own line), so the range an
// outline shows is the range PUT N*: on that line replaces.

// Symbol is one declaration of an outline. It names an unnamed struct, as
// Span does, so the core's Symbol is the same type.
type Symbol = struct {
	// Name is the declared name: read, Server, a heading's text, a key.
	Name string
	// Qualified is the name with the declarations that contain it, joined
	// with "." (Server.read, Foo.bar), or " > " between markdown headings
	// and HTML elements.
	Qualified string
	// Kind is what the declaration is: func, method, class, type, h2, key...
	Kind string
	// Start and End are the symbol's lines. With Block set, Start opens a
	// block that is exactly Start..End; without it the declaration is one
	// line, or a construct no block locator can name, and Start..End are
	// the lines it covers.
	Start, End int
	Block      bool
	// Line is the declaration's own first line: Start, or the line after
	// its doc comment, decorators or attributes.
	Line int
	// Depth is how many symbols contain this one.
	Depth int
	// Group marks a declaration that only gathers others (Go's const ( ... )):
	// it is listed, but it has no name of its own to look it up by.
	Group bool
	// Folded is left 0 here: it counts what an outline folded to a depth
	// leaves out of a symbol, which is the reader's business.
	Folded int
}

// maxOutlineDepth bounds how deeply containers are walked for members, so
// a file nested thousands of levels deep costs no more than a shallow one.
const maxOutlineDepth = 8

// Outline lists the declarations of text, a normalized text of the file at
// path, in document order, nested by containment. When keep is set, only
// the symbols it keeps are listed, and only their ranges are resolved; it
// is given each symbol with its Line but without its range. The error is
// a *Decline: the language has no grammar, the text does not parse
// cleanly, or it is over the parse limits of size or nesting.
func (r *Resolver) Outline(path, text string, keep func(Symbol) bool) ([]Symbol, error) {
	l := lookup(path)
	if l == nil {
		return nil, &Decline{Reason: fmt.Sprintf("there is no outline for %s files (no grammar for this file type)", fileKind(path)), noGrammar: true}
	}
	if len(text) > MaxParseBytes {
		_, err := decline("the file is %d bytes, over the %d MiB limit for parsing", len(text), MaxParseBytes>>20)
		return nil, err
	}
	if why := tooDeep(l, text); why != "" {
		return nil, &Decline{Reason: why}
	}
	p, perr := parse(l, text)
	if perr != nil {
		return nil, &Decline{Reason: perr.head()}
	}
	defer p.close()
	o := &outliner{p: p, rules: outlines[l.name], keep: keep}
	if l.sections {
		o.headings()
	} else {
		o.walk(p.top, 0, "", false)
	}
	return o.out, nil
}

// outliner gathers the symbols of one parse.
type outliner struct {
	p     *parsed
	rules *outlineRules
	keep  func(Symbol) bool
	out   []Symbol
}

// decl is a declaration a rule found in a node, before its lines are known.
type decl struct {
	name, kind string
	// scope is what the members' qualified names start with; "" means
	// the declaration's own qualified name. qualify replaces the parent's
	// scope for the declaration itself (a Go method's receiver type).
	scope, qualify string
	// members is the node whose children are walked for member
	// declarations, nil when it has none; class says the functions among
	// them are methods.
	members *sitter.Node
	class   bool
	group   bool
}

// outlineRules says, for one language, which nodes are declarations and
// which are walked through to find them.
type outlineRules struct {
	// decls maps a node type to the rule that reads its declarations. A
	// rule may find none (an expression statement that assigns nothing,
	// an HTML element without an id): the node is then walked through when
	// the through set lists it.
	decls map[string]rule
	// through lists the nodes walked into for declarations at the same
	// depth: export statements, preprocessor conditionals, bodies.
	through set
	// wraps lists the nodes that hold one declaration and lines of their
	// own above it (C++'s template <...>): the declaration takes the
	// wrapper's lines.
	wraps set
	// sep joins qualified names; "." when empty.
	sep string
}

// namedChildren lists n's named children.
func (p *parsed) namedChildren(n *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for _, c := range p.childrenOf(n).all(p) {
		if p.named(c) {
			out = append(out, c)
		}
	}
	return out
}

// walk lists the declarations among n's children, at depth, qualified
// with scope; class says n holds a class's members.
func (o *outliner) walk(n *sitter.Node, depth int, scope string, class bool) {
	if depth > maxOutlineDepth {
		return
	}
	for _, c := range o.p.namedChildren(n) {
		lines, t := c, o.p.typ(c)
		if o.rules.wraps[t] {
			if inner := o.wrapped(c); inner != nil {
				c, t = inner, o.p.typ(inner)
			}
		}
		if rule := o.rules.decls[t]; rule != nil {
			if ds := rule(o.p, c, depth == 0); len(ds) > 0 {
				for _, d := range ds {
					o.add(lines, c, d, depth, scope, class)
				}
				continue
			}
		}
		if o.rules.through[t] {
			o.walk(c, depth, scope, class)
		}
	}
}

// wrapped is the declaration a wrapper holds, nil when it holds none.
func (o *outliner) wrapped(w *sitter.Node) *sitter.Node {
	for _, c := range o.p.namedChildren(w) {
		if o.rules.decls[o.p.typ(c)] != nil {
			return c
		}
	}
	return nil
}

// functionKinds are the kinds a function is listed as, by language; in a
// class, impl or trait each is a method.
var functionKinds = setOf("func", "fn", "def", "function")

// add lists one declaration found in n, then its members. lines is the
// node whose lines it takes: n, or the wrapper around n.
func (o *outliner) add(lines, n *sitter.Node, d decl, depth int, scope string, class bool) {
	if d.name == "" {
		return
	}
	if class && functionKinds[d.kind] {
		d.kind = "method"
	}
	sep := o.rules.sep
	if sep == "" {
		sep = "."
	}
	qualified := d.name
	switch {
	case d.qualify != "":
		qualified = d.qualify + sep + d.name
	case scope != "":
		qualified = scope + sep + d.name
	}
	if d.group {
		qualified = ""
	}
	s := Symbol{Name: oneLine(d.name), Qualified: oneLine(qualified), Kind: d.kind, Depth: depth, Group: d.group}
	own := o.p.ownStart(n)
	top := own
	if lines != n {
		top = o.p.ownStart(lines)
	}
	if own >= 0 && top >= 0 {
		s.Line = o.p.lineOf(own)
		if o.keep == nil || o.keep(s) {
			s.Start, s.End, s.Block = o.p.symbolLines(lines, o.p.lineOf(top))
			o.out = append(o.out, s)
		}
	}
	if d.members == nil {
		return
	}
	inner := qualified
	switch {
	case d.scope != "":
		inner = d.scope
	case d.group:
		inner = scope
	}
	o.walk(d.members, depth+1, inner, d.class)
}

// oneLine keeps the first line of a name: a name is looked for in the
// lines of a file, one at a time.
func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// symbolLines finds the lines of declaration n, whose own first line is
// line: the first line that resolves to a block ending where n ends,
// trying the doc comment, decorator and attribute lines right above line
// before line itself.
//
// A span covers more than one line, and a doc comment documents only a
// declaration that is a block (or the attributes above one and it), so a
// declaration of one line with no decorator or attribute above it is no
// block, and its lines are not resolved at all: most of a file's
// declarations are such, and resolving costs more than the parse.
func (p *parsed) symbolLines(n *sitter.Node, line int) (start, end int, block bool) {
	if len(p.lang.attached) == 0 && p.lineOf(p.end(n)-1) <= line {
		// One line, and nothing above it is an attribute: no block.
		return line, line, false
	}
	end = max(p.lineOf(p.contentEnd(n)-1), line)
	if end == line && len(p.lang.attached) == 0 {
		return line, end, false
	}
	top, attached := line, false
	if p.lang.doc != nil || len(p.lang.attached) > 0 {
		for top > 1 {
			lead, att := p.leads(top - 1)
			if !lead {
				break
			}
			top, attached = top-1, attached || att
		}
	}
	if end == line && !attached {
		return line, end, false
	}
	for t := top; t < line || t == line && end > line; t++ {
		if sp, err := p.resolve(t); err == nil && sp.Start == t && sp.End == end {
			return t, end, true
		}
	}
	return line, end, false
}

// ownStart is the offset of n's first byte of code that is not in a
// decorator, attribute, annotation or comment it starts with; -1 when it
// holds none.
func (p *parsed) ownStart(n *sitter.Node) int {
	if len(p.lang.attached) == 0 {
		return p.codeStart(n)
	}
	for _, c := range p.childrenOf(n).all(p) {
		switch {
		case p.textStart(c) < 0, p.isAttachedOrComment(c), p.onlyAttached(c):
			continue
		case p.childCount(c) > 0 && p.isAttachedOrComment(p.child(c, 0)):
			// Java's modifiers open with a method's annotations.
			return p.ownStart(c)
		}
		return p.codeStart(c)
	}
	return p.codeStart(n)
}

// leads reports whether line k may begin what documents or decorates the
// declaration below it: a doc comment line, or a line that starts with a
// decorator, attribute or annotation (attached).
func (p *parsed) leads(k int) (lead, attached bool) {
	if len(p.lang.attached) == 0 {
		// Only a doc comment may lead, and classify finds one by itself.
		kind, _ := p.classify(k)
		return kind == docLine, false
	}
	b := firstNonSpace(p.src, p.starts[k-1], p.ends[k-1])
	if b < 0 {
		return false, false
	}
	for _, n := range p.descend(p.root, b)[1:] {
		if p.lang.isComment(p.typ(n)) {
			kind, _ := p.classify(k)
			return kind == docLine, false
		}
		if p.lang.attached[p.typ(n)] && p.textStart(n) == b {
			return true, true
		}
	}
	return false, false
}

// headings lists markdown's section headings, nested by level.
func (o *outliner) headings() {
	type open struct {
		level     int
		qualified string
	}
	var stack []open
	for _, h := range o.p.sectionHeadings() {
		for len(stack) > 0 && stack[len(stack)-1].level >= h.level {
			stack = stack[:len(stack)-1]
		}
		name := o.p.headingText(h.line)
		qualified := name
		if len(stack) > 0 {
			qualified = stack[len(stack)-1].qualified + " > " + name
		}
		stack = append(stack, open{h.level, qualified})
		s := Symbol{Name: name, Qualified: qualified, Kind: fmt.Sprintf("h%d", h.level), Depth: len(stack) - 1, Line: h.line}
		if o.keep != nil && !o.keep(s) {
			continue
		}
		s.Start, s.End = h.line, h.line
		if sp, err := o.p.section(&h, h.line); err == nil {
			s.End, s.Block = sp.End, true
		}
		o.out = append(o.out, s)
	}
}

// headingText is the text of the heading on line: an ATX heading without
// its markers, or a setext heading's text line.
func (p *parsed) headingText(line int) string {
	s := strings.TrimSpace(string(p.src[p.starts[line-1]:p.ends[line-1]]))
	if !strings.HasPrefix(s, "#") {
		return s
	}
	s = strings.TrimLeft(s, "#")
	s = strings.TrimSpace(s)
	// A closing sequence of #s after a space is no part of the text.
	if t := strings.TrimRight(s, "#"); t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t") {
		s = strings.TrimSpace(t)
	}
	return s
}
