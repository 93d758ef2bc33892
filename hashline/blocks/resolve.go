package blocks

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Span is the inclusive range of 1-based lines a block covers. It names an
// unnamed struct, as hashline.Span does, so the two are one type: the
// Resolver implements hashline.BlockResolver without this package importing
// the core.
type Span = struct{ Start, End int }

// Decline is why a line opens no block, in words the model can act on.
// Every error ResolveBlock returns is a *Decline.
type Decline struct {
	Reason string
	// noGrammar: the file's type has no grammar, rather than a text that
	// cannot be resolved.
	noGrammar bool
}

func (d *Decline) Error() string { return d.Reason }

// NoGrammar reports whether the decline is for a file type with no
// grammar: a search that meets one declines nothing it could have read.
func (d *Decline) NoGrammar() bool { return d.noGrammar }

func decline(format string, args ...any) (Span, error) {
	return Span{}, &Decline{Reason: fmt.Sprintf(format, args...)}
}

// Resolver resolves N* locators (docs/contract.md §10.4) for the languages in its table. It
// keeps no parser between calls: each call makes its own C parser and tree
// and frees them before it returns, so one Resolver is safe for concurrent
// use.
type Resolver struct{}

// New returns a Resolver.
func New() *Resolver { return &Resolver{} }

// ResolveBlock finds the block that opens at line (1-based) of text, a
// normalized text (LF endings, no BOM) of the file at path. It returns the
// block's span, or a *Decline. It implements hashline.BlockResolver.
func (r *Resolver) ResolveBlock(path, text string, line int) (Span, error) {
	l := lookup(path)
	if l == nil {
		return Span{}, &Decline{Reason: unsupported(path), noGrammar: true}
	}
	if len(text) > MaxParseBytes {
		return decline("the file is %d bytes, over the %d MiB limit for block parsing", len(text), MaxParseBytes>>20)
	}
	if why := tooDeep(l, text); why != "" {
		return decline("%s; plain line ranges such as 12.=20 work as usual", why)
	}
	if n := countLines(text); line < 1 || line > n {
		if n == 0 {
			return decline("line %d is outside the file, which is empty", line)
		}
		return decline("line %d is outside the file, which has lines 1 to %d", line, n)
	}
	p, perr := parse(l, text)
	if perr != nil {
		return Span{}, &Decline{Reason: perr.reason()}
	}
	defer p.close()
	return p.resolve(line)
}

// Parses reports whether text parses cleanly in path's language (no ERROR or
// MISSING nodes, and for JSON the checks of docs/contract.md §10.4), and whether the
// language is supported at all.
func (r *Resolver) Parses(path, text string) (clean, supported bool) {
	l := lookup(path)
	if l == nil {
		return false, false
	}
	if len(text) > MaxParseBytes || tooDeep(l, text) != "" {
		return false, true
	}
	p, perr := parse(l, text)
	if perr != nil {
		return false, true
	}
	p.close()
	return true, true
}

func unsupported(name string) string {
	return fmt.Sprintf("block locators are not available for %s files (no grammar for this file type); plain line ranges such as 12.=20 and gaps work as usual", fileKind(name))
}

// fileKind names a file's type for a message: its extension, or its base
// name when it has none.
func fileKind(name string) string {
	base := path.Base(filepath.ToSlash(name))
	if ext := filepath.Ext(base); ext != "" && ext != base {
		return ext
	}
	return base
}

