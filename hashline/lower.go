package hashline

import (
	"fmt"
	"slices"
	"strings"
)

// irKind is an edit kind of docs/contract.md §10.1. The fifth kind, block, never appears
// here: lowering resolves an N* locator on the spot into the range or gap it
// names, so every later step sees plain positions.
type irKind int

const (
	irInsert irKind = iota // text at a gap
	irDelete               // one original line
	irCut                  // delete lines lo..hi and capture them
	irPaste                // register text at a gap, or over lines lo..hi
)

// ir is one lowered edit. Every position indexes the text the tag names;
// none is shifted by another edit (docs/contract.md §8.4 rule 1, docs/contract.md §10.1).
type ir struct {
	kind irKind
	op   int    // index into the call's ops
	gap  int    // irInsert, gap irPaste: insert after this line (0 = head)
	lo   int    // irDelete line; irCut and span irPaste first line
	hi   int    // irCut and span irPaste last line
	text string // irInsert
	reg  string
	// span marks an irPaste over lo..hi rather than at gap, and an irInsert
	// that replaces the lines after its gap instead of joining the gap.
	span bool
}

// Span is an inclusive range of 1-based lines. It names an unnamed struct,
// as blocks.Span does, so the two are one type and package blocks, which
// does not import the core, implements BlockResolver.
type Span = struct{ Start, End int }

// BlockResolver finds the syntactic block that opens at line (1-based) of
// text, for N* locators (docs/contract.md §10.4). It returns the block's span, or an error
// that declines: its message says why, in words the model can act on.
type BlockResolver interface {
	ResolveBlock(path, text string, line int) (Span, error)
}

// Resolved echoes one block resolution (docs/contract.md §10.4).
type Resolved struct {
	AnchorLine int    `json:"anchorLine"`
	Start      int    `json:"start"`
	End        int    `json:"end"`
	Op         string `json:"op"`
}

// program is a patch lowered against one text.
type program struct {
	text     *Text
	ops      []Op
	edits    []ir
	resolved []Resolved
	// anchors holds, per op, the lines it must have been shown (docs/contract.md §8.5);
	// the head and tail gaps need none.
	anchors [][]int
	// locs holds, per op, its locator with blocks resolved to ranges.
	locs []Locator
	// warnings name what lowering repaired (docs/contract.md §11.1).
	warnings []Warning
}

// lower turns ops into IR against t, resolves blocks and checks every
// position (docs/contract.md §8.4). It does not read registers.
func lower(t *Text, path string, ops []Op, blocks BlockResolver) (*program, error) {
	p := &program{text: t, ops: ops, anchors: make([][]int, len(ops)), locs: make([]Locator, len(ops))}
	n := t.Len()
	for i := range ops {
		op := &ops[i]
		if op.Kind == OpRem || op.Kind == OpMove {
			continue
		}
		loc := op.Loc
		if loc.Kind == LocBlock || loc.Kind == LocAfterBlock {
			if err := checkLine(op, loc.N, n); err != nil {
				return nil, err
			}
			block, err := resolveBlock(t, path, op, blocks)
			if err != nil {
				return nil, err
			}
			p.resolved = append(p.resolved, Resolved{AnchorLine: loc.N, Start: block.Start, End: block.End, Op: op.Canonical()})
			if loc.Kind == LocBlock {
				loc = Locator{Kind: LocRange, N: block.Start, M: block.End}
			} else {
				loc = Locator{Kind: LocAfter, N: block.End}
				p.anchors[i] = []int{op.Loc.N}
			}
		}
		if err := checkLocator(op, loc, n); err != nil {
			return nil, err
		}
		p.locs[i] = loc
		switch loc.Kind {
		case LocRange:
			p.anchors[i] = appendRange(p.anchors[i], loc.N, loc.M)
		case LocBefore:
			if loc.N > 1 {
				p.anchors[i] = append(p.anchors[i], loc.N)
			}
		case LocAfter:
			p.anchors[i] = append(p.anchors[i], loc.N)
		}
		gap := gapOf(loc, n)
		switch op.Kind {
		case OpPut:
			for _, row := range op.Body {
				p.edits = append(p.edits, ir{kind: irInsert, op: i, gap: gap, text: row, span: loc.Kind == LocRange})
			}
			if loc.Kind == LocRange {
				for l := loc.N; l <= loc.M; l++ {
					p.edits = append(p.edits, ir{kind: irDelete, op: i, lo: l})
				}
			}
		case OpCut:
			p.edits = append(p.edits, ir{kind: irCut, op: i, lo: loc.N, hi: loc.M, reg: op.Register})
		case OpPaste:
			e := ir{kind: irPaste, op: i, gap: gap, reg: op.Register}
			if loc.Kind == LocRange {
				e.span, e.lo, e.hi = true, loc.N, loc.M
			}
			p.edits = append(p.edits, e)
		}
		if len(p.edits) > MaxIRLines {
			return nil, amplification()
		}
	}
	if err := p.checkOverlaps(); err != nil {
		return nil, err
	}
	p.dropEchoes()
	return p, nil
}

