package hashline

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file is the second anchor style (docs/contract.md §17): kli's per-line anchors
// LINE:HH and its patch language. Each anchor carries the hash of the line
// it names, so a patch proves itself line by line against the live text,
// without a whole-file tag and without drift recovery, as kli does.

// LineHash is kli's hash of one line: FNV-1a 32-bit over the line's code
// points, each fed low byte first in as many bytes as it needs (at least
// one), the four bytes of the result xored together, as two lowercase hex
// digits. line is the raw text without its ending; trailing whitespace
// counts. Bytes that are not UTF-8 count as U+FFFD.
func LineHash(line string) string {
	h := uint32(2166136261)
	for _, r := range line {
		c := uint32(r)
		for {
			h ^= c & 0xFF
			h *= 16777619
			c >>= 8
			if c == 0 {
				break
			}
		}
	}
	b := byte(h) ^ byte(h>>8) ^ byte(h>>16) ^ byte(h>>24)
	const hex = "0123456789abcdef"
	return string([]byte{hex[b>>4], hex[b&15]})
}

// PatchSection is one "@@ PATH" section of a kli patch.
type PatchSection struct {
	Path string
	Line int // the header's line in the patch
	Ops  []PatchOp
}

// PatchOp is one kli op: '+' insert after, '<' insert before, '-' delete,
// '=' replace.
type PatchOp struct {
	Kind    byte
	From    *LineAnchor // nil for a bare + (end of file) or < (start of file)
	To      *LineAnchor // the range end for - and =; equal to From for one line
	Payload []string
	Line    int // the marker's line in the patch
}

// LineAnchor is LINE:HH.
type LineAnchor struct {
	Line int
	Hash string
}

func (a LineAnchor) String() string { return fmt.Sprintf("%d:%s", a.Line, a.Hash) }

// Problem is one thing wrong with a patch. A patch gathers all of them
// across all its files before it refuses (docs/contract.md §17.3).
type Problem struct {
	Path    string `json:"path,omitempty"`
	Line    int    `json:"line,omitempty"`
	Code    Code   `json:"code"`
	Message string `json:"message"`
}

// ParsePatch reads a kli patch. It returns every syntax problem it finds,
// not only the first.
func ParsePatch(src string) ([]PatchSection, []Problem) {
	if len(src) > MaxOpsBytes {
		return nil, []Problem{{Code: CodeInvalidArgument, Message: fmt.Sprintf("the patch is %d bytes, over the %d-byte limit: split it into several patches", len(src), MaxOpsBytes)}}
	}
	p := &patchParser{flagged: map[int]bool{}, discard: PatchOp{Kind: '='}}
	for i, l := range splitLines(src) {
		p.line(i+1, l)
	}
	p.finish()
	return p.secs, p.problems
}

// patchParser is the state of one ParsePatch.
type patchParser struct {
	secs     []PatchSection
	problems []Problem
	cur      *PatchOp // the op that payload rows join
	// discard takes the payload rows of an op line that was refused,
	// so they do not each count as a second problem.
	discard PatchOp
	flagged map[int]bool // sections with a problem of their own
	ops     int
}

func (p *patchParser) bad(line int, format string, args ...any) {
	path := ""
	if len(p.secs) > 0 {
		path = p.secs[len(p.secs)-1].Path
		p.flagged[len(p.secs)-1] = true
	}
	p.problems = append(p.problems, Problem{Path: path, Line: line, Code: CodeParseFailed, Message: fmt.Sprintf("patch line %d: ", line) + fmt.Sprintf(format, args...)})
}

