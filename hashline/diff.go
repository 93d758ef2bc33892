package hashline

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Line diffs. Drift recovery's line map (diffLines) and the unified diff
// shown after an edit (Unified) both run sergi/go-diff on one rune per
// distinct line: Myers' diff, the shortest unless it passes its one-second
// deadline. Both need the shortest: after 100 scattered changes to the
// 10,000-line benchmark file, go-diff marks 121 lines as removed or added,
// and go-udiff, whose lcs bounds its search, 3,243 (BenchmarkLineDiff).
// Recovery would decline at lines that never changed, and a reader would
// be shown them as changed. go-diff is also the faster there, and on a
// one-line change. The third line diff, forcedPairs in recover.go, answers
// what no single diff can.

// lineIDs numbers lines by their text: equal text, equal number.
type lineIDs map[string]int32

// runes encodes n lines, line(i) being the i-th from 0, as one rune each
// for the diff, and returns their numbers indexed from 1 (index 0 unused).
// ok is false when there are more distinct lines than runes.
func (ids lineIDs) runes(n int, line func(int) string) (out []rune, num []int32, ok bool) {
	out = make([]rune, n)
	num = make([]int32, n+1)
	for i := range out {
		l := line(i)
		id, seen := ids[l]
		if !seen {
			id = int32(len(ids))
			ids[l] = id
		}
		r := lineRune(int(id))
		if r > utf8.MaxRune {
			return nil, nil, false
		}
		out[i], num[i+1] = r, id
	}
	return out, num, true
}

// lineRune turns a line's number into a rune that survives a round trip
// through a Go string, which the diff makes: surrogates are skipped.
func lineRune(i int) rune {
	r := rune(i + 1)
	if r >= 0xD800 {
		r += 0x800
	}
	return r
}

// keptRuns diffs a against b and calls kept(i, j, n) for each run of n
// lines the diff keeps, a[i:i+n] equal to b[j:j+n], in order. The lines are
// interned here rather than through go-diff's DiffLinesToRunes, which costs
// more than the diff.
func keptRuns(a, b []rune, kept func(i, j, n int)) {
	diffRuns(a, b, kept)
}

// maxDiffSteps bounds the search of sharedRuns: past it, a diff of texts
// that much apart is left to go-diff, which bounds its own by time.
const maxDiffSteps = 1 << 24

// sharedRuns is keptRuns for lines named by number, below ids, which diffs
// with Myers' algorithm (myers.go) what the lines both texts have leave
// of them. A line found on one side only is in no common subsequence, so,
// as GNU diff does, the lines of each side that the other lacks are left
// out: the common subsequences of what is left are exactly those of the
// whole, and after scattered edits what is left is mostly one run. It
// reports false when there are more lines than runes for go-diff to take.
//
// The common head and tail are kept first, as they are, and only the
// lines between are diffed, as GNU diff does too: a shortest diff of those
// is one of the whole. Where a run of equal lines meets a change it may
// pair other copies than a diff of the whole would; recovery proves each
// pairing it relies on, so it decides the same either way.
//
// Its tables are cut from mem's.
func (mem *mapMemory) sharedRuns(a, b []int32, ids int, kept func(i, j, n int)) bool {
	in := grown(mem.present, 2*ids)
	mem.present = in
	clear(in)
	inA, inB := present(in[:ids:ids], a), present(in[ids:], b)
	head := commonHead(a, b)
	tail := commonTail(a[head:], b[head:])
	na, nb := len(a)-head-tail, len(b)-head-tail
	shared := grown(mem.shared, 2*(na+nb))
	mem.shared = shared
	a2, ai := onlyShared(shared[:0:na], shared[na:na:2*na], a[head:len(a)-tail], inB, head)
	b2, bj := onlyShared(shared[2*na:2*na:2*na+nb], shared[2*na+nb:2*na+nb:2*(na+nb)], b[head:len(b)-tail], inA, head)
	// The head is kept before the first run of what is left, and the tail
	// after the last, once a diff has succeeded: a failed one keeps nothing.
	started := false
	start := func() {
		if !started && head > 0 {
			kept(0, 0, head)
		}
		started = true
	}
	end := func() bool {
		start()
		if tail > 0 {
			kept(len(a)-tail, len(b)-tail, tail)
		}
		return true
	}
	back := func(i, j, n int) {
		start()
		// Back on the whole, a run breaks where a line left out fell.
		for k := 0; k < n; {
			e := k + 1
			for e < n && ai[i+e] == ai[i+e-1]+1 && bj[j+e] == bj[j+e-1]+1 {
				e++
			}
			kept(int(ai[i+k]), int(bj[j+k]), e-k)
			k = e
		}
	}
	if myers(a2, b2, maxDiffSteps, back) {
		return end()
	}
	if lineRune(ids) > utf8.MaxRune {
		return false
	}
	ra, rb := make([]rune, len(a2)), make([]rune, len(b2))
	for i, x := range a2 {
		ra[i] = lineRune(int(x))
	}
	for j, x := range b2 {
		rb[j] = lineRune(int(x))
	}
	diffRuns(ra, rb, back)
	return end()
}

