package blocks

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// heading is a markdown heading that opens a section: one at the top level
// of the document, not one inside a list item or a block quote.
type heading struct {
	line  int // where its text starts
	level int // 1 for # and ===, 2 for ## and ---, ...
}

// headingAt returns the section heading that starts at offset b, if chain
// (the nodes down to b) passes through one.
func (p *parsed) headingAt(chain []*sitter.Node, b int) *heading {
	for i := 1; i < len(chain); i++ {
		n := chain[i]
		if t := p.typ(n); t != "atx_heading" && t != "setext_heading" {
			continue
		}
		if parent := chain[i-1].Type(); parent != "section" && parent != "document" {
			return nil
		}
		if p.textStart(n) != b {
			return nil
		}
		line := p.lineOf(b)
		for _, h := range p.sectionHeadings() {
			if h.line == line {
				return &h
			}
		}
		return nil
	}
	return nil
}

// sectionHeadings lists the section headings in document order. The
// grammar nests ATX headings into sections but leaves setext headings inside
// the section before them, so sections are computed here from the headings
// alone, the same way for both kinds.
func (p *parsed) sectionHeadings() []heading {
	if p.headings != nil {
		return p.headings
	}
	p.headings = []heading{}
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		for i := 0; i < int(n.NamedChildCount()); i++ {
			c := n.NamedChild(i)
			switch p.typ(c) {
			case "section":
				walk(c)
			case "atx_heading", "setext_heading":
				if level := headingLevel(c); level > 0 {
					p.headings = append(p.headings, heading{line: p.lineOf(p.textStart(c)), level: level})
				}
			}
		}
	}
	walk(p.root)
	return p.headings
}

func headingLevel(n *sitter.Node) int {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		t := n.NamedChild(i).Type()
		switch {
		case strings.HasPrefix(t, "atx_h") && strings.HasSuffix(t, "_marker") && len(t) == len("atx_h1_marker"):
			return int(t[len("atx_h")] - '0')
		case t == "setext_h1_underline":
			return 1
		case t == "setext_h2_underline":
			return 2
		}
	}
	return 0
}

// section resolves a heading line (docs/contract.md §10.4, second rule): the section runs through
// deeper headings up to the line before the next heading of the same or a
// higher level (or the end of the file), and then gives back its trailing
// blank lines, so a replaced section keeps the blank line that separates it
// from the next.
func (p *parsed) section(h *heading, line int) (Span, error) {
	end, next := p.lineCount(), 0
	for _, o := range p.sectionHeadings() {
		if o.line > h.line && o.level <= h.level {
			end, next = o.line-1, o.line
			break
		}
	}
	for end > line && firstNonSpace(p.src, p.starts[end-1], p.ends[end-1]) < 0 {
		end--
	}
	if end == line {
		if next > 0 {
			return decline("line %d is a heading with nothing under it before the next heading on line %d: use the plain range %d.=%d", line, next, line, line)
		}
		return decline("line %d is a heading with nothing under it: use the plain range %d.=%d", line, line, line)
	}
	return Span{Start: line, End: end}, nil
}