// line reads line n of the patch, l.
func (p *patchParser) line(n int, l string) {
	switch {
	case strings.HasPrefix(l, "@@"):
		path := strings.TrimSpace(strings.TrimPrefix(l, "@@"))
		if path == "" {
			p.bad(n, "the section header names no file: write @@ path/to/file")
		}
		p.secs = append(p.secs, PatchSection{Path: path, Line: n})
		p.cur = nil
	case strings.HasPrefix(l, "~"):
		if p.cur == nil || p.cur.Kind == '-' {
			what := "a ~ payload row follows no op"
			if p.cur != nil {
				what = "a - op deletes and takes no ~ payload"
			}
			p.bad(n, "%s: put payload rows under a +, < or = op", what)
			return
		}
		p.cur.Payload = append(p.cur.Payload, l[1:])
	case strings.TrimSpace(l) == "":
		// Blank lines between ops are for people; a blank payload row
		// is written "~".
	case l[0] == ' ' || l[0] == '\t':
		p.bad(n, "markers start in column 1: remove the leading whitespace; a payload line that starts with blanks is written ~ followed by it")
		if p.cur == nil {
			p.cur = &p.discard
		}
	case strings.IndexByte("+<-=", l[0]) >= 0:
		if len(p.secs) == 0 {
			p.bad(n, "an op comes before any @@ PATH header: start the section with @@ path/to/file")
			p.cur = &p.discard
			return
		}
		op, msg := parsePatchOp(l)
		if msg != "" {
			p.bad(n, "%s", msg)
			p.cur = &p.discard
			return
		}
		op.Line = n
		p.ops++
		sec := &p.secs[len(p.secs)-1]
		sec.Ops = append(sec.Ops, op)
		p.cur = &sec.Ops[len(sec.Ops)-1]
	default:
		p.bad(n, "%q is not a marker: ops start with +, <, - or = in column 1, and a literal line is written ~ followed by it", clip(l, 40))
		if p.cur == nil {
			p.cur = &p.discard
		}
	}
}

// finish checks what only the whole patch shows: sections, ops and
// payloads that are missing, and the op count.
func (p *patchParser) finish() {
	if len(p.secs) == 0 && len(p.problems) == 0 {
		p.problems = append(p.problems, Problem{Code: CodeParseFailed, Message: "the patch holds no section: start with @@ path/to/file, then ops such as = 3:ab..4:cd with ~ payload rows"})
	}
	if p.ops > MaxOpsPerCall {
		p.problems = append(p.problems, Problem{Code: CodeInvalidArgument, Message: fmt.Sprintf("the patch holds %d ops, over the limit of %d: split it into several patches", p.ops, MaxOpsPerCall)})
	}
	for i, sec := range p.secs {
		// A section whose ops were all refused is reported through them;
		// one that never had any is a problem of its own, not a no-op.
		if len(sec.Ops) == 0 && !p.flagged[i] {
			p.problems = append(p.problems, Problem{Path: sec.Path, Line: sec.Line, Code: CodeParseFailed,
				Message: fmt.Sprintf("patch line %d: the section @@ %s holds no op: put ops such as = 3:ab..4:cd with ~ payload rows under it, or remove the header", sec.Line, sec.Path)})
		}
		for _, op := range sec.Ops {
			if op.Kind != '-' && len(op.Payload) == 0 {
				p.problems = append(p.problems, Problem{Path: sec.Path, Line: op.Line, Code: CodeParseFailed,
					Message: fmt.Sprintf("patch line %d: the %c op has no ~ payload rows: add the lines to write, one ~text per line (to delete, use -)", op.Line, op.Kind)})
			}
		}
	}
}

