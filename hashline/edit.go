package hashline

import (
	"fmt"
	"path"
	"strings"
)

// EditRequest is one edit call, its path already resolved by the edge.
type EditRequest struct {
	Path    string // canonical path: the snapshot store's key
	Display string // the path as headers show it
	// Names are the spellings a leading [path#TAG] line in ops may use for
	// this file (docs/contract.md §7.2): the argument as given and the display path.
	Names []string
	Tag   string
	Ops   string
	// Patch is Ops already parsed, when the caller parsed it; Ops is then
	// not read.
	Patch *Patch
	// Blocks resolves N* locators; nil declines them.
	Blocks BlockResolver
	// Stateless says the caller remembers nothing between calls (the shell
	// verbs: docs/contract.md §2.2), so the tag is
	// checked against the live text and nothing of what the session was
	// shown. Otherwise a tag the session never recorded for the path is
	// EDIT_TAG_UNKNOWN, unless the path aged out of the store.
	Stateless bool
	// DryRun says the call only plans, for a person to approve: a refusal
	// then records nothing of what it shows, so the session is as it was.
	DryRun bool
}

// Plan is a proven edit: the exact new text and how to get there from the
// live text it was proven against. Nothing has been written yet.
type Plan struct {
	Path string
	Old  *Text
	// New is the text to write, Hunks and Edits the line and byte changes
	// that turn Old into it. Untouched lines are outside every hunk.
	New      *Text
	Hunks    []Hunk
	Edits    []ByteEdit
	Remove   bool   // REM: delete the file
	Move     string // MV: the destination as written
	Resolved []Resolved
	Warnings []Warning
	// Summary lists the ops as canonical headers, for change annotations.
	Summary string

	captures []capture
}

// capture is a named register a call filled, committed only when the call's
// write lands.
type capture struct {
	name  string
	lines []string
}

// Plan proves an edit against live, the text the file holds now, and
// returns the new text; or it returns an *Error and changes nothing but
// what the session was shown (docs/contract.md §12).
func (s *Session) Plan(req EditRequest, live *Text) (*Plan, error) {
	tag, err := ParseTag(req.Tag)
	if err != nil {
		return nil, err
	}
	patch := req.Patch
	if patch == nil {
		if patch, err = Parse(req.Ops); err != nil {
			return nil, err
		}
	}
	if err := checkHeader(patch, req, tag); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()

	g := gate{s: s, req: req, tag: tag, patch: patch, live: live}
	return g.run()
}

func checkHeader(patch *Patch, req EditRequest, tag Tag) error {
	if patch.HeaderPath == "" {
		return nil
	}
	same := false
	for _, n := range req.Names {
		if path.Clean(strings.TrimPrefix(n, "./")) == path.Clean(strings.TrimPrefix(patch.HeaderPath, "./")) {
			same = true
		}
	}
	if same && patch.HeaderTag == tag {
		return nil
	}
	return &Error{Code: CodeInvalidArgument, Details: Details{Field: "ops"},
		Message: fmt.Sprintf("ops begins with %s but the call names %s: the header and the arguments must agree; drop the header line, or fix path and tag to the file you mean",
			Header(patch.HeaderPath, patch.HeaderTag), Header(req.Display, tag))}
}

// gate runs one call through the branches of docs/contract.md §12.
type gate struct {
	s     *Session
	req   EditRequest
	tag   Tag
	patch *Patch
	live  *Text
}