func appendRange(dst []int, lo, hi int) []int {
	for l := lo; l <= hi; l++ {
		dst = append(dst, l)
	}
	return dst
}

// gapOf is the gap a locator inserts at: text goes after that line.
// A range's replacement goes where its first line was.
func gapOf(l Locator, n int) int {
	switch l.Kind {
	case LocBefore, LocRange:
		return l.N - 1
	case LocAfter:
		return l.N
	case LocEnd:
		return n
	}
	return 0
}

func resolveBlock(t *Text, path string, op *Op, blocks BlockResolver) (Span, error) {
	n := op.Loc.N
	alt := fmt.Sprintf("name the lines instead: PUT %d.=M: with M the block's last line", n)
	if op.Kind == OpCut {
		alt = fmt.Sprintf("name the lines instead: CUT %d.=M with M the block's last line", n)
	} else if op.Loc.Kind == LocAfterBlock {
		alt = "name the gap instead: PUT >M: with M the block's last line"
	}
	fail := func(why string) (Span, error) {
		return Span{}, &Error{Code: CodeBlockUnresolved, Details: Details{Op: op.Index, OpText: op.Text, Lines: []int{n}},
			Message: fmt.Sprintf("op %d (%s): %s; %s", op.Index, clip(op.Text, 80), why, alt)}
	}
	if blocks == nil {
		return fail("block locators are not available for this file")
	}
	if t.Size() > MaxBlockParse {
		return fail(fmt.Sprintf("the file is over the %d MiB block-parse limit", MaxBlockParse>>20))
	}
	block, err := blocks.ResolveBlock(path, t.Normalized(), n)
	if err != nil {
		return fail(err.Error())
	}
	if block.Start < 1 || block.End < block.Start || block.End > t.Len() {
		return fail(fmt.Sprintf("line %d resolved to an impossible span %d-%d", n, block.Start, block.End))
	}
	return block, nil
}

func checkLine(op *Op, l, n int) error {
	if l > n {
		return rangeErr(op, []int{l}, fmt.Sprintf("line %d is past the end of the file (%s): name a line from 1 to %d", l, lineCount(n), n))
	}
	return nil
}

func lineCount(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}

// checkLocator checks a locator against a text of n lines.
func checkLocator(op *Op, l Locator, n int) error {
	switch l.Kind {
	case LocRange:
		if l.N > l.M {
			return rangeErr(op, []int{l.N, l.M}, fmt.Sprintf("range %d.=%d is reversed: write %d.=%d", l.N, l.M, l.M, l.N))
		}
		if l.M > n {
			next := "to add lines after the last one use PUT >$:"
			if l.N <= n {
				next = fmt.Sprintf("the last line is %d, so write %d.=%d, and add new lines with PUT >$:", n, l.N, n)
			}
			return rangeErr(op, []int{l.M}, fmt.Sprintf("line %d is past the end of the file (%s): %s", l.M, lineCount(n), next))
		}
	case LocBefore:
		if l.N > n && !(l.N == 1 && n == 0) {
			return rangeErr(op, []int{l.N}, fmt.Sprintf("line %d is past the end of the file (%s): to add lines at the end use PUT >$:", l.N, lineCount(n)))
		}
	case LocAfter:
		if l.N > n {
			return rangeErr(op, []int{l.N}, fmt.Sprintf("line %d is past the end of the file (%s): to add lines at the end use PUT >$:", l.N, lineCount(n)))
		}
	}
	return nil
}

func rangeErr(op *Op, lines []int, msg string) *Error {
	return &Error{Code: CodeRangeInvalid, Details: Details{Op: op.Index, OpText: op.Text, Lines: lines},
		Message: fmt.Sprintf("op %d (%s): %s", op.Index, clip(op.Text, 80), msg)}
}

func amplification() *Error {
	return &Error{Code: CodeAmplificationLimit, Details: Details{Limit: MaxIRLines},
		Message: fmt.Sprintf("the ops expand to more than %d inserted and deleted lines: split the change into several edit calls, or use write to replace the whole file", MaxIRLines)}
}