func parsePatchOp(l string) (PatchOp, string) {
	op := PatchOp{Kind: l[0]}
	rest := l[1:]
	if rest == "" {
		if op.Kind == '+' || op.Kind == '<' {
			return op, "" // end or start of file
		}
		return op, fmt.Sprintf("%c needs a range: write %c A:HH..B:HH", op.Kind, op.Kind)
	}
	if rest[0] != ' ' {
		return op, fmt.Sprintf("put one space after the %c marker, as in %c 12:ab", op.Kind, op.Kind)
	}
	rest = strings.TrimRight(rest[1:], " \t")
	a, b, isRange := strings.Cut(rest, "..")
	from, msg := parseLineAnchor(a)
	if msg != "" {
		return op, msg
	}
	op.From, op.To = &from, &from
	switch {
	case isRange && (op.Kind == '+' || op.Kind == '<'):
		return op, fmt.Sprintf("%c takes one anchor, not a range: write %c %s", op.Kind, op.Kind, from)
	case isRange:
		to, msg := parseLineAnchor(b)
		if msg != "" {
			return op, msg
		}
		if to.Line < from.Line {
			return op, fmt.Sprintf("the range %s..%s is reversed: write %s..%s", from, to, to, from)
		}
		op.To = &to
	}
	return op, ""
}

func parseLineAnchor(s string) (LineAnchor, string) {
	n, h, ok := strings.Cut(s, ":")
	line, err := strconv.Atoi(n)
	if !ok || err != nil || line < 1 || len(h) != 2 || strings.Trim(h, "0123456789abcdef") != "" {
		return LineAnchor{}, fmt.Sprintf("%q is not an anchor: write LINE:HH as read shows it, e.g. 12:ab", clip(s, 30))
	}
	return LineAnchor{Line: line, Hash: h}, ""
}

// PlanPatch checks the ops of one file against live, as kli does, and
// computes the new text. Every anchor must name a line in range whose live
// hash is the anchor's; ranges may not overlap; inserts may not fall inside
// a range; a line that could only be shown clipped may not be replaced. It
// returns all problems; with any, the plan is nil. The caller has checked
// that the session read the file.
func PlanPatch(path, display string, ops []PatchOp, live *Text) (*Plan, []Problem) {
	pl := &patchPlanner{display: display, live: live}
	for i, op := range ops {
		pl.lower(i, op)
	}
	pl.checkOverlaps()
	if len(pl.edits) > MaxIRLines {
		pl.problems = append(pl.problems, Problem{Path: display, Code: CodeAmplificationLimit, Message: amplification().Message})
	}
	if len(pl.problems) > 0 {
		return nil, pl.problems
	}
	p := &Plan{Path: path, Old: live, Summary: fmt.Sprintf("patch: %d op(s)", len(ops))}
	p.Hunks = apply(live, pl.edits)
	p.Edits = live.Edits(p.Hunks)
	p.New = live.Apply(p.Edits)
	if len(p.Hunks) == 0 || p.New.Raw() == live.Raw() {
		return nil, []Problem{{Path: display, Code: CodeNoChange, Message: fmt.Sprintf("%s: the ops leave the file exactly as it is: if a change was intended, compare the ~ rows with the lines as read", display)}}
	}
	return p, nil
}

// patchPlanner is the state of one PlanPatch.
type patchPlanner struct {
	display  string
	live     *Text
	problems []Problem
	// ranges and gaps are the lines the ops replace and the gaps they
	// insert at, each with the op's line in the patch.
	ranges, gaps []patchSpan
	edits        []ir
}

type patchSpan struct{ lo, hi, line int }

func (pl *patchPlanner) bad(line int, code Code, format string, args ...any) {
	pl.problems = append(pl.problems, Problem{Path: pl.display, Line: line, Code: code, Message: fmt.Sprintf("%s, patch line %d: ", pl.display, line) + fmt.Sprintf(format, args...)})
}

// holds reports whether anchor a of op still names its line.
func (pl *patchPlanner) holds(op PatchOp, a *LineAnchor) bool {
	n := pl.live.Len()
	if a.Line > n {
		pl.bad(op.Line, CodeRangeInvalid, "anchor %s is past the end of the file (%s): re-read the end of %s and resend", a, lineCount(n), pl.display)
		return false
	}
	if got := LineHash(pl.live.Line(a.Line)); got != a.Hash {
		pl.bad(op.Line, CodeTagMismatch, "anchor %s is stale: line %d is now %s|%s; re-read around line %d and resend", a, a.Line, got, clip(pl.live.Line(a.Line), 60), a.Line)
		return false
	}
	return true
}