func (g *gate) run() (*Plan, error) {
	versions := g.s.store.Lookup(g.req.Path, g.tag)
	// A tag this session never recorded for the path proves nothing about
	// what it was shown: a session must read before it edits (docs/contract.md §12.2), and a
	// tag handed over from elsewhere does not count. Only a tag the store's
	// bounds pushed out degrades to a version check (docs/contract.md §6.5).
	if len(versions) == 0 && !g.req.Stateless && !g.s.store.AgedOut(g.req.Path, g.tag) {
		return nil, g.unknown()
	}
	// The live text unchanged since the read is known by comparing it with
	// what the session holds, not by hashing it.
	if !g.live.Hashed() {
		for _, v := range g.s.store.Versions(g.req.Path) {
			if v.recalls(g.live) {
				break
			}
		}
	}
	collision := false
	if g.live.Tag() == g.tag {
		var snap *Snapshot
		for _, v := range versions {
			if v.Digest == g.live.Digest() {
				snap = v
				break
			}
		}
		if len(versions) == 0 || snap != nil {
			return g.build(g.live, snap)
		}
		// A tag match authorizes nothing when the session read a different
		// text under this tag: the match is a 16-bit collision, and the
		// live text is drift, which branch B or C may still place safely.
		collision = true
	}
	if g.positionStable() {
		return g.stable()
	}
	if len(versions) == 0 {
		return nil, g.unknown()
	}
	d, err := g.recoverDrift(versions)
	if d.plan != nil || err != nil {
		return d.plan, err
	}
	return nil, g.reject(d, collision)
}

// sequence is checked before a tag failure is reported: a paste before
// any capture, or of an ambiguous anonymous register, is not what a fresh
// read would fix, and docs/contract.md §9.2 forbids reporting it as a tag mismatch. Each
// refusal runs it before it records the rows it shows, so a call refused
// for its ops records nothing.
func (g *gate) sequence() error { return checkSequence(g.patch.Ops, g.s.regs.has) }

// stable is branch B: every op sits at the head or the end of the file,
// which no drift moves.
func (g *gate) stable() (*Plan, error) {
	p, err := g.build(g.live, nil)
	if err != nil {
		return nil, err
	}
	p.Warnings = append(p.Warnings, Warning{Kind: WarnDrift, Message: fmt.Sprintf(
		"%s changed since tag %s (it is %s now); the ops touch only the head or end of the file, so they were applied to the current text",
		g.req.Display, g.tag, g.live.Tag())})
	return p, nil
}

// positionStable reports whether every op targets only the file head or
// end (branch B): positions content drift cannot move.
func (g *gate) positionStable() bool {
	for _, op := range g.patch.Ops {
		switch {
		case op.Kind == OpMove:
		case (op.Kind == OpPut || op.Kind == OpPaste && op.Register != "") &&
			(op.Loc.Kind == LocEnd || op.Loc.Kind == LocBefore && op.Loc.N == 1):
		default:
			return false
		}
	}
	return true
}

// build lowers the ops against t, runs the provenance gate when snap holds
// what the session was shown, and computes the new text.
func (g *gate) build(t *Text, snap *Snapshot) (*Plan, error) {
	prog, err := lower(t, g.req.Path, g.patch.Ops, g.req.Blocks)
	if err != nil {
		return nil, err
	}
	if snap != nil {
		if err := g.provenance(prog, snap); err != nil {
			return nil, err
		}
	}
	cb := &clipboard{named: g.s.regs.Get, pending: map[string][]string{}}
	edits, err := prog.expand(cb)
	if err != nil {
		return nil, err
	}
	p := g.plan(prog, edits, t, cb)
	// Hunks can cancel out (one op inserts a line that another deletes
	// further on), so the text decides, as the model would read it.
	if !p.Remove && p.Move == "" && (len(p.Hunks) == 0 || p.New.Digest() == t.Digest() && p.New.Normalized() == t.Normalized()) {
		return nil, g.noChange(prog)
	}
	if sc := syntaxOf(g.req.Blocks); sc != nil && !p.Remove {
		return g.retain(sc, t, p, prog, edits, cb)
	}
	return p, nil
}

// plan applies plain edits to t and assembles the Plan.
func (g *gate) plan(prog *program, edits []ir, t *Text, cb *clipboard) *Plan {
	p := &Plan{
		Path:     g.req.Path,
		Old:      t,
		Resolved: prog.resolved,
		Warnings: append(append([]Warning(nil), g.patch.Warnings...), prog.warnings...),
		Summary:  describeOps(g.patch.Ops),
		captures: cb.committed(),
	}
	for _, op := range g.patch.Ops {
		switch op.Kind {
		case OpRem:
			p.Remove = true
		case OpMove:
			p.Move = op.Dest
		}
	}
	p.Hunks = apply(t, edits)
	p.Edits = t.Edits(p.Hunks)
	p.New = t.Apply(p.Edits)
	return p
}

