package hashline

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// forcedPairs fills the table of longest pairings a row at a time, keeping
// only the rows it asks about. It must decide each row as the whole table
// does (forcedByTable, the two full tables of prefix and suffix pairings),
// on texts of few distinct lines, where longest pairings are many.
func TestForcedPairsMatchesFullTables(t *testing.T) {
	r := rand.New(rand.NewPCG(53, 59))
	line := func() string { return []string{"a", "b", "c", "}", "", "\treturn"}[r.IntN(6)] }
	decided, forced := 0, 0
	for seed := range 3000 {
		var old []string
		for range 1 + r.IntN(120) {
			old = append(old, line())
		}
		new := slices.Clone(old)
		for range 1 + r.IntN(6) {
			switch at := r.IntN(len(new) + 1); r.IntN(3) {
			case 0:
				new = slices.Insert(new, at, line())
			case 1:
				if at < len(new) {
					new = slices.Delete(new, at, at+1)
				}
			default:
				if at < len(new) {
					new[at] = line()
				}
			}
		}
		m, ok := diffLines(NewText(strings.Join(old, "\n")+"\n"), NewText(strings.Join(new, "\n")+"\n"))
		if !ok {
			continue
		}
		rows := map[int]bool{}
		for i := 1; i < len(m.at); i++ {
			if int(m.at[i]) != 0 && r.IntN(4) == 0 {
				rows[i] = true
			}
		}
		got, want := m.forcedPairs(rows), m.forcedByTables(rows)
		for i := range rows {
			if got[i] != want[i] {
				t.Fatalf("seed %d: old line %d forced %v, the full tables say %v\nold %q\nnew %q", seed, i, got[i], want[i], old, new)
			}
			decided++
			if got[i] {
				forced++
			}
		}
	}
	if forced == 0 || forced == decided {
		t.Fatalf("%d of %d rows forced: the cases do not tell the two apart", forced, decided)
	}
}

// forcedByTables is forcedPairs as it was, with the two full tables of
// prefix and suffix pairings over each window.
func (m *lineMap) forcedByTables(rows map[int]bool) map[int]bool {
	return inWindows(rows, m.forcedByTable)
}

func (m *lineMap) forcedByTable(lo, hi int, rows []int, out map[int]bool) {
	lo, hi, j0, j1 := m.window(lo, hi)
	a, b := m.oldID[lo:hi+1], m.newID[j0+1:j1]
	r, c := len(a), len(b)
	w := c + 2
	f, g := make([]int32, (r+2)*w), make([]int32, (r+2)*w)
	for x := 1; x <= r; x++ {
		for y := 1; y <= c; y++ {
			if a[x-1] == b[y-1] {
				f[x*w+y] = f[(x-1)*w+y-1] + 1
			} else {
				f[x*w+y] = max(f[(x-1)*w+y], f[x*w+y-1])
			}
		}
	}
	for x := r; x >= 1; x-- {
		for y := c; y >= 1; y-- {
			if a[x-1] == b[y-1] {
				g[x*w+y] = g[(x+1)*w+y+1] + 1
			} else {
				g[x*w+y] = max(g[(x+1)*w+y], g[x*w+y+1])
			}
		}
	}
	best := f[r*w+c]
	for _, i := range rows {
		x, y := i-lo+1, int(m.at[i])-j0
		ok := f[(x-1)*w+y-1]+1+g[(x+1)*w+y+1] == best
		for yy := 0; ok && yy <= c; yy++ {
			if f[(x-1)*w+yy]+g[(x+1)*w+yy+1] == best ||
				yy >= 1 && yy != y && b[yy-1] == a[x-1] && f[(x-1)*w+yy-1]+1+g[(x+1)*w+yy+1] == best {
				ok = false
			}
		}
		out[i] = ok
	}
}