// lower checks op, the i-th, and turns it into inserts and deletes.
func (pl *patchPlanner) lower(i int, op PatchOp) {
	if op.From != nil {
		ok := pl.holds(op, op.From)
		if *op.To != *op.From {
			ok = pl.holds(op, op.To) && ok
		}
		if !ok {
			return
		}
	}
	switch op.Kind {
	case '+', '<':
		gap := 0
		switch {
		case op.From == nil && op.Kind == '+':
			gap = pl.live.Len()
		case op.From != nil && op.Kind == '+':
			gap = op.From.Line
		case op.From != nil:
			gap = op.From.Line - 1
		}
		pl.gaps = append(pl.gaps, patchSpan{gap, gap, op.Line})
		for _, row := range op.Payload {
			pl.edits = append(pl.edits, ir{kind: irInsert, op: i, gap: gap, text: row})
		}
	case '-', '=':
		lo, hi := op.From.Line, op.To.Line
		ok := true
		for l := lo; l <= hi; l++ {
			if !showable(pl.live.Line(l)) {
				pl.bad(op.Line, CodeLinesUnseen, "line %d is too long or not UTF-8, so read could only show it clipped: it cannot be replaced by line; rewrite the file with hashline_write", l)
				ok = false
			}
		}
		if !ok {
			return
		}
		pl.ranges = append(pl.ranges, patchSpan{lo, hi, op.Line})
		for _, row := range op.Payload {
			pl.edits = append(pl.edits, ir{kind: irInsert, op: i, gap: lo - 1, text: row, span: true})
		}
		for l := lo; l <= hi; l++ {
			pl.edits = append(pl.edits, ir{kind: irDelete, op: i, lo: l})
		}
	}
}

// checkOverlaps refuses ranges that share a line and inserts into a range.
func (pl *patchPlanner) checkOverlaps() {
	ranges := pl.ranges
	sort.Slice(ranges, func(a, b int) bool { return ranges[a].lo < ranges[b].lo })
	for k := 1; k < len(ranges); k++ {
		if ranges[k].lo <= ranges[k-1].hi {
			pl.bad(ranges[k].line, CodeRangeInvalid, "this range overlaps the one at patch line %d (lines %d-%d and %d-%d): split or merge them so no line is in two ops", ranges[k-1].line, ranges[k-1].lo, ranges[k-1].hi, ranges[k].lo, ranges[k].hi)
		}
	}
	for _, g := range pl.gaps {
		for _, r := range ranges {
			// A gap strictly inside a range would insert into text that
			// the range removes.
			if g.lo >= r.lo && g.lo < r.hi {
				pl.bad(g.line, CodeRangeInvalid, "this insert falls inside the range of patch line %d (lines %d-%d): move it before or after the range, or put its lines in the range's payload", r.line, r.lo, r.hi)
			}
		}
	}
}

// showable reports whether read shows line in full, so a patch may replace
// it (docs/contract.md §5.3: a clipped line was never displayed).
func showable(line string) bool {
	if !utf8.ValidString(line) {
		return false
	}
	cut, _ := clipAt(line, MaxLineChars)
	return cut == len(line)
}

// PatchError folds a patch's problems into one error: the first problem's
// code, and every problem in the message and details, so one answer lists
// all that must change.
func PatchError(problems []Problem) *Error {
	sort.SliceStable(problems, func(a, b int) bool {
		if problems[a].Path != problems[b].Path {
			return problems[a].Path < problems[b].Path
		}
		return problems[a].Line < problems[b].Line
	})
	var b strings.Builder
	fmt.Fprintf(&b, "the patch has %d problem(s) and nothing was written", len(problems))
	for i, p := range problems {
		fmt.Fprintf(&b, "; %d) %s", i+1, p.Message)
	}
	return &Error{Code: problems[0].Code, Message: b.String(), Details: Details{Problems: problems}}
}
