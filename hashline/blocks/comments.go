package blocks

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Doc comments (docs/contract.md §10.4, first rule). Grammars place a comment wherever it falls
// between tokens: inside the declaration after it (Lua), inside the
// construct before it (YAML, TOML), or beside both. So a doc comment
// is found by its lines, not by where the tree files it.

// lineKind is what a line holds, as far as doc comments are concerned.
type lineKind int

const (
	otherLine lineKind = iota // blank, code after a comment, or held by no token
	codeLine                  // its first token is not a comment
	plainLine                 // only comments, the first of them no doc comment
	docLine                   // only comments, the first of them a doc comment
)

// classified is what classify found for one line.
type classified struct {
	kind       lineKind
	cont, done bool
}

// classify says what line n holds. cont reports, for a comment line, that
// its first byte is inside a comment opened on an earlier line (the middle
// or the end of a block comment), so it cannot begin a run. A run of doc
// comments is looked at from each of its lines, so each line is
// classified once per parse.
func (p *parsed) classify(n int) (kind lineKind, cont bool) {
	if p.kinds == nil {
		p.kinds = make([]classified, len(p.starts))
	}
	c := &p.kinds[n-1]
	if !c.done {
		c.kind, c.cont = p.classifyLine(n)
		c.done = true
	}
	return c.kind, c.cont
}

func (p *parsed) classifyLine(n int) (kind lineKind, cont bool) {
	from, to := p.starts[n-1], p.ends[n-1]
	b := firstNonSpace(p.src, from, to)
	if b < 0 {
		return otherLine, false
	}
	if _, _, ok := p.commentAt(p.root, b); !ok {
		if len(p.descend(p.root, b)) == 1 {
			// No token holds the line's first byte: the grammar skipped
			// it (the prefix of Lua's ---@tag). It is no code to document.
			return otherLine, false
		}
		return codeLine, false
	}
	for pos := b; pos < to; {
		if isSpace(p.src[pos]) {
			pos++
			continue
		}
		_, ce, ok := p.commentAt(p.root, pos)
		if !ok {
			return otherLine, false
		}
		pos = ce
	}
	// The comment token that holds the line's first byte: the outermost
	// node named a comment. Lua files the lines of its --- documentation
	// under nodes of other names (emmy_parameter, ...), one documentation
	// node for a run of lines: there each line's own text decides.
	open := b
	if tok := p.commentToken(b); tok != nil && p.textStart(tok) < b {
		open, cont = p.textStart(tok), true
	}
	if p.lang.doc(string(p.src[open:min(open+8, len(p.src))]), open == p.starts[0]) {
		return docLine, cont
	}
	return plainLine, cont
}

// commentToken is the outermost node holding offset b whose type is named
// a comment (line_comment, block_comment, comment), or nil.
func (p *parsed) commentToken(b int) *sitter.Node {
	for _, n := range p.descend(p.root, b)[1:] {
		if strings.Contains(p.typ(n), "comment") {
			return n
		}
	}
	return nil
}

// docComment is a run of doc comment lines from line first, and the block
// right below it that the run documents.
type docComment struct {
	first int
	block Span
}

// docRun finds the doc comment that holds line, a line whose first token is
// a comment: a run of doc comment lines with no blank or other line inside
// it, whose last line is directly followed by the first line of a block the
// comment can document. ok is false when line belongs to no such run: it is
// a standalone comment.
func (p *parsed) docRun(line int) (doc docComment, ok bool) {
	if p.lang.doc == nil {
		return docComment{}, false
	}
	if kind, _ := p.classify(line); kind != docLine {
		return docComment{}, false
	}
	decl := 0
	for n := line + 1; n <= p.lineCount() && decl == 0; n++ {
		switch kind, _ := p.classify(n); kind {
		case docLine:
		case codeLine:
			decl = n
		default:
			return docComment{}, false
		}
	}
	if decl == 0 {
		return docComment{}, false
	}
	first := line
	for first > 1 {
		if kind, _ := p.classify(first - 1); kind != docLine {
			break
		}
		first--
	}
	// A run begins where a comment begins: a block comment opened after
	// code on an earlier line documents nothing.
	if _, cont := p.classify(first); cont {
		return docComment{}, false
	}
	if !p.documentable(decl) {
		return docComment{}, false
	}
	block, err := p.resolve(decl)
	if err != nil || block.Start != decl {
		return docComment{}, false
	}
	return docComment{first: first, block: block}, true
}

// documentable reports whether the construct whose first token opens line
// decl is a declaration the language's doc comments document: one of its
// docTargets where it lists them, and elsewhere anything but a statement
// that declares nothing.
func (p *parsed) documentable(decl int) bool {
	b := firstNonSpace(p.src, p.starts[decl-1], p.ends[decl-1])
	chain := p.descend(p.root, b)
	for i, n := range chain {
		if i == 0 || p.textStart(n) != b {
			continue
		}
		switch {
		case p.lang.docTargets == nil:
			if p.named(n) && declaresNothing(p.typ(n)) {
				return false
			}
		case p.lang.docTargets[p.typ(n)] && (!p.lang.docTopLevel || i == 1):
			return true
		}
	}
	return p.lang.docTargets == nil
}

// notDeclarations are the words that, in the grammars here, name a
// statement that declares nothing: control flow, a return or throw, an
// import, a preprocessor conditional. A comment above one explains the
// code; no documentation generator attaches it to anything.
var notDeclarations = setOf("if", "else", "elif", "elsif", "elseif", "unless", "for", "while", "until", "do", "repeat",
	"loop", "switch", "case", "match", "select", "try", "catch", "finally", "with", "return", "throw",
	"import", "ifdef")

// declaresNothing reports whether node type t names a statement that
// declares nothing: one of its words is a notDeclarations word
// (if_statement, for_in_statement, match_expression, preproc_ifdef).
func declaresNothing(t string) bool {
	for _, w := range strings.Split(t, "_") {
		if notDeclarations[w] {
			return true
		}
	}
	return false
}

// commentLine resolves a line whose first token is a comment. The first
// line of a doc comment resolves to the comment and what it documents;
// a later line of one names the first; a standalone comment is no block.
func (p *parsed) commentLine(line int) (Span, error) {
	doc, ok := p.docRun(line)
	switch {
	case !ok:
		return decline("line %d is a comment, and comments are not blocks; anchor the line the construct itself opens on", line)
	case line == doc.first:
		return Span{Start: doc.first, End: doc.block.End}, nil
	}
	return decline("line %d is inside the doc comment that starts on line %d: %d* covers the doc comment and what it documents (lines %d-%d), %d* leaves the doc comment out",
		line, doc.first, doc.first, doc.first, doc.block.End, doc.block.Start)
}