// sharedRuns keeps the common head and tail before it leaves out the lines
// one side lacks, as GNU diff does, where it used to leave them out of the
// whole (sharedRunsWhole). Where a run of equal lines meets a change, the
// two may keep different lines, so each must keep a common subsequence as
// long as the other's, the head and the tail among it.
func TestSharedRunsKeepsTheEnds(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 67))
	differ := 0
	for seed := range 5000 {
		ids := 1 + r.IntN(8)
		a := make([]int32, r.IntN(80))
		for i := range a {
			a[i] = int32(r.IntN(ids))
		}
		b := slices.Clone(a)
		for range r.IntN(5) {
			switch at := r.IntN(len(b) + 1); r.IntN(3) {
			case 0:
				b = slices.Insert(b, at, int32(r.IntN(ids+2)))
			case 1:
				if at < len(b) {
					b = slices.Delete(b, at, at+1)
				}
			default:
				if at < len(b) {
					b[at] = int32(r.IntN(ids + 2))
				}
			}
		}
		pairs := func(diff func(a, b []int32, ids int, kept func(i, j, n int)) bool) (at []int, n int) {
			at = make([]int, len(a))
			li, lj := -1, -1
			if !diff(a, b, ids+2, func(i, j, k int) {
				for x := range k {
					if i+x <= li || j+x <= lj || a[i+x] != b[j+x] {
						t.Fatalf("seed %d: kept a[%d] with b[%d], after a[%d] with b[%d]", seed, i+x, j+x, li, lj)
					}
					at[i+x], li, lj = j+x+1, i+x, j+x
				}
				n += k
			}) {
				t.Fatalf("seed %d: the diff gave up", seed)
			}
			return at, n
		}
		got, n := pairs(new(mapMemory).sharedRuns)
		want, m := pairs(sharedRunsWhole)
		if n != m {
			t.Fatalf("seed %d: %v and %v: %d lines kept, want %d", seed, a, b, n, m)
		}
		head := commonHead(a, b)
		tail := commonTail(a[head:], b[head:])
		for i := range a {
			j := -1 // a common end's own partner
			if i < head {
				j = i
			} else if i >= len(a)-tail {
				j = i + len(b) - len(a)
			}
			if j >= 0 && got[i] != j+1 {
				t.Fatalf("seed %d: %v and %v: line %d of the common ends is kept with %d", seed, a, b, i, got[i]-1)
			}
		}
		if !slices.Equal(got, want) {
			differ++
		}
	}
	t.Logf("the two kept different lines in %d of 5000 cases", differ)
}

// sharedRunsWhole is sharedRuns as it was: the lines one side lacks left
// out of the whole of each side.
func sharedRunsWhole(a, b []int32, ids int, kept func(i, j, n int)) bool {
	a2, ai := onlyShared(nil, nil, a, present(make([]bool, ids), b), 0)
	b2, bj := onlyShared(nil, nil, b, present(make([]bool, ids), a), 0)
	return myers(a2, b2, maxDiffSteps, func(i, j, n int) {
		for k := range n {
			kept(int(ai[i+k]), int(bj[j+k]), 1)
		}
	})
}

// lcsRows takes a line a step, 64 columns a word; each row it returns must
// be the row of the plain table of longest pairings, across word edges and
// for windows wider than one word.
func TestLCSRowsMatchTheTable(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 73))
	mem := &mapMemory{}
	for seed := range 2000 {
		ids := 1 + r.IntN(12)
		a, b := make([]int32, r.IntN(90)), make([]int32, r.IntN(200))
		for i := range a {
			a[i] = int32(r.IntN(ids))
		}
		for i := range b {
			b[i] = int32(r.IntN(ids))
		}
		var rows []int
		for i := range a {
			if r.IntN(5) == 0 {
				rows = append(rows, 7+i)
			}
		}
		// lcs[x][y] is the longest pairing of a[:x] with b[:y]; sfx[x][y]
		// of a[x:] with b[y:].
		lcs, sfx := lcsTable(a, b), lcsTable(reversedIDs(a), reversedIDs(b))
		for k, row := range mem.lcsRows(a, b, ids, rows, 7) {
			x := rows[k] - 7
			for y := 0; y <= len(b); y++ {
				if row.f[y] != lcs[x][y] {
					t.Fatalf("seed %d: f[%d] of row %d is %d, the table says %d", seed, y, x, row.f[y], lcs[x][y])
				}
			}
			for yy := 1; yy <= len(b)+1; yy++ {
				if want := sfx[len(a)-x-1][len(b)-yy+1]; row.g[yy] != want {
					t.Fatalf("seed %d: g[%d] of row %d is %d, the table says %d", seed, yy, x, row.g[yy], want)
				}
			}
		}
	}
}

func lcsTable(a, b []int32) [][]int32 {
	tab := make([][]int32, len(a)+1)
	for x := range tab {
		tab[x] = make([]int32, len(b)+1)
		for y := 1; x > 0 && y <= len(b); y++ {
			if a[x-1] == b[y-1] {
				tab[x][y] = tab[x-1][y-1] + 1
			} else {
				tab[x][y] = max(tab[x-1][y], tab[x][y-1])
			}
		}
	}
	return tab
}

func reversedIDs(s []int32) []int32 {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}