func (g *gate) noChange(prog *program) *Error {
	var lines []int
	for _, a := range prog.anchors {
		lines = append(lines, a...)
	}
	where := "the file"
	if len(lines) > 0 {
		where = "lines " + formatRanges(sortedUnique(lines))
	}
	return &Error{Code: CodeNoChange, Details: Details{Lines: sortedUnique(lines), LiveTag: string(g.live.Tag())},
		Message: fmt.Sprintf("the ops leave %s exactly as they are, so nothing was written: if a change was intended, compare the + rows with the lines as read; otherwise the file already holds this text", where)}
}

// provenance is the gate of docs/contract.md §12.4: every anchor must be a line the session
// was shown in full. A refusal reveals the unseen lines; when the reveal
// shows all of them at full width they count as seen from then on, so the
// same call succeeds on retry. A partial reveal merges nothing.
func (g *gate) provenance(prog *program, snap *Snapshot) error {
	var unseen []int
	for i := range prog.anchors {
		for _, l := range prog.anchors[i] {
			if !snap.Seen.Has(l) {
				unseen = append(unseen, l)
			}
		}
	}
	if len(unseen) == 0 {
		return nil
	}
	unseen = sortedUnique(unseen)
	shown := unseen[:min(len(unseen), MaxRevealLines)]
	view := RenderRows(g.req.Display, g.live, shown, MaxRevealChars)
	complete := len(shown) == len(unseen) && len(view.Clipped) == 0
	span := formatRanges(unseen)
	e := &Error{Code: CodeLinesUnseen, Details: Details{Lines: unseen, Content: view.Content, LiveTag: string(g.live.Tag()), Merged: complete && !g.req.DryRun}}
	if complete {
		if !g.req.DryRun {
			snap.Seen.Union(view.Seen)
		}
		e.Message = fmt.Sprintf("line(s) %s were never shown to you; their content is below and now counts as shown: check that your ops fit it, then send the same call again", span)
		return e
	}
	// A line no read shows in full (docs/contract.md §5.3) is never shown:
	// asking for a read of it would only loop.
	var blind []int
	for _, l := range unseen {
		if !showable(g.live.Line(l)) {
			blind = append(blind, l)
		}
	}
	if len(blind) > 0 {
		e.Message = fmt.Sprintf("line(s) %s were never shown to you, and no read can show line(s) %s in full (over %d characters, or not valid UTF-8), so no edit can anchor there: anchor on other lines, or rewrite the file with hashline_write",
			span, formatRanges(blind), MaxLineChars)
		return e
	}
	lo, hi := unseen[0], unseen[len(unseen)-1]
	e.Message = fmt.Sprintf("line(s) %s were never shown to you (%s; at most %d are revealed here, rows clipped at %d characters, so none counts as shown): read them with offset %d and limit %d, then retry",
		span, lineCount(len(unseen)), MaxRevealLines, MaxRevealChars, lo, hi-lo+1)
	return e
}

// opLines lists the line numbers the ops name, as written.
func (g *gate) opLines() []int {
	var lines []int
	for _, op := range g.patch.Ops {
		switch op.Loc.Kind {
		case LocRange:
			lines = append(lines, op.Loc.N, op.Loc.M)
		case LocBlock, LocBefore, LocAfter, LocAfterBlock:
			lines = append(lines, op.Loc.N)
		}
	}
	return sortedUnique(lines)
}

