package hashline

import (
	"fmt"
	"strings"
	"unicode"
)

// This file is the replacement-boundary repair of docs/contract.md §11. It is deliberately
// conservative: a row is dropped only when it restates, byte for byte, a line
// that survives just outside its range; a row is kept only when the syntax
// says so twice (the edit as written breaks a file that parsed, and deleting
// that row alone breaks it too) and the row sits where it encloses the new
// text. Two repairs that fit equally well are refused, never ranked.

// SyntaxChecker reports whether a text parses cleanly in path's language,
// and whether the language is known at all. A BlockResolver may implement
// it; boundary repair then checks syntax.
type SyntaxChecker interface {
	Parses(path, text string) (clean, supported bool)
}

// dropEchoes removes a replacement's first body row when it restates the
// line just above the range, and its last when it restates the line just
// below, when those lines survive the call (docs/contract.md §11.1). A body of one
// row is left alone: that row is all the op says. So is a row of nothing but
// punctuation and blanks, such as "}" or "": such rows repeat in code by
// design, and dropping one on equality alone would be a guess.
func (p *program) dropEchoes() {
	claimed := map[int]bool{}
	for i := range p.ops {
		for _, l := range p.claims(i) {
			claimed[l] = true
		}
	}
	for i := range p.ops {
		op, loc := &p.ops[i], p.locs[i]
		if op.Kind != OpPut || loc.Kind != LocRange {
			continue
		}
		var rows []int // indexes into p.edits of op i's inserts, in order
		for k, e := range p.edits {
			if e.op == i && e.kind == irInsert {
				rows = append(rows, k)
			}
		}
		drop := map[int]bool{}
		if above := loc.N - 1; len(rows) >= 2 && above >= 1 && !claimed[above] && echoes(p.edits[rows[0]].text, p.text.Line(above)) {
			drop[rows[0]] = true
			rows = rows[1:]
			p.warnings = append(p.warnings, Warning{Kind: WarnRepaired, Message: fmt.Sprintf(
				"op %d (%s): dropped the first + row, which restated line %d just above the range; that line stays as it is: ranges name changed lines only", op.Index, clip(op.Text, 60), above)})
		}
		if below := loc.M + 1; len(rows) >= 2 && below <= p.text.Len() && !claimed[below] && echoes(p.edits[rows[len(rows)-1]].text, p.text.Line(below)) {
			drop[rows[len(rows)-1]] = true
			p.warnings = append(p.warnings, Warning{Kind: WarnRepaired, Message: fmt.Sprintf(
				"op %d (%s): dropped the last + row, which restated line %d just below the range; that line stays as it is: ranges name changed lines only", op.Index, clip(op.Text, 60), below)})
		}
		if len(drop) == 0 {
			continue
		}
		kept := p.edits[:0]
		for k, e := range p.edits {
			if !drop[k] {
				kept = append(kept, e)
			}
		}
		p.edits = kept
	}
}

