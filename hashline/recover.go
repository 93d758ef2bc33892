package hashline

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// lineMap maps the lines of an old text that survive unchanged in a new
// text: old line i (1-based) is new line at[i], or 0 when it changed or
// went. It comes from a line diff, so every pair it holds is two equal
// lines; whether a pair is the right one among duplicates is what context
// validation (docs/contract.md §13.1 step 7) and the slide check have to prove.
type lineMap struct {
	mem *mapMemory // what the tables below are cut from
	at  []int32    // indexed by old line; at[0] unused
	rev []int32    // indexed by new line: the old line, or 0
	// oldID and newID name each line's text by a small number, equal
	// numbers for equal text; index 0 is unused.
	oldID, newID []int32
	// unsure marks the old lines that another diff, just as short, would
	// pair differently (see markSlides).
	unsure []bool
	// wide is set when forcedPairs met a window too large to search.
	wide bool
	ids  int // the numbers of lines are below it
}

// diffLines diffs old against new on whole lines, without their endings,
// exactly (see diff.go): a line the diff wrongly calls changed would make
// recovery decline an edit it could place.
func diffLines(old, new *Text) (*lineMap, bool) {
	head, tail := sameEnds(old, new)
	// The new lines of the same head and tail name no line the old text
	// lacks, so the table takes the old lines and the new ones between.
	ids := newInternLines(old.Len() + new.Len() - head - tail)
	defer ids.release()
	m := newLineMap(old.Len(), new.Len())
	oldID, newID := m.oldID, m.newID
	for i := 1; i < len(oldID); i++ {
		oldID[i] = ids.id(old.Line(i))
	}
	copy(newID[1:head+1], oldID[1:head+1])
	copy(newID[len(newID)-tail:], oldID[len(oldID)-tail:])
	// Most new lines are the old line the changes so far moved them to:
	// compared with that one first, they need no lookup. After one that
	// does, the next old lines are looked at for it, so a line or a few
	// gone from the old text do not throw the guess off.
	known := int32(len(ids.reps))
	for j, i := head+1, head+1; j < len(newID)-tail; j++ {
		line := new.Line(j)
		if i < len(oldID) && old.Line(i) == line {
			newID[j], i = oldID[i], i+1
			continue
		}
		id := ids.id(line)
		newID[j] = id
		for d := 0; id < known && d < 4 && i+d < len(oldID); d++ {
			if oldID[i+d] == id {
				i += d + 1
				break
			}
		}
	}
	m.ids = len(ids.reps)
	ok := m.mem.sharedRuns(oldID[1:], newID[1:], m.ids, func(i, j, n int) {
		for k := 1; k <= n; k++ {
			m.at[i+k], m.rev[j+k] = int32(j+k), int32(i+k)
		}
	})
	if !ok {
		m.release()
		return nil, false
	}
	m.markSlides()
	return m, true
}

// mapMemory is the memory of a lineMap and of the diff that fills it,
// handed back by release for the next diff: a recovery on a small file
// otherwise spends more on allocating these tables, and on collecting
// them, than on filling them. Nothing in it points into the heap.
type mapMemory struct {
	tables  []int32 // at, rev, oldID and newID, one after another
	unsure  []bool
	present []bool   // sharedRuns': which numbers each side has
	shared  []int32  // sharedRuns': the lines each side keeps, and where
	slot    []int32  // lcsRows': where each number's masks are
	masks   []uint64 // lcsRows': the columns of each number
}

// maxPooledLines bounds the lines of the maps kept for reuse, so a diff
// of a large file holds no memory past its own end.
const maxPooledLines = 1 << 16

var mapPool = sync.Pool{New: func() any { return new(mapMemory) }}

// newLineMap is an empty map of an old text of n lines to a new one of k,
// its pairs all 0.
func newLineMap(n, k int) *lineMap {
	mem := &mapMemory{}
	if n+k <= maxPooledLines {
		mem = mapPool.Get().(*mapMemory)
	}
	a, b := n+1, k+1
	all := grown(mem.tables, 2*(a+b))
	clear(all[:a+b])
	mem.tables = all
	return &lineMap{mem: mem,
		at: all[:a:a], rev: all[a : a+b : a+b],
		oldID: all[a+b : 2*a+b : 2*a+b], newID: all[2*a+b : 2*(a+b) : 2*(a+b)]}
}