// around renders the live lines near each anchor and records them as
// shown, so one honest retry needs no extra read. With a line map from the
// tagged snapshot, each anchor is looked up where it moved to (or, when it
// changed, where it would be), and rows that changed since the snapshot
// are marked >>>.
func (g *gate) around(lines *lineMap) (string, []int) {
	live := g.live
	var set LineSet
	for _, a := range g.opLines() {
		at := a
		if lines != nil {
			at = lines.where(a)
		}
		set.AddRange(max(1, at-DriftContextLines), min(live.Len(), at+DriftContextLines))
	}
	var rows []int
	for _, sp := range set.spans {
		for l := sp.lo; l <= sp.hi && len(rows) < 4*MaxRevealLines; l++ {
			rows = append(rows, l)
		}
	}
	if len(rows) == 0 {
		for l := 1; l <= min(live.Len(), 2*DriftContextLines+1); l++ {
			rows = append(rows, l)
		}
	}
	view := RenderRows(g.req.Display, live, rows, MaxRevealChars)
	if !g.req.DryRun {
		g.s.store.Record(g.req.Path, live, view.Seen)
	}
	if lines == nil {
		return view.Content, rows
	}
	return markChanged(view.Content, rows, lines), rows
}

// markChanged prefixes the rows of lines that changed since the snapshot
// with >>>.
func markChanged(content string, rows []int, lines *lineMap) string {
	var b strings.Builder
	header, body, _ := strings.Cut(content, "\n")
	b.WriteString(header)
	b.WriteByte('\n')
	for i := 0; body != ""; i++ {
		var row string
		row, body, _ = strings.Cut(body, "\n")
		if i < len(rows) && lines.changedSince(rows[i]) {
			b.WriteString(">>>")
		}
		b.WriteString(row)
		b.WriteByte('\n')
	}
	return b.String()
}

// reject is branch D, after branch C declined as d says; collision says
// the tag matched but named another text.
func (g *gate) reject(d drift, collision bool) error {
	if err := g.sequence(); err != nil {
		return err
	}
	content, rows := g.around(d.lines)
	live := g.live.Tag()
	msg := fmt.Sprintf("%s changed since your read: tag %s no longer matches (the file's tag is %s now)", g.req.Display, g.tag, live)
	if collision {
		msg = fmt.Sprintf("%s changed since your read: its tag is still %s, but the text is not the text you read under that tag", g.req.Display, g.tag)
	}
	if d.why != "" {
		msg += ", and the edit could not be placed safely: " + d.why
	}
	marked := ""
	if d.lines != nil {
		marked = ", rows marked >>> changed since your read"
	}
	return &Error{Code: CodeTagMismatch, Details: Details{LiveTag: string(live), Lines: g.opLines(), Content: content},
		Message: fmt.Sprintf("%s. The lines around your anchors as they are now are below (%s%s) and count as read: rebuild the ops against tag %s and these line numbers, or read the file again",
			msg, rowSpan(rows), marked, live)}
}

// unknown is the stale-tag failure when the session never recorded the tag.
func (g *gate) unknown() error {
	if err := g.sequence(); err != nil {
		return err
	}
	content, rows := g.around(nil)
	live := g.live.Tag()
	why := fmt.Sprintf("this session has no read of %s under tag %s", g.req.Display, g.tag)
	if g.s.store.AgedOut(g.req.Path, g.tag) {
		why = fmt.Sprintf("your read of %s under tag %s is too old: the file changed many times since (a person typing, or other edits), and this session keeps only its latest versions", g.req.Display, g.tag)
	}
	return &Error{Code: CodeTagUnknown, Details: Details{LiveTag: string(live), Lines: g.opLines(), Content: content},
		Message: fmt.Sprintf("%s (the file's tag is %s): the lines around your anchors are below (%s) and count as read; rebuild the ops against tag %s and these line numbers, or read the file first",
			why, live, rowSpan(rows), live)}
}

func rowSpan(rows []int) string {
	if len(rows) == 0 {
		return "the file is empty"
	}
	return "lines " + formatRanges(rows)
}

func sortedUnique(xs []int) []int {
	var s LineSet
	for _, x := range xs {
		s.Add(x)
	}
	out := make([]int, 0, len(xs))
	for _, sp := range s.spans {
		for l := sp.lo; l <= sp.hi; l++ {
			out = append(out, l)
		}
	}
	return out
}