// present sets in, one entry for each line number and all false, to
// whether lines has it.
func present(in []bool, lines []int32) []bool {
	for _, x := range lines {
		in[x] = true
	}
	return in
}

// onlyShared appends to kept the lines of a that the other side has, and
// to at where each was in a, which starts at line from of its side.
func onlyShared(kept, at, a []int32, other []bool, from int) ([]int32, []int32) {
	for i, x := range a {
		if other[x] {
			kept, at = append(kept, x), append(at, int32(from+i))
		}
	}
	return kept, at
}

// diffRuns is keptRuns on all of a and b.
func diffRuns(a, b []rune, kept func(i, j, n int)) {
	i, j := 0, 0
	for _, d := range diffmatchpatch.New().DiffMainRunes(a, b, false) {
		n := utf8.RuneCountInString(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			kept(i, j, n)
			i, j = i+n, j+n
		case diffmatchpatch.DiffDelete:
			i += n
		case diffmatchpatch.DiffInsert:
			j += n
		}
	}
}

// unifiedContext is how many unchanged lines a hunk shows on each side.
const unifiedContext = 3

// Unified is the unified diff that turns old into new under the labels, as
// diff -u prints it, or "" when the two are equal. Lines are compared with
// their LF, so a last line that gains or loses one is a changed line, and
// rows without one carry the "\ No newline at end of file" marker.
func Unified(oldLabel, newLabel, old, new string) string {
	// Only the lines between the common head and tail, and the context
	// around them, are split and diffed: a diff finds the same changes in
	// them as in the whole (it strips the common ends first itself), and
	// a one-line edit of a 50 MB file costs a few lines, not two copies.
	return unified(oldLabel, newLabel, old, new, unifiedContext)
}

// unified is Unified keeping context lines of the common head and tail;
// context < 0 keeps them all.
func unified(oldLabel, newLabel, old, new string, context int) string {
	if old == new {
		return ""
	}
	skip, oldMid, newMid := 0, old, new
	if context >= 0 {
		skip, oldMid, newMid = trimCommonLines(old, new, context)
	}
	a, b := linesWithLF(oldMid), linesWithLF(newMid)
	var w strings.Builder
	fmt.Fprintf(&w, "--- %s\n+++ %s\n", oldLabel, newLabel)
	changes := changedRuns(a, b)
	for k := 0; k < len(changes); {
		// A hunk takes every change whose context would touch the next.
		e := k + 1
		for e < len(changes) && changes[e].a0-changes[e-1].a1 <= 2*unifiedContext {
			e++
		}
		first, last := changes[k], changes[e-1]
		a0, a1 := max(0, first.a0-unifiedContext), min(len(a), last.a1+unifiedContext)
		b0, b1 := first.b0-(first.a0-a0), last.b1+(a1-last.a1)
		fmt.Fprintf(&w, "@@ -%s +%s @@\n", hunkRange(skip+a0, a1-a0), hunkRange(skip+b0, b1-b0))
		pos := a0
		for _, c := range changes[k:e] {
			for ; pos < c.a0; pos++ {
				unifiedRow(&w, ' ', a[pos])
			}
			for _, l := range a[c.a0:c.a1] {
				unifiedRow(&w, '-', l)
			}
			for _, l := range b[c.b0:c.b1] {
				unifiedRow(&w, '+', l)
			}
			pos = c.a1
		}
		for ; pos < a1; pos++ {
			unifiedRow(&w, ' ', a[pos])
		}
		k = e
	}
	return w.String()
}