// release hands m's memory back for the next diff. Nothing may use m
// after: its tables are nil, so a use fails at once rather than reading
// another diff's pairs.
func (m *lineMap) release() {
	mem := m.mem
	*m = lineMap{}
	if mem != nil && len(mem.tables) <= 2*(maxPooledLines+2) {
		mapPool.Put(mem)
	}
}

// grown is b resliced to n, or a new slice of n when b has not the room;
// what it holds is not cleared.
func grown[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// sameEnds counts the lines old and new share, byte for byte with their
// endings, at the start and, apart from those, at the end: found by
// comparing the bytes, not the lines one by one.
func sameEnds(old, new *Text) (head, tail int) {
	x, y := old.x(), new.x()
	n := min(old.Len(), new.Len())
	p := samePrefix(old.raw, new.raw)
	for head < n && x.at(head+1) <= p && y.at(head+1) == x.at(head+1) {
		head++
	}
	a, b := old.raw[x.at(head):], new.raw[y.at(head):]
	q := len(a) - sameSuffix(a, b)
	for tail < n-head {
		s, t := x.at(old.Len()-1-tail), y.at(new.Len()-1-tail)
		if s-x.at(head) < q || len(old.raw)-s != len(new.raw)-t {
			break
		}
		tail++
	}
	return head, tail
}

// sameChunk is how many bytes samePrefix and sameSuffix compare at once.
const sameChunk = 256

// samePrefix is the length of the longest prefix a and b share.
func samePrefix(a, b string) int {
	n := min(len(a), len(b))
	p := 0
	for p+sameChunk <= n && a[p:p+sameChunk] == b[p:p+sameChunk] {
		p += sameChunk
	}
	for p < n && a[p] == b[p] {
		p++
	}
	return p
}

// sameSuffix is the length of the longest suffix a and b share.
func sameSuffix(a, b string) int {
	n := min(len(a), len(b))
	s := 0
	for s+sameChunk <= n && a[len(a)-s-sameChunk:len(a)-s] == b[len(b)-s-sameChunk:len(b)-s] {
		s += sameChunk
	}
	for s < n && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return s
}

// markSlides marks the old lines whose pairing is a guess. Where a change
// holds copies of the lines beside it, a diff of the same length can swap
// them: one "}" added below a "}" is just as well added above it, a copied
// block just as well sits before the original as after it, and a line
// deleted from a run of equal lines may be any of them. Every unchanged
// line such a swap can reach may belong to another copy, or to none, so no
// anchor and no confirming neighbour may rest on it. Runs of equal lines
// can be long; forcedPairs, which sees every kind of swap, only looks near
// the anchors, so this walk along them is what covers the rest.
func (m *lineMap) markSlides() {
	m.mem.unsure = grown(m.mem.unsure, len(m.at))
	m.unsure = m.mem.unsure
	clear(m.unsure)
	nOld, nNew := len(m.at)-1, len(m.rev)-1
	i0, j0 := 0, 0
	for i := 1; i <= nOld+1; i++ {
		j := nNew + 1
		if i <= nOld {
			if int(m.at[i]) == 0 {
				continue
			}
			j = int(m.at[i])
		}
		if i-i0 > 1 || j-j0 > 1 {
			del, ins := m.oldID[i0+1:i], m.newID[j0+1:j]
			m.walk(i, j, 1, del)
			m.walk(i, j, 1, ins)
			m.walk(i0, j0, -1, reversed(del))
			m.walk(i0, j0, -1, reversed(ins))
		}
		i0, j0 = i, j
	}
}

// walk marks the pairs from (i, j) on, in direction dir, that can trade
// places with the changed lines pool (in the order the walk meets them).
// The k-th pair can leave the diagonal only if the k-1 before it did, and
// each takes a later line of the pool than the one before, the lines
// already walked joining the pool's end; a greedy match decides that.
func (m *lineMap) walk(i, j, dir int, pool []int32) {
	if len(pool) == 0 {
		return
	}
	pool = slices.Clip(pool)
	p := 0
	for ; i >= 1 && i < len(m.at) && int(m.at[i]) == j; i, j = i+dir, j+dir {
		id := m.oldID[i]
		for p < len(pool) && pool[p] != id {
			p++
		}
		if p == len(pool) {
			return
		}
		p++
		m.unsure[i] = true
		pool = append(pool, id)
	}
}

func reversed(ids []int32) []int32 {
	out := slices.Clone(ids)
	slices.Reverse(out)
	return out
}

// where is the live line old line a is now or, when it changed or went,
// where it would be: as far below the nearest unchanged line above as it
// was, and above the nearest unchanged line below.
func (m *lineMap) where(a int) int {
	if a < 1 || a >= len(m.at) {
		return a
	}
	if int(m.at[a]) != 0 {
		return int(m.at[a])
	}
	lo, hi, at := 0, len(m.rev), a
	q := a + 1
	for q < len(m.at) && int(m.at[q]) == 0 {
		q++
	}
	if q < len(m.at) {
		hi, at = int(m.at[q]), int(m.at[q])-(q-a)
	}
	p := a - 1
	for p >= 1 && int(m.at[p]) == 0 {
		p--
	}
	if p >= 1 {
		lo, at = int(m.at[p]), int(m.at[p])+(a-p)
	}
	return max(lo+1, min(at, hi-1))
}

// changedSince reports whether live line n is not an unchanged line of the
// snapshot.
func (m *lineMap) changedSince(n int) bool { return n >= len(m.rev) || int(m.rev[n]) == 0 }

// recovery is branch C's attempt on one snapshot.
type recovery struct {
	snap   *Snapshot
	old    *Text
	live   *Text
	lines  *lineMap
	offset int
	forced map[int]bool // old lines whose pairing every shortest diff shares
	why    string       // set when declined: what the model should know
}

// drift is branch C's outcome: a plan, or a decline. why says what the
// model should know of it, and lines, when a diff ran, maps the first
// snapshot onto the live text, so the refusal can mark the rows that changed.
type drift struct {
	plan  *Plan
	why   string
	lines *lineMap
}

// recoverDrift is branch C (docs/contract.md §13): it proves that every anchor still maps to
// one unchanged region of the live text, all by one offset, and replays the
// ops there. It never edits the snapshot and writes that. When the tag names
// several texts (a collision), all of them are tried and any disagreement
// declines. Once the anchors are proven, the tag is not what is wrong, so a
// register failure of the clipboard pre-pass is returned as itself (docs/contract.md §13.1 step 8).
func (g *gate) recoverDrift(versions []*Snapshot) (drift, error) {
	var (
		plan   *Plan
		first  *recovery
		why    string
		opsErr error
	)
	// Only the first attempt's line map may leave, with a decline; the
	// plans keep none.
	defer func() {
		if plan != nil && first != nil && first.lines != nil {
			first.lines.release()
		}
	}()
	for _, snap := range versions {
		p, r, err := g.recoverFrom(snap)
		if first == nil {
			first = r
		} else if r.lines != nil {
			r.lines.release()
		}
		if err != nil && opsErr == nil {
			opsErr = err
		}
		if p == nil {
			if why == "" {
				why = r.why
			}
			continue
		}
		if plan != nil && plan.New.Raw() != p.New.Raw() {
			return drift{why: "the tag names two texts this session read, and the edit lands differently on each"}, nil
		}
		if plan == nil {
			plan = p
		}
	}
	if plan != nil {
		return drift{plan: plan}, nil
	}
	if opsErr != nil {
		return drift{}, opsErr
	}
	return drift{why: why, lines: first.lines}, nil
}

// recoverFrom attempts recovery from one snapshot. A nil plan with a
// recovery whose why is set is a decline.
func (g *gate) recoverFrom(snap *Snapshot) (*Plan, *recovery, error) {
	r := &recovery{snap: snap, live: g.live}
	if !snap.Retained {
		r.why = fmt.Sprintf("the file is over %d MiB, so the text you read was not kept and the change cannot be traced", MaxRetainedFileBytes>>20)
		return nil, r, nil
	}
	r.old = snap.shared.indexed
	prog, err := lower(r.old, g.req.Path, g.patch.Ops, g.req.Blocks)
	if err != nil {
		// Line numbers that do not fit the text the tag names are most
		// likely numbers of a newer text: the stale tag is the mistake.
		r.why = AsError(err).Message
		return nil, r, nil
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

// anchorsHold runs docs/contract.md §13.1 steps 5 to 7: every anchor unchanged and surely
// paired, proven by its neighbours, and all of them moved by one offset.
func (r *recovery) anchorsHold(prog *program) bool {
	var set LineSet
	for i := range prog.anchors {
		for _, l := range prog.anchors[i] {
			set.Add(l)
		}
	}
	if set.Len() == 0 {
		r.why = "the ops name no line to trace"
		return false
	}
	first := true
	for _, sp := range set.spans {
		for l := sp.lo; l <= sp.hi; l++ {
			to := int(r.lines.at[l])
			if to == 0 {
				r.why = fmt.Sprintf("line %d (%q) changed or was removed since your read", l, clip(r.old.Line(l), 60))
				return false
			}
			if r.lines.unsure[l] {
				r.why = fmt.Sprintf("line %d (%q) sits among repeated lines next to a change, so which copy of it you meant cannot be told", l, clip(r.old.Line(l), 60))
				return false
			}
			off := to - l
			if first {
				r.offset, first = off, false
			} else if off != r.offset {
				r.why = fmt.Sprintf("lines between your anchors were added or removed (line %d moved by %+d, another anchor by %+d), so the ops no longer fit one place", l, off, r.offset)
				return false
			}
		}
	}
	// A pairing the diff chose among equally good ones proves nothing:
	// every anchor must sit where any shortest diff would put it.
	check := map[int]bool{}
	for _, sp := range set.spans {
		for _, l := range []int{sp.lo - 1, sp.lo, sp.hi, sp.hi + 1} {
			if l >= 1 && l <= r.old.Len() && int(r.lines.at[l]) != 0 {
				check[l] = true
			}
		}
	}
	r.forced = r.lines.forcedPairs(check)
	for _, sp := range set.spans {
		for _, l := range []int{sp.lo, sp.hi} {
			switch {
			case !r.forced[l] && r.lines.wide:
				r.why = fmt.Sprintf("thousands of lines changed around line %d, too many to trace it through", l)
				return false
			case !r.forced[l]:
				r.why = fmt.Sprintf("line %d (%q) could as well be another copy of its text nearby, so where it is now cannot be told", l, clip(r.old.Line(l), 60))
				return false
			}
		}
	}
	// Context (docs/contract.md §13.1 step 7), judged per run of adjacent anchors, whose
	// nearest non-anchor lines are the ones just outside the run. A run
	// whose text occurs once in each file can only be where it was paired,
	// so one neighbour suffices; a repeated one needs both.
	for _, sp := range set.spans {
		upOK := r.neighbourAt(sp.lo-1, r.offset)
		downOK := r.neighbourAt(sp.hi+1, r.offset)
		unique := r.unique(sp.lo, sp.hi)
		if unique && (upOK || downOK) || upOK && downOK {
			continue
		}
		what := fmt.Sprintf("line %d", sp.lo)
		if sp.hi > sp.lo {
			what = fmt.Sprintf("lines %d-%d", sp.lo, sp.hi)
		}
		kind := "neither neighbour confirms where it is now"
		if !unique {
			kind = "its text appears more than once, and its neighbours above and below no longer both confirm where it is"
		}
		r.why = fmt.Sprintf("the lines around %s changed: %s", what, kind)
		return false
	}
	return true
}

// neighbourAt reports whether old line l is surely paired at l+off,
// treating the lines just outside the file as paired with the live file's
// ends.
func (r *recovery) neighbourAt(l, off int) bool {
	switch {
	case l < 1:
		return off == 0
	case l > r.old.Len():
		return r.old.Len()+off == len(r.lines.rev)-1
	}
	return int(r.lines.at[l]) == l+off && !r.lines.unsure[l] && r.forced[l]
}

// unique reports whether the text of old lines lo..hi occurs exactly once
// in the old text and exactly once in the live one.
func (r *recovery) unique(lo, hi int) bool {
	return occursOnce(r.lines.oldID, r.lines.oldID[lo:hi+1]) && occursOnce(r.lines.newID, r.lines.oldID[lo:hi+1])
}

// occursOnce reports whether pat occurs exactly once in text (both indexed
// from 1 in their owner; text[0] is unused).
func occursOnce(text, pat []int32) bool {
	found := 0
	for i := 1; i+len(pat) <= len(text); i++ {
		if text[i] == pat[0] && slices.Equal(text[i:i+len(pat)], pat) {
			if found++; found > 1 {
				return false
			}
		}
	}
	return found == 1
}

// warnings name the cause of the drift (docs/contract.md §13.2).
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

// forceWindow is how many lines on each side of a line the search for an
// equally good pairing looks at. Further out, another pairing would need a
// repeated block of that many lines, which the slide check sees when it
// touches a change.
const forceWindow = 32

// maxForceCells bounds the search of one window: the cells of its table of
// longest pairings.
const maxForceCells = 1 << 20

// forcedPairs reports, for each old line in rows, whether its pairing
// holds in every longest common subsequence of a window around it: the
// same partner, and never unpaired. A diff picks one of several equally
// long pairings when text repeats across a change; such a pick is no
// evidence of where a line went. Rows close together share one window.
//
// This is a line diff of its own, written here rather than asked of
// go-diff: a diff returns one shortest script, and what every one of them
// shares needs the lengths of all prefix and suffix pairings (f and g in
// lcsRows), which only a table over the window gives. The window keeps
// that table small.
func (m *lineMap) forcedPairs(rows map[int]bool) map[int]bool {
	return inWindows(rows, m.forcedIn)
}

// inWindows has decide each of rows in a window of forceWindow lines
// around it; rows close together share one.
func inWindows(rows map[int]bool, decide func(lo, hi int, rows []int, out map[int]bool)) map[int]bool {
	out := make(map[int]bool, len(rows))
	sorted := make([]int, 0, len(rows))
	for l := range rows {
		sorted = append(sorted, l)
	}
	slices.Sort(sorted)
	for k := 0; k < len(sorted); {
		e := k + 1
		for e < len(sorted) && sorted[e]-sorted[e-1] <= 2*forceWindow && sorted[e]-sorted[k] <= 8*forceWindow {
			e++
		}
		decide(sorted[k]-forceWindow, sorted[e-1]+forceWindow, sorted[k:e], out)
		k = e
	}
	return out
}

// diagonal reports whether old lines lo..hi are paired with new lines j0+1
// on, one after the other.
func (m *lineMap) diagonal(lo, hi, j0 int) bool {
	for i := lo; i <= hi; i++ {
		if int(m.at[i]) != j0+1+i-lo {
			return false
		}
	}
	return true
}

// window is old lines lo..hi within the text, and the new lines between
// j0 and j1: the partners of the nearest paired old lines above and below
// it (0 and one past the last line when there are none).
func (m *lineMap) window(lo, hi int) (wlo, whi, j0, j1 int) {
	nOld, nNew := len(m.at)-1, len(m.rev)-1
	lo, hi = max(1, lo), min(nOld, hi)
	j0, j1 = 0, nNew+1
	for p := lo - 1; p >= 1; p-- {
		if m.at[p] != 0 {
			j0 = int(m.at[p])
			break
		}
	}
	for q := hi + 1; q <= nOld; q++ {
		if m.at[q] != 0 {
			j1 = int(m.at[q])
			break
		}
	}
	return lo, hi, j0, j1
}

// forcedIn decides the rows within old lines lo..hi. The window's corners
// sit on the diff: its columns run from the last line paired above it to
// the first paired below, and lines in between that neither side paired can
// be walked past in any order, so inside the window the diff is as long as
// any pairing. A window too large to search (thousands of lines changed
// right beside the anchors on both sides) proves nothing, so its rows are
// not forced.
func (m *lineMap) forcedIn(lo, hi int, rows []int, out map[int]bool) {
	lo, hi, j0, j1 := m.window(lo, hi)
	if m.diagonal(lo, hi, j0) && hi-lo+1 == j1-j0-1 {
		// The window is the same lines on both sides: their one longest
		// common subsequence is all of them, each where it is.
		for _, i := range rows {
			out[i] = true
		}
		return
	}
	if (hi-lo+1)*(j1-j0-1) > maxForceCells {
		m.wide = true
		return
	}
	a, b := m.oldID[lo:hi+1], m.newID[j0+1:j1]
	for k, row := range m.mem.lcsRows(a, b, m.ids, rows, lo) {
		x, y := rows[k]-lo+1, int(m.at[rows[k]])-j0
		split := func(yy int) int32 { return row.f[yy] + row.g[yy+1] }
		paired := func(yy int) int32 { return row.f[yy-1] + 1 + row.g[yy+1] }
		// A longest pairing either pairs old line x with a copy of it at
		// some column yy or leaves it unpaired, splitting b after yy: the
		// longest of those is the window's longest.
		var best int32
		for yy := 0; yy <= len(b); yy++ {
			best = max(best, split(yy))
			if yy >= 1 && b[yy-1] == a[x-1] {
				best = max(best, paired(yy))
			}
		}
		ok := paired(y) == best
		for yy := 0; ok && yy <= len(b); yy++ {
			// Unpaired, with the rest split after column yy; or paired
			// with another copy at yy.
			if split(yy) == best || yy >= 1 && yy != y && b[yy-1] == a[x-1] && paired(yy) == best {
				ok = false
			}
		}
		out[rows[k]] = ok
	}
}

// lcsRow is what forcedIn needs of one old line x of a window a against b:
// f[yy], the longest pairing of the lines above x with b[:yy], and g[yy],
// of the lines below it with b[yy-1:] (1-based, so g[len(b)+1] is the
// empty tail).
type lcsRow struct{ f, g []int32 }

// lcsRows is the lcsRow of each of rows, ascending old lines of which a's
// first is line lo. It takes a's lines one at a time, down to the last of
// rows and up to the first, keeping only the rows asked for: a line's
// pairings need nothing else of it. Each step is the bit-parallel one of
// Hyyrö ("Bit-Parallel LCS-length Computation Revisited", 2004): a row of
// the table is a word of bits per 64 columns, a 0 where the longest
// pairing grows by one, so a step costs a few operations a word rather
// than one cell a column. ids bounds the numbers of the lines.
func (mem *mapMemory) lcsRows(a, b []int32, ids int, rows []int, lo int) []lcsRow {
	c := len(b)
	w := (c + 63) / 64
	// The columns holding each number of b, once forward and once with b
	// reversed for the pairings from below; slot[id] is where its pair of
	// masks starts, 0 (the empty masks) for a number b lacks.
	slot := grown(mem.slot, ids)
	mem.slot = slot
	clear(slot)
	masks := grown(mem.masks, 2*w*(c+1))
	mem.masks = masks
	clear(masks[:2*w])
	used := 1
	for y, id := range b {
		if slot[id] == 0 {
			slot[id] = int32(used)
			clear(masks[2*w*used : 2*w*(used+1)])
			used++
		}
		at := 2 * w * int(slot[id])
		masks[at+y/64] |= 1 << (y % 64)
		r := c - 1 - y
		masks[at+w+r/64] |= 1 << (r % 64)
	}
	v := make([]uint64, 2*w)
	out := make([]lcsRow, len(rows))
	cells := make([]int32, len(rows)*(2*c+3))
	fwd, rev := v[:w], v[w:]
	for i := range v {
		v[i] = ^uint64(0)
	}
	x := 0 // fwd holds the pairings of a[:x]
	for k, i := range rows {
		for ; x < i-lo; x++ {
			at := 2 * w * int(slot[a[x]])
			lcsStep(fwd, masks[at:at+w])
		}
		f := cells[k*(2*c+3) : k*(2*c+3)+c+1]
		for y := 1; y <= c; y++ {
			f[y] = f[y-1] + int32(^fwd[(y-1)/64]>>((y-1)%64)&1)
		}
		out[k].f = f
	}
	x = len(a) // rev holds the pairings of a[x:] with b reversed
	for k := len(rows) - 1; k >= 0; k-- {
		for ; x > rows[k]-lo+1; x-- {
			at := 2*w*int(slot[a[x-1]]) + w
			lcsStep(rev, masks[at:at+w])
		}
		// g[yy] pairs with b[yy-1:], the first c-yy+1 columns reversed.
		g := cells[k*(2*c+3)+c+1 : (k+1)*(2*c+3)]
		var z int32
		for t := 1; t <= c; t++ {
			z += int32(^rev[(t-1)/64] >> ((t - 1) % 64) & 1)
			g[c-t+1] = z
		}
		out[k].g = g
	}
	return out
}

// lcsStep takes one more line into row v of the table of longest
// pairings, m the columns that hold a copy of it: v becomes (v + u) |
// (v &^ m), u = v & m, as one number of len(v) words.
func lcsStep(v, m []uint64) {
	var carry uint64
	for i := range v {
		u := v[i] & m[i]
		var sum uint64
		sum, carry = bits.Add64(v[i], u, carry)
		v[i] = sum | v[i]&^m[i]
	}
}