// echoes reports whether row restates line exactly, and line says
// something: it holds a letter or a digit.
func echoes(row, line string) bool {
	return row == line && strings.IndexFunc(line, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// maxRepairOps bounds the candidate search: each range op gives at most two
// candidates, each costing two parses.
const maxRepairOps = 8

type candidate struct {
	op   int
	line int // the row kept
	plan *Plan
}

// retain runs the bounded search of docs/contract.md §11.2 for a plan whose text no longer
// parses: each candidate keeps the first or the last row of one range op.
// It returns the plan to use: the authored one when no candidate qualifies.
// prog, edits and cb are what the authored plan was made from; a candidate
// is the same edits less one delete, so the echo rows lowering dropped stay
// dropped (retention combines with echo removal) and no register is read
// twice.
func (g *gate) retain(sc SyntaxChecker, t *Text, authored *Plan, prog *program, edits []ir, cb *clipboard) (*Plan, error) {
	path := g.req.Path
	// The rows that could be kept, by their text alone: with none, as with
	// most edits, nothing is parsed at all.
	type keepable struct{ op, line int }
	var rows []keepable
	ranges := 0
	for i, op := range g.patch.Ops {
		if op.Kind != OpPut || op.Loc.Kind != LocRange || op.Loc.M == op.Loc.N {
			continue
		}
		if ranges++; ranges > maxRepairOps {
			break
		}
		for _, keep := range []int{op.Loc.N, op.Loc.M} {
			if mayKeep(t, op, keep) {
				rows = append(rows, keepable{i, keep})
			}
		}
	}
	if len(rows) == 0 {
		return authored, nil
	}
	if clean, supported := sc.Parses(path, authored.New.Normalized()); clean || !supported {
		return authored, nil
	}
	if clean, _ := sc.Parses(path, t.Normalized()); !clean {
		return authored, nil // a baseline that did not parse proves nothing
	}
	var found []candidate
	for _, r := range rows {
		if !g.structural(sc, t, r.line) {
			continue
		}
		first := r.line == g.patch.Ops[r.op].Loc.N
		p := g.plan(prog, keepLine(edits, r.op, r.line, first), t, cb)
		if p.New.Raw() == t.Raw() {
			continue
		}
		if clean, _ := sc.Parses(path, p.New.Normalized()); clean {
			found = append(found, candidate{op: r.op, line: r.line, plan: p})
		}
	}
	switch {
	case len(found) == 0:
		return authored, nil
	case len(found) > 1:
		var alts []string
		for _, c := range found {
			if c.plan.New.Raw() != found[0].plan.New.Raw() {
				alts = nil
				for _, c := range found {
					alts = append(alts, fmt.Sprintf("keep line %d (%q) of op %d", c.line, clip(t.Line(c.line), 40), g.patch.Ops[c.op].Index))
				}
				return nil, &Error{Code: CodeRepairAmbiguous, Details: Details{Lines: []int{found[0].line, c.line}},
					Message: fmt.Sprintf("as written the edit leaves the file unparsable, and %d repairs fit equally well (%s): nothing was written; name only the lines that change, so the range leaves out the lines that stay", len(found), strings.Join(alts, "; "))}
			}
		}
	}
	c := found[0]
	op := g.patch.Ops[c.op]
	c.plan.Warnings = append(c.plan.Warnings, Warning{Kind: WarnRepaired, Message: fmt.Sprintf(
		"op %d (%s): kept line %d (%q), which the range swallowed: the + rows do not restate it, and without it the file no longer parses; ranges name changed lines only", op.Index, clip(op.Text, 60), c.line, clip(t.Line(c.line), 40))})
	return c.plan, nil
}

// mayKeep is the textual half of the evidence docs/contract.md §11.2 asks before a row may be
// kept: the + rows do not contain its text anywhere (so the model did not
// move it), and it is no deeper than the rows that replace its neighbours
// (so it encloses them). It needs no parse, so most edits stop here.
func mayKeep(t *Text, op Op, keep int) bool {
	row := t.Line(keep)
	if strings.TrimSpace(row) == "" {
		return false
	}
	minIndent := -1
	for _, b := range op.Body {
		if strings.TrimSpace(b) == strings.TrimSpace(row) {
			return false
		}
		if strings.TrimSpace(b) != "" {
			if in := indentOf(b); minIndent < 0 || in < minIndent {
				minIndent = in
			}
		}
	}
	return minIndent < 0 || indentOf(row) <= minIndent
}

// structural is the syntax half: deleting the row alone breaks the
// baseline.
func (g *gate) structural(sc SyntaxChecker, t *Text, keep int) bool {
	without := t.Splice([]Hunk{{Start: keep - 1, End: keep}})
	clean, _ := sc.Parses(g.req.Path, NewText(without).Normalized())
	return !clean
}

// indentOf counts a line's leading blanks, a tab as one.
func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// keepLine returns edits without op i's delete of line keep. Lowering the
// op again over the narrower range would judge its echo rows against new
// neighbours: a first row that restated the line above the range would
// come back, below the kept line. A kept first row goes before the + rows,
// so they move to the gap after it.
func keepLine(edits []ir, i, keep int, first bool) []ir {
	out := make([]ir, 0, len(edits))
	for _, e := range edits {
		if e.op == i {
			if e.kind == irDelete && e.lo == keep {
				continue
			}
			if first && e.kind == irInsert {
				e.gap = keep
			}
		}
		out = append(out, e)
	}
	return out
}

// syntaxOf returns the syntax checker behind a block resolver, if any.
func syntaxOf(b BlockResolver) SyntaxChecker {
	sc, _ := b.(SyntaxChecker)
	return sc
}