// countLines counts lines the way the core does.
func countLines(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

// firstNonSpace is the offset of the first non-space byte in src[from:to],
// or -1.
func firstNonSpace(src []byte, from, to int) int {
	for i := from; i < to; i++ {
		if !isSpace(src[i]) {
			return i
		}
	}
	return -1
}

// textStart is the offset of n's first non-space byte, or -1. Some grammars
// let a token carry the whitespace before it (Lua's keywords, markdown's
// paragraphs), so a node is placed by its text, not by its start offset.
func (p *parsed) textStart(n *sitter.Node) int {
	return firstNonSpace(p.src, p.start(n), p.end(n))
}

// codeStart is the offset of n's first byte that is neither space nor part
// of a comment, or -1: where n opens as code. A grammar may start a
// declaration at the comments above it (Lua files its --- documentation
// inside the function), and the line a construct opens on is the line of
// its code, not of a comment the caller never meant to name.
func (p *parsed) codeStart(n *sitter.Node) int {
	pos, hi := p.start(n), p.end(n)
	for pos < hi {
		if isSpace(p.src[pos]) {
			pos++
			continue
		}
		if !isWordByte(p.src[pos]) {
			if _, ce, ok := p.commentAt(n, pos); ok && ce <= hi {
				pos = ce
				continue
			}
		}
		return pos
	}
	return -1
}

// No comment of the languages here opens with a letter, a digit or an
// underscore, nor ends with one unless the line it ends on holds one of
// the characters their comments open with (a line comment's //, #, --, a
// Ruby =end): a byte that does neither needs no search for a comment.
// The comment delimiters: / and * (C-like, CSS), # (Python, Ruby, shells,
// YAML, TOML), - (Lua), < and > (HTML and markdown's <!-- -->), ; and = (Ruby
// =begin/=end, and what a delimiter may hold), ] (Lua's --[[ ]]).
const commentChars = "/*#-<>;=]"

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// mayEndComment reports whether a comment could end at offset end-1: the
// byte there is a delimiter's, or its line holds one. Whether a line holds
// one is looked at once per parse: a minified file is one long line.
func (p *parsed) mayEndComment(end int) bool {
	delims := p.lang.delims
	if delims == "" {
		delims = commentChars
	}
	if strings.IndexByte(delims, p.src[end-1]) >= 0 {
		return true
	}
	line := p.lineOf(end - 1)
	if line < 1 {
		return true // the JSON wrapper before the text
	}
	if p.delims == nil {
		p.delims = make([]int8, len(p.starts))
	}
	if p.delims[line-1] == 0 {
		p.delims[line-1] = 1
		if bytes.ContainsAny(p.src[p.starts[line-1]:p.ends[line-1]], delims) {
			p.delims[line-1] = 2
		}
	}
	return p.delims[line-1] == 2
}

// contentEnd is the offset just past n's last byte that is neither space nor
// part of a comment. Trailing comments stay outside a block: a grammar may
// file the comment above the next declaration inside the construct before it
// (YAML, TOML), and a standalone comment is never swept into a block.
func (p *parsed) contentEnd(n *sitter.Node) int {
	if end, ok := p.contentEnds[n]; ok {
		return end
	}
	end := p.findContentEnd(n)
	if p.contentEnds == nil {
		p.contentEnds = map[*sitter.Node]int{}
	}
	p.contentEnds[n] = end
	return end
}

func (p *parsed) findContentEnd(n *sitter.Node) int {
	lo, pos := p.start(n), p.end(n)
	for pos > lo {
		if isSpace(p.src[pos-1]) {
			pos--
			continue
		}
		if p.mayEndComment(pos) {
			if cs, _, ok := p.commentAt(n, pos-1); ok && cs >= lo {
				pos = cs
				continue
			}
		}
		return pos
	}
	return lo
}

// commentAt finds the outermost comment below n that holds offset off.
func (p *parsed) commentAt(n *sitter.Node, off int) (start, end int, ok bool) {
	for _, d := range p.descend(n, off) {
		if p.lang.isComment(p.typ(d)) {
			return p.start(d), p.end(d), true
		}
	}
	return 0, 0, false
}

// excluded reports whether n can never be a block: the whole file, a
// comment, an ignored marker, or a transparent container that opens with its
// first child.
func (p *parsed) excluded(n *sitter.Node) bool {
	t := p.typ(n)
	switch {
	case !p.named(n), p.same(n, p.root), p.same(n, p.top), p.lang.isComment(t), p.lang.ignored[t]:
		return true
	case p.lang.transparent[t]:
		first := n.NamedChild(0)
		return first == nil || p.textStart(first) == p.textStart(n)
	}
	return false
}

// resolve finds the block that opens at line, a line inside the text.
func (p *parsed) resolve(line int) (Span, error) {
	b := firstNonSpace(p.src, p.starts[line-1], p.ends[line-1])
	if b < 0 {
		return decline("line %d is blank; a block locator names the line a construct opens on", line)
	}
	chain := p.descend(p.root, b)
	for _, n := range chain[1:] {
		if p.lang.isComment(p.typ(n)) {
			return p.commentLine(line)
		}
	}
	if p.lang.sections {
		if h := p.headingAt(chain, b); h != nil {
			return p.section(h, line)
		}
	}

	// The candidates start at b: nested nodes whose text begins with the
	// line's first token. The outermost one that can be a block wins.
	var outer *sitter.Node
	topOpens := false
	for _, n := range chain[1:] {
		if p.textStart(n) != b {
			continue
		}
		if p.same(n, p.top) {
			topOpens = true
			continue
		}
		if !p.excluded(n) {
			outer = n
			break
		}
	}
	if outer != nil && p.lang.attached[p.typ(outer)] {
		return p.attachedLine(outer, line)
	}
	// A declaration whose decorators sit on lines above it starts at its
	// first decorator; its own first line still names it, without them.
	if owner := p.attachedOwner(chain, b); owner != nil {
		return p.finish(line, owner, chain)
	}
	if outer != nil {
		return p.finish(line, outer, chain)
	}
	if topOpens {
		return decline("line %d opens the top-level %s, which is the whole document: name its lines with the plain range %d.=%d",
			line, nodeName(p.typ(p.top)), line, p.lineOf(p.contentEnd(p.top)-1))
	}
	return p.inside(chain, b, line)
}

// finish turns the construct n that the anchored line opens into a span
// from that line to n's last line. The span must cover more than one line,
// and its last line must hold nothing after n but separators and comments.
// chain is the path from the root to the line's first token.
func (p *parsed) finish(line int, n *sitter.Node, chain []*sitter.Node) (Span, error) {
	name := nodeName(p.typ(n))
	endOff := p.contentEnd(n)
	end := p.lineOf(endOff - 1)
	if end <= line {
		// A one-line node that ends its enclosing construct is that
		// construct's closing line (a closing tag, a last statement).
		if e := p.enclosing(chain, line); e != nil && p.contentEnd(e) == endOff {
			return p.closes(e, line)
		}
		return decline("line %d holds a one-line %s, not a multi-line block: use the plain range %d.=%d", line, name, line, line)
	}
	if rest, ok := p.tail(endOff, end); !ok {
		return decline("the %s that opens on line %d ends inside line %d, which goes on with %q; a block op would take that text too, so name the lines with the plain range %d.=%d if that is meant",
			name, line, end, clip(rest, 40), line, end)
	}
	return Span{Start: line, End: end}, nil
}

// tail reports whether the rest of line after offset from holds only list
// separators (, and ;) and comments that end on that line; rest is what
// it holds otherwise.
func (p *parsed) tail(from, line int) (rest string, ok bool) {
	lineEnd := p.ends[line-1]
	pos := from
	for {
		for pos < lineEnd && isSpace(p.src[pos]) {
			pos++
		}
		if pos >= lineEnd {
			return "", true
		}
		if _, ce, isComment := p.commentAt(p.root, pos); isComment {
			if ce > lineEnd {
				break
			}
			pos = ce
			continue
		}
		chain := p.descend(p.root, pos)
		if leaf := chain[len(chain)-1]; !p.named(leaf) && p.start(leaf) == pos && (p.typ(leaf) == "," || p.typ(leaf) == ";") {
			pos = p.end(leaf)
			continue
		}
		break
	}
	return strings.TrimSpace(string(p.src[pos:lineEnd])), false
}

// clip shortens s to at most n characters for messages. It counts what the
// core's clip counts, so every quote in a message is cut the same way.
func clip(s string, n int) string {
	chars := 0
	for i := range s {
		if chars == n {
			return s[:i] + "…"
		}
		chars++
	}
	return s
}

// enclosing is the deepest construct on chain that opens on an earlier line
// (its text starts that line, so a block locator on that line can name it)
// and spans lines.
func (p *parsed) enclosing(chain []*sitter.Node, line int) *sitter.Node {
	for i := len(chain) - 1; i >= 1; i-- {
		n := chain[i]
		if p.excluded(n) && !p.same(n, p.top) {
			continue
		}
		ts := p.codeStart(n)
		if ts < p.starts[0] {
			continue // no text, or the JSON wrapper before the first line
		}
		opens := p.lineOf(ts)
		if opens >= line || firstNonSpace(p.src, p.starts[opens-1], p.ends[opens-1]) != ts {
			continue
		}
		if p.lineOf(p.contentEnd(n)-1) > opens {
			return n
		}
	}
	return nil
}

// inside explains a line that opens nothing: it closes or continues the
// construct around it.
func (p *parsed) inside(chain []*sitter.Node, b, line int) (Span, error) {
	e := p.enclosing(chain, line)
	if e == nil {
		return decline("line %d opens no multi-line construct", line)
	}
	opens, ends := p.lineOf(p.codeStart(e)), p.lineOf(p.contentEnd(e)-1)
	if ends == line {
		return p.closes(e, line)
	}
	return decline("line %d continues the %s on lines %d-%d and opens no multi-line construct of its own: use a plain range",
		line, nodeName(p.typ(e)), opens, ends)
}

// closes declines the last line of construct e.
func (p *parsed) closes(e *sitter.Node, line int) (Span, error) {
	opens := p.lineOf(p.codeStart(e))
	return decline("line %d is the last line of the %s that opens on line %d, not the start of a block: its lines are the plain range %d.=%d",
		line, nodeName(p.typ(e)), opens, opens, line)
}

// attachedOwner finds the outermost node on chain that starts before offset
// b with nothing before b but attached nodes (decorators, attributes,
// annotations) and comments: the declaration whose own first line holds b,
// in a grammar that starts the declaration at what is attached to it.
func (p *parsed) attachedOwner(chain []*sitter.Node, b int) *sitter.Node {
	var owner *sitter.Node
	for i := len(chain) - 1; i >= 1; i-- {
		n := chain[i]
		if p.same(n, p.top) {
			break
		}
		if p.textStart(n) == b {
			continue
		}
		if !p.attachedBefore(n, b) {
			break
		}
		if !p.excluded(n) {
			owner = n
		}
	}
	return owner
}

// attachedBefore reports whether n holds something before offset b and
// all of it is attached nodes and comments. b must start a child of n, or
// of a node inside n that passes the same test: Java keeps a method's
// annotations and its keywords together in one modifiers node.
func (p *parsed) attachedBefore(n *sitter.Node, b int) bool {
	some := false
	for i := 0; i < p.childCount(n); i++ {
		c := p.child(n, i)
		cs, ce := p.start(c), p.end(c)
		switch {
		case ce <= b:
			if p.textStart(c) < 0 {
				continue // a zero-width or whitespace-only token
			}
			if !p.onlyAttached(c) {
				return false
			}
			some = true
		case cs > b:
			return false
		case p.textStart(c) == b:
			return some
		case p.isAttachedOrComment(c):
			return false // b is inside a decorator, not after it
		default:
			// c holds text before b, so it must pass on its own.
			return p.attachedBefore(c, b)
		}
	}
	return false
}

func (p *parsed) isAttachedOrComment(n *sitter.Node) bool {
	return p.lang.attached[p.typ(n)] || p.lang.isComment(p.typ(n))
}

// onlyAttached reports whether n is an attached node or a comment, or a
// wrapper (like Java's modifiers) holding nothing else.
func (p *parsed) onlyAttached(n *sitter.Node) bool {
	if p.isAttachedOrComment(n) {
		return true
	}
	if p.childCount(n) == 0 {
		return false
	}
	for i := 0; i < p.childCount(n); i++ {
		c := p.child(n, i)
		if p.textStart(c) >= 0 && !p.onlyAttached(c) {
			return false
		}
	}
	return true
}

// attachedLine resolves a line that starts with a decorator, attribute or
// annotation that is not part of a declaration starting on the same line.
func (p *parsed) attachedLine(a *sitter.Node, line int) (Span, error) {
	chain := p.descend(p.root, p.textStart(a))
	prev := p.prevNonComment(a)
	if prev == nil || !p.lang.attached[p.typ(prev)] {
		// The first of its run: the run and the item after it.
		if item := p.itemAfter(a); item != nil {
			return p.finish(line, item, chain)
		}
		return p.finish(line, a, chain)
	}
	if p.lineOf(p.contentEnd(a)-1) > line {
		return p.finish(line, a, chain)
	}
	first := prev
	for s := prev; s != nil && (p.lang.attached[p.typ(s)] || p.lang.isComment(p.typ(s))); s = s.PrevNamedSibling() {
		if p.lang.attached[p.typ(s)] {
			first = s
		}
	}
	word := attachedWord(p.typ(a))
	firstLine := p.lineOf(p.textStart(first))
	reason := fmt.Sprintf("line %d is %s %s inside the run that starts on line %d: %d* covers the %ss together with what they %s",
		line, article(word), word, firstLine, firstLine, word, verbFor(word))
	if decl := p.afterRun(a); decl > line {
		reason += fmt.Sprintf(", %d* the declaration alone", decl)
	}
	return Span{}, &Decline{Reason: reason}
}

func attachedWord(t string) string {
	switch {
	case strings.Contains(t, "decorator"):
		return "decorator"
	case strings.Contains(t, "annotation"):
		return "annotation"
	}
	return "attribute"
}

func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

func verbFor(word string) string {
	switch word {
	case "decorator":
		return "decorate"
	case "annotation":
		return "annotate"
	}
	return "apply to"
}

func (p *parsed) prevNonComment(n *sitter.Node) *sitter.Node {
	s := n.PrevNamedSibling()
	for s != nil && p.lang.isComment(p.typ(s)) {
		s = s.PrevNamedSibling()
	}
	return s
}

// itemAfter is the declaration a run of attached siblings applies to: the
// next named sibling that is neither attached nor a comment.
func (p *parsed) itemAfter(n *sitter.Node) *sitter.Node {
	s := n.NextNamedSibling()
	for s != nil && (p.lang.attached[p.typ(s)] || p.lang.isComment(p.typ(s))) {
		s = s.NextNamedSibling()
	}
	return s
}

// afterRun is the line of the first token after the run of attached nodes
// that a belongs to, skipping comments; 0 when there is none.
func (p *parsed) afterRun(a *sitter.Node) int {
	last := a
	for s := a.NextNamedSibling(); s != nil && (p.lang.attached[p.typ(s)] || p.lang.isComment(p.typ(s))); s = s.NextNamedSibling() {
		if p.lang.attached[p.typ(s)] {
			last = s
		}
	}
	pos := p.end(last)
	for pos < len(p.src) {
		if isSpace(p.src[pos]) {
			pos++
			continue
		}
		if _, ce, ok := p.commentAt(p.root, pos); ok {
			pos = ce
			continue
		}
		if pos >= p.ends[len(p.ends)-1] {
			return 0
		}
		return p.lineOf(pos)
	}
	return 0
}
