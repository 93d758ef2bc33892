package hashline

import (
	"hash/maphash"
	"sync"
)

// myers finds a longest common subsequence of a and b, lines named by
// number, and calls kept(i, j, n) for each run of n lines it keeps,
// a[i:i+n] equal to b[j:j+n], in order. It is Myers' O(ND) difference
// algorithm in linear space ("An O(ND) Difference Algorithm and Its
// Variations", 1986, section 4b): the middle snake of a shortest edit
// script splits the problem in two, each side with half the differences,
// and each side is solved the same way. A common head and tail are kept
// without a search, so texts that differ in a few places cost little more
// than a pass over them. It gives up, reporting false, once the search has
// taken budget steps; nothing has been kept then.
func myers(a, b []int32, budget int, kept func(i, j, n int)) bool {
	d := differ{budget: budget}
	d.solve(a, b, 0, 0)
	if d.budget < 0 {
		return false
	}
	for _, r := range d.runs {
		kept(r[0], r[1], r[2])
	}
	return true
}

type differ struct {
	runs   [][3]int // the kept runs found so far, in order
	budget int      // steps left to take; negative once out of them
	// fwd and bwd are the frontiers of the middle-snake search, indexed by
	// diagonal plus an offset. A search reads no entry it did not write
	// itself, so one pair serves every search; they grow when the number
	// of differences outgrows them.
	fwd, bwd []int32
}

func (d *differ) keep(i, j, n int) {
	if n > 0 {
		d.runs = append(d.runs, [3]int{i, j, n})
	}
}

// solve keeps the runs of a longest common subsequence of a and b, which
// sit at offsets i0 and j0 of the whole.
func (d *differ) solve(a, b []int32, i0, j0 int) {
	for d.budget >= 0 {
		head := commonHead(a, b)
		d.keep(i0, j0, head)
		a, b, i0, j0 = a[head:], b[head:], i0+head, j0+head
		tail := commonTail(a, b)
		a, b = a[:len(a)-tail], b[:len(b)-tail]
		if len(a) == 0 || len(b) == 0 {
			d.keep(i0+len(a), j0+len(b), tail)
			return
		}
		x, y, u, w := d.middleSnake(a, b)
		if d.budget < 0 {
			return
		}
		d.solve(a[:x], b[:y], i0, j0)
		d.keep(i0+x, j0+y, u-x)
		a, b, i0, j0 = a[u:], b[w:], i0+u, j0+w
		if tail > 0 {
			// The rest, then the tail.
			d.solve(a, b, i0, j0)
			d.keep(i0+len(a), j0+len(b), tail)
			return
		}
	}
}

func commonHead(a, b []int32) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonTail(a, b []int32) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// middleSnake returns the snake (x, y) to (u, w) in the middle of a
// shortest edit script of a and b, which are not empty and differ at both
// ends, so at least two differences apart.
func (d *differ) middleSnake(a, b []int32) (x, y, u, w int) {
	for reach := 64; ; reach *= 4 {
		if x, y, u, w, ok := d.search(a, b, reach); ok || d.budget < 0 {
			return x, y, u, w
		}
	}
}

// search looks for the middle snake within reach differences on each
// side of it.
func (d *differ) search(a, b []int32, reach int) (x, y, u, w int, ok bool) {
	n, m := len(a), len(b)
	delta := n - m
	odd := delta&1 != 0
	off := reach + 1
	if len(d.fwd) < 2*off+1 {
		d.fwd, d.bwd = make([]int32, 2*off+1), make([]int32, 2*off+1)
	}
	fwd, bwd := d.fwd, d.bwd
	fwd[off+1], bwd[off+1] = 0, 0
	for e := 0; e < reach; e++ {
		for k := -e; k <= e; k += 2 {
			px := furthest(fwd, off, e, k)
			py := px - k
			sx, sy := px, py
			for px < n && py < m && a[px] == b[py] {
				px++
				py++
			}
			fwd[off+k] = int32(px)
			d.budget -= 1 + px - sx
			// The backward search on this diagonal came within bwd of
			// the end.
			if c := delta - k; odd && c >= -(e-1) && c <= e-1 && px+int(bwd[off+c]) >= n {
				return sx, sy, px, py, true
			}
		}
		for k := -e; k <= e; k += 2 {
			px := furthest(bwd, off, e, k)
			py := px - k
			sx, sy := px, py
			for px < n && py < m && a[n-1-px] == b[m-1-py] {
				px++
				py++
			}
			bwd[off+k] = int32(px)
			d.budget -= 1 + px - sx
			if c := delta - k; !odd && c >= -e && c <= e && px+int(fwd[off+c]) >= n {
				return n - px, m - py, n - sx, m - sy, true
			}
		}
		if d.budget < 0 {
			return 0, 0, 0, 0, false
		}
	}
	return 0, 0, 0, 0, false
}

// furthest is the x at which round e of a search, forward or backward
// alike, starts on diagonal k: a step down from diagonal k+1 or a step
// right from k-1, whichever reaches further. v holds the x each diagonal
// reached in round e-1, diagonal k at v[off+k].
func furthest(v []int32, off, e, k int) int {
	if k == -e || k != e && v[off+k-1] < v[off+k+1] {
		return int(v[off+k+1])
	}
	return int(v[off+k-1]) + 1
}

// internLines names lines by number, equal numbers for equal text, from 0.
type internLines struct {
	// slots hold, for each number, the high half of its text's hash above
	// 1 + the number: a probe tells most lines apart without their text.
	slots []uint64
	reps  []string // the text of each number
	mask  uint64
}

// newInternLines makes a table for lines lines: two thirds full at most,
// when they all differ, and a third for two texts of mostly the same lines.
// A small one is a table another diff released, cleared: a recovery on a
// small file otherwise spends more on allocating it than on filling it.
func newInternLines(lines int) *internLines {
	size := 16
	for size < lines+lines/2 {
		size <<= 1
	}
	t := &internLines{}
	if size <= maxPooledSlots {
		t = internPool.Get().(*internLines)
	}
	if cap(t.slots) < size {
		t.slots = make([]uint64, size)
	} else {
		t.slots = t.slots[:size]
		clear(t.slots)
	}
	if cap(t.reps) < lines {
		t.reps = make([]string, 0, lines)
	}
	t.mask = uint64(size - 1)
	return t
}

// maxPooledSlots bounds the tables kept for reuse, so a diff of a large
// file holds no memory past its own end.
const maxPooledSlots = 1 << 14

var internPool = sync.Pool{New: func() any { return new(internLines) }}

// release hands t back for reuse, holding no line of the texts it named.
// Nothing may use t after.
func (t *internLines) release() {
	if len(t.slots) > maxPooledSlots {
		return
	}
	clear(t.reps)
	t.reps = t.reps[:0]
	internPool.Put(t)
}

var internSeed = maphash.MakeSeed()

// id is the number of line s.
func (t *internLines) id(s string) int32 {
	h := maphash.String(internSeed, s)
	tag := h &^ 0xffffffff
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		e := t.slots[i]
		if e == 0 {
			t.reps = append(t.reps, s)
			t.slots[i] = tag | uint64(len(t.reps))
			return int32(len(t.reps) - 1)
		}
		if id := int(e & 0xffffffff); e&^0xffffffff == tag && t.reps[id-1] == s {
			return int32(id - 1)
		}
	}
}