// change is one run of lines the diff does not keep: a[a0:a1] becomes
// b[b0:b1], 0-based.
type change struct{ a0, a1, b0, b1 int }

// changedRuns lists the changes between the kept runs of a diff of a and b.
func changedRuns(a, b []string) []change {
	ids := make(lineIDs, len(a))
	ra, _, okA := ids.runes(len(a), func(i int) string { return a[i] })
	rb, _, okB := ids.runes(len(b), func(i int) string { return b[i] })
	if !okA || !okB {
		return []change{{0, len(a), 0, len(b)}}
	}
	var out []change
	i, j := 0, 0
	add := func(i1, j1 int) {
		if i1 > i || j1 > j {
			out = append(out, change{i, i1, j, j1})
		}
	}
	keptRuns(ra, rb, func(ki, kj, n int) {
		add(ki, kj)
		i, j = ki+n, kj+n
	})
	add(len(a), len(b))
	return out
}

// trimCommonLines cuts from old and new the whole lines they share at the
// start and at the end, but keeps context lines of each next to what
// differs. skip is how many lines were cut from the start.
func trimCommonLines(old, new string, context int) (skip int, oldMid, newMid string) {
	pre := 0
	for pre < len(old) && pre < len(new) && old[pre] == new[pre] {
		pre++
	}
	// Back to the start of a line: the head is whole lines. The tail is
	// looked for after it, as a diff looks for it after the head.
	head := strings.LastIndexByte(old[:pre], '\n') + 1
	suf := 0
	for suf < len(old)-head && suf < len(new)-head && old[len(old)-1-suf] == new[len(new)-1-suf] {
		suf++
	}
	start := head
	for k := 0; k < context && start > 0; k++ {
		start = strings.LastIndexByte(old[:start-1], '\n') + 1
	}
	// Forward to a line start inside the shared tail, then context lines
	// further: the tail then starts after an LF in both.
	tail := old[len(old)-suf:]
	cut := 0
	if len(old)-suf > head && old[len(old)-suf-1] != '\n' || len(new)-suf > head && new[len(new)-suf-1] != '\n' {
		if i := strings.IndexByte(tail, '\n'); i >= 0 {
			cut = i + 1
		} else {
			cut = len(tail)
		}
	}
	for k := 0; k < context && cut < len(tail); k++ {
		if i := strings.IndexByte(tail[cut:], '\n'); i >= 0 {
			cut += i + 1
		} else {
			cut = len(tail)
		}
	}
	keep := len(tail) - cut
	return strings.Count(old[:start], "\n"), old[start : len(old)-keep], new[start : len(new)-keep]
}

// linesWithLF splits s after each LF.
func linesWithLF(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// hunkRange is a hunk's start line and length as diff -u writes them: the
// length is left out when it is 1, and an empty range starts at the line
// before it.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}

func unifiedRow(b *strings.Builder, mark byte, line string) {
	b.WriteByte(mark)
	b.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		b.WriteString("\n\\ No newline at end of file\n")
	}
}
