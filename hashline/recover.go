package hashline

import (
	"fmt"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// lineMap maps the lines of an old text that survive unchanged in a new
// text: old line i (1-based) is new line at[i], or 0 when it changed or
// went. It comes from a line diff, so every pair it holds is two equal
// lines; whether a pair is the right one among duplicates is what context
// validation (§10 step 4) has to prove.
type lineMap struct {
	at  []int // indexed by old line; at[0] unused
	rev []int // indexed by new line: the old line, or 0
}

// diffLines diffs old against new on whole lines. The diff itself is
// sergi/go-diff's Myers implementation, run on one rune per distinct line;
// the lines are interned here rather than through its DiffLinesToRunes,
// which costs more than the diff.
func diffLines(old, new *Text) (*lineMap, bool) {
	ids := make(map[string]rune, old.Len())
	encode := func(t *Text) ([]rune, bool) {
		out := make([]rune, t.Len())
		for i := range out {
			l := t.Line(i + 1)
			id, ok := ids[l]
			if !ok {
				id = lineRune(len(ids))
				if id > utf8.MaxRune {
					return nil, false
				}
				ids[l] = id
			}
			out[i] = id
		}
		return out, true
	}
	a, ok := encode(old)
	if !ok {
		return nil, false
	}
	b, ok := encode(new)
	if !ok {
		return nil, false
	}
	m := &lineMap{at: make([]int, len(a)+1), rev: make([]int, len(b)+1)}
	i, j := 1, 1
	for _, d := range diffmatchpatch.New().DiffMainRunes(a, b, false) {
		n := utf8.RuneCountInString(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for k := 0; k < n; k++ {
				m.at[i+k], m.rev[j+k] = j+k, i+k
			}
			i, j = i+n, j+n
		case diffmatchpatch.DiffDelete:
			i += n
		case diffmatchpatch.DiffInsert:
			j += n
		}
	}
	return m, true
}

// lineRune turns a line's index into a rune that survives a round trip
// through a Go string, which the diff makes: surrogates are skipped.
func lineRune(i int) rune {
	r := rune(i + 1)
	if r >= 0xD800 {
		r += 0x800
	}
	return r
}

// changedSince reports whether live line n is not an unchanged line of the
// snapshot.
func (m *lineMap) changedSince(n int) bool { return n >= len(m.rev) || m.rev[n] == 0 }

// recovery is branch C's attempt on one snapshot.
type recovery struct {
	snap   *Snapshot
	old    *Text
	live   *Text
	lines  *lineMap
	offset int
	why    string // set when declined: what the model should know
}

// recoverDrift is branch C (§10): it proves that every anchor still maps to
// one unchanged region of the live text, all by one offset, and replays the
// ops there. It never edits the snapshot and writes that. When the tag names
// several texts (a collision), all of them are tried and any disagreement
// declines. The reason for declining is returned for the refusal's message.
func (g *gate) recoverDrift(versions []*Snapshot) (*Plan, string, *lineMap) {
	var (
		plan  *Plan
		first *recovery
		why   string
	)
	for _, snap := range versions {
		p, r, err := g.recoverFrom(snap)
		if first == nil {
			first = r
		}
		if err != nil || p == nil {
			if r != nil && why == "" {
				why = r.why
			}
			continue
		}
		if plan != nil && plan.New.Raw() != p.New.Raw() {
			return nil, "the tag names two texts this session read, and the edit lands differently on each", nil
		}
		if plan == nil {
			plan = p
		}
	}
	var lines *lineMap
	if first != nil {
		lines = first.lines
	}
	if plan == nil {
		return nil, why, lines
	}
	return plan, "", lines
}

// recoverFrom attempts recovery from one snapshot. A nil plan with a
// recovery whose why is set is a decline.
func (g *gate) recoverFrom(snap *Snapshot) (*Plan, *recovery, error) {
	r := &recovery{snap: snap, live: g.live}
	if !snap.Retained {
		r.why = fmt.Sprintf("the file is over %d MiB, so the text you read was not kept and the change cannot be traced", MaxRetainedFileBytes>>20)
		return nil, r, nil
	}
	r.old = NewText(snap.Text)
	prog, err := lower(r.old, g.req.Path, g.patch.Ops, g.req.Blocks)
	if err != nil {
		r.why = err.Error()
		return nil, r, err
	}
	// The provenance gate guards branch A; a stale tag must not become a
	// way around it, so an anchor the session was never shown declines.
	for i := range prog.anchors {
		for _, l := range prog.anchors[i] {
			if !snap.Seen.Has(l) {
				r.why = fmt.Sprintf("line %d was never shown to you", l)
				return nil, r, nil
			}
		}
	}
	lines, ok := diffLines(r.old, g.live)
	if !ok {
		r.why = "the file has too many distinct lines to trace the change"
		return nil, r, nil
	}
	r.lines = lines
	if !r.anchorsHold(prog) {
		return nil, r, nil
	}
	cb := &clipboard{named: g.s.regs.Get, pending: map[string][]string{}}
	edits, err := prog.expand(cb)
	if err != nil {
		return nil, r, err
	}
	n := g.live.Len()
	for i := range edits {
		switch edits[i].kind {
		case irInsert:
			// The head and the end of the file stay where they are; every
			// other gap moves with its anchor.
			switch {
			case edits[i].gap == 0 && isHeadGap(prog, edits[i].op):
			case edits[i].gap == r.old.Len() && isEndGap(prog, edits[i].op):
				edits[i].gap = n
			default:
				edits[i].gap += r.offset
			}
		case irDelete:
			edits[i].lo += r.offset
		}
	}
	p := g.plan(prog, edits, g.live, cb)
	p.Resolved = nil // line numbers moved: an echo would name the wrong lines
	if len(p.Hunks) == 0 || p.New.Digest() == g.live.Digest() && p.New.Normalized() == g.live.Normalized() {
		r.why = "replayed on the current text, the edit changes nothing"
		return nil, r, nil
	}
	p.Warnings = append(p.Warnings, r.warnings(g)...)
	return p, r, nil
}

func isHeadGap(prog *program, op int) bool {
	l := prog.ops[op].Loc
	return l.Kind == LocBefore && l.N == 1
}

func isEndGap(prog *program, op int) bool { return prog.ops[op].Loc.Kind == LocEnd }

// anchorsHold runs §10 steps 3 to 5: every anchor unchanged, proven by its
// neighbours, and all of them moved by one offset.
func (r *recovery) anchorsHold(prog *program) bool {
	set := map[int]bool{}
	var order []int
	for i := range prog.anchors {
		for _, l := range prog.anchors[i] {
			if !set[l] {
				set[l] = true
				order = append(order, l)
			}
		}
	}
	if len(order) == 0 {
		r.why = "the ops name no line to trace"
		return false
	}
	counts := lineCounts(r.old)
	liveCounts := lineCounts(r.live)
	first := true
	for _, l := range order {
		to := r.lines.at[l]
		if to == 0 {
			r.why = fmt.Sprintf("line %d (%q) changed or was removed since your read", l, clip(r.old.Line(l), 60))
			return false
		}
		off := to - l
		if first {
			r.offset, first = off, false
		} else if off != r.offset {
			r.why = fmt.Sprintf("lines between your anchors were added or removed (line %d moved by %+d, another anchor by %+d), so the ops no longer fit one place", l, off, r.offset)
			return false
		}
		// Context (§10 step 4): the nearest non-anchor line on each side
		// must map at the same offset; the file's ends count as mapped.
		above, below := l-1, l+1
		for above >= 1 && set[above] {
			above--
		}
		for below <= r.old.Len() && set[below] {
			below++
		}
		upOK := r.neighbourAt(above, off)
		downOK := r.neighbourAt(below, off)
		text := r.old.Line(l)
		unique := counts[text] == 1 && liveCounts[text] == 1
		if unique && !upOK && !downOK || !unique && !(upOK && downOK) {
			kind := "its neighbours"
			if !unique {
				kind = "both of its neighbours (its text appears more than once)"
			}
			r.why = fmt.Sprintf("the lines around line %d changed, and %s no longer confirm where it is", l, kind)
			return false
		}
	}
	return true
}

// neighbourAt reports whether old line l maps to l+off, treating the lines
// just outside the file as mapped to the live file's ends.
func (r *recovery) neighbourAt(l, off int) bool {
	switch {
	case l < 1:
		return off == 0
	case l > r.old.Len():
		return r.old.Len()+off == len(r.lines.rev)-1
	}
	return r.lines.at[l] == l+off
}

func lineCounts(t *Text) map[string]int {
	c := make(map[string]int, t.Len())
	for i := 1; i <= t.Len(); i++ {
		c[t.Line(i)]++
	}
	return c
}

// warnings name the cause of the drift (§10 table).
func (r *recovery) warnings(g *gate) []Warning {
	var w []Warning
	versions := g.s.store.Versions(g.req.Path)
	if len(versions) > 0 && versions[0] == r.snap {
		w = append(w, Warning{Kind: WarnRecovered, Message: fmt.Sprintf(
			"external change: %s changed outside this session since your read (tag %s, now %s); the lines you edit were unchanged, so the edit was applied to the current text", g.req.Display, g.tag, g.live.Tag())})
	} else {
		w = append(w, Warning{Kind: WarnRecovered, Message: fmt.Sprintf(
			"session chain: tag %s names an older version of %s than your latest read or edit; the lines you edit were unchanged, so the edit was applied to the current text: use the tag each result returns", g.tag, g.req.Display)})
	}
	if r.offset != 0 {
		w = append(w, Warning{Kind: WarnRecovered, Message: fmt.Sprintf(
			"line remap: lines were added or removed above your anchors, so the edit landed %s (by %+d); use the line numbers of the new tag from here on", shiftWord(r.offset), r.offset)})
	}
	return w
}

func shiftWord(off int) string {
	if off > 0 {
		return "lower in the file"
	}
	return "higher in the file"
}