// checkOverlaps enforces docs/contract.md §8.4 rule 4: no two ops share a line, whether they
// consume it or anchor a gap on it. The head and tail gaps belong to no line
// and may be shared; inserts there keep their written order.
func (p *program) checkOverlaps() error {
	type claim struct{ line, op int }
	var claims []claim
	for i := range p.ops {
		for _, l := range p.claims(i) {
			claims = append(claims, claim{l, i})
		}
	}
	slices.SortFunc(claims, func(a, b claim) int {
		if a.line != b.line {
			return a.line - b.line
		}
		return a.op - b.op
	})
	for k := 1; k < len(claims); k++ {
		a, b := claims[k-1], claims[k]
		if a.line == b.line && a.op != b.op {
			oa, ob := &p.ops[a.op], &p.ops[b.op]
			return &Error{Code: CodeRangeInvalid, Details: Details{Op: ob.Index, OpText: ob.Text, Lines: []int{a.line}},
				Message: fmt.Sprintf("op %d (%s) and op %d (%s) both touch line %d: ops may not overlap or share an anchor; merge them into one op", oa.Index, clip(oa.Text, 60), ob.Index, clip(ob.Text, 60), a.line)}
		}
	}
	return nil
}

// claims lists the lines op i consumes or anchors on.
func (p *program) claims(i int) []int {
	op := &p.ops[i]
	switch op.Kind {
	case OpRem, OpMove:
		return nil
	}
	if op.Loc.Kind == LocBefore && op.Loc.N == 1 {
		return nil
	}
	return p.anchors[i]
}

// clipboard is the register state one call sees (docs/contract.md §9.1, docs/contract.md §10.2).
type clipboard struct {
	named   func(string) ([]string, bool) // the session's registers
	pending map[string][]string           // named captures of this call
	order   []string                      // pending's names, first capture first
	anon    [][]string                    // anonymous captures, in order
	pasted  int                           // anon[:pasted] have been pasted
}

// expand runs the clipboard pre-pass of docs/contract.md §10.2 in written order, turning cut
// and paste into plain inserts and deletes.
func (p *program) expand(cb *clipboard) ([]ir, error) {
	out := make([]ir, 0, len(p.edits))
	for _, e := range p.edits {
		op := &p.ops[e.op]
		switch e.kind {
		case irCut:
			lines := p.text.Lines(e.lo, e.hi)
			if err := checkCapture(op, lines); err != nil {
				return nil, err
			}
			if e.reg == "" {
				cb.anon = append(cb.anon, lines)
			} else {
				if _, again := cb.pending[e.reg]; !again {
					cb.order = append(cb.order, e.reg)
				}
				cb.pending[e.reg] = lines
			}
			for l := e.lo; l <= e.hi; l++ {
				out = append(out, ir{kind: irDelete, op: e.op, lo: l})
			}
		case irPaste:
			lines, err := cb.read(op, e.reg, p.ops)
			if err != nil {
				return nil, err
			}
			for _, l := range lines {
				out = append(out, ir{kind: irInsert, op: e.op, gap: e.gap, text: l, span: e.span})
			}
			// Deletes only after the read succeeded, so an empty register
			// leaves no orphan deletes (docs/contract.md §10.2).
			if e.span {
				for l := e.lo; l <= e.hi; l++ {
					out = append(out, ir{kind: irDelete, op: e.op, lo: l})
				}
			}
		default:
			out = append(out, e)
		}
		if len(out) > MaxIRLines {
			return nil, amplification()
		}
	}
	return out, nil
}

// committed lists the call's named captures in the order first made.
func (cb *clipboard) committed() []capture {
	out := make([]capture, len(cb.order))
	for i, name := range cb.order {
		out[i] = capture{name: name, lines: cb.pending[name]}
	}
	return out
}

func checkCapture(op *Op, lines []string) error {
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	if len(lines) > MaxCaptureLines || size > MaxCaptureBytes {
		limit := MaxCaptureLines
		if size > MaxCaptureBytes {
			limit = MaxCaptureBytes
		}
		return &Error{Code: CodeInvalidArgument, Details: Details{Field: "ops", Op: op.Index, OpText: op.Text, Limit: limit},
			Message: fmt.Sprintf("op %d (%s) captures %s (%d bytes), over the register limit of %d lines or %d MiB: cut the block in smaller pieces over several calls", op.Index, clip(op.Text, 60), lineCount(len(lines)), size, MaxCaptureLines, MaxCaptureBytes>>20)}
	}
	return nil
}

// checkSequence runs the register reads of the pre-pass on the ops alone,
// with no text: a paste before any capture, from an empty register, or of
// an ambiguous anonymous one is wrong whatever the file holds, so a call
// the tag gates would refuse reports it as itself instead (docs/contract.md §9.2). named
// only looks: a register's recency is for the reads of calls that get as
// far as expanding their pastes.
func checkSequence(ops []Op, named func(string) bool) error {
	cb := &clipboard{pending: map[string][]string{}, named: func(name string) ([]string, bool) {
		return nil, named(name)
	}}
	for i := range ops {
		op := &ops[i]
		switch {
		case op.Kind == OpCut && op.Register == "":
			cb.anon = append(cb.anon, nil)
		case op.Kind == OpCut:
			cb.pending[op.Register] = nil
		case op.Kind == OpPaste:
			if _, err := cb.read(op, op.Register, ops); err != nil {
				return err
			}
		}
	}
	return nil
}

func (cb *clipboard) read(op *Op, reg string, ops []Op) ([]string, error) {
	if reg != "" {
		if lines, ok := cb.pending[reg]; ok {
			return lines, nil
		}
		for k := op.Index; k < len(ops); k++ {
			if ops[k].Kind == OpCut && ops[k].Register == reg {
				return nil, &Error{Code: CodeRegisterEmpty, Details: Details{Op: op.Index, OpText: op.Text},
					Message: fmt.Sprintf("op %d (%s) pastes @%s before op %d captures it: ops run in the order written, so put %s before the paste", op.Index, clip(op.Text, 60), reg, ops[k].Index, ops[k].Canonical())}
			}
		}
		if lines, ok := cb.named(reg); ok {
			return lines, nil
		}
		return nil, &Error{Code: CodeRegisterEmpty, Details: Details{Op: op.Index, OpText: op.Text},
			Message: fmt.Sprintf("op %d (%s): register @%s is empty in this session: capture into it first with CUT N.=M @%s (in this call or an earlier one)", op.Index, clip(op.Text, 60), reg, reg)}
	}
	switch unpasted := len(cb.anon) - cb.pasted; {
	case unpasted > 1:
		return nil, &Error{Code: CodeRegisterAmbiguous, Details: Details{Op: op.Index, OpText: op.Text},
			Message: fmt.Sprintf("op %d (%s) pastes the anonymous register while %d CUTs wait in it: name each capture, as in CUT 3.=9 @a and PUT >20 @a", op.Index, clip(op.Text, 60), unpasted)}
	case unpasted == 1:
		cb.pasted = len(cb.anon)
	case len(cb.anon) == 0:
		return nil, &Error{Code: CodeRegisterEmpty, Details: Details{Op: op.Index, OpText: op.Text},
			Message: fmt.Sprintf("op %d (%s) pastes before any capture: the anonymous register lives for one call, so write the CUT above the paste in the same ops", op.Index, clip(op.Text, 60))}
	}
	return cb.anon[len(cb.anon)-1], nil
}

// apply turns plain inserts and deletes into hunks against t: sorted,
// merged when they touch, and trimmed of lines that come out equal, so an
// untouched line is never rewritten.
func apply(t *Text, edits []ir) []Hunk {
	type event struct {
		pos  int // 0-based line index the event sits before (insert) or on (delete)
		del  bool
		rank int // at one pos: gap inserts, then a replacement's rows, then deletes
		text string
	}
	events := make([]event, 0, len(edits))
	for _, e := range edits {
		switch e.kind {
		case irInsert:
			rank := 0
			if e.span {
				rank = 1
			}
			events = append(events, event{pos: e.gap, rank: rank, text: e.text})
		case irDelete:
			events = append(events, event{pos: e.lo - 1, del: true, rank: 2})
		}
	}
	// A gap before line N lies before a replacement of N.=M whatever order
	// the ops were written in, so <1 stays the file head; inserts at one gap
	// keep the order they were written in.
	slices.SortStableFunc(events, func(ea, eb event) int {
		if ea.pos != eb.pos {
			return ea.pos - eb.pos
		}
		return ea.rank - eb.rank
	})
	var hunks []Hunk
	for _, ev := range events {
		if len(hunks) == 0 || hunks[len(hunks)-1].End != ev.pos {
			hunks = append(hunks, Hunk{Start: ev.pos, End: ev.pos})
		}
		h := &hunks[len(hunks)-1]
		if ev.del {
			h.End = ev.pos + 1
		} else {
			h.Lines = append(h.Lines, ev.text)
		}
	}
	out := hunks[:0]
	for _, h := range hunks {
		for h.Start < h.End && len(h.Lines) > 0 && h.Lines[0] == t.Line(h.Start+1) {
			h.Start++
			h.Lines = h.Lines[1:]
		}
		for h.Start < h.End && len(h.Lines) > 0 && h.Lines[len(h.Lines)-1] == t.Line(h.End) {
			h.End--
			h.Lines = h.Lines[:len(h.Lines)-1]
		}
		if h.Start < h.End || len(h.Lines) > 0 {
			out = append(out, h)
		}
	}
	return out
}

// describeOps lists the canonical headers of a call, for change annotations.
func describeOps(ops []Op) string {
	parts := make([]string, len(ops))
	for i := range ops {
		parts[i] = ops[i].Canonical()
	}
	return strings.Join(parts, "; ")
}
