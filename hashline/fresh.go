package hashline

import (
	"encoding/binary"
	"strings"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"hashline-ls/internal/newlines"
)

// freshHelped is the smallest body a fresh render shares with another
// goroutine: below it, here, the helper wakes too late to take its half
// (at 64 KiB the render took 9% longer helped, at 128 KiB 6% less).
const freshHelped = 128 << 10

// freshChunk is about how many bytes of a text one job of a fresh render
// covers: enough that taking a job costs nothing beside it, few enough that
// the two processors of a large read finish together.
const freshChunk = 16 << 10

// freshIndexChunk is the size of a job past the window's rows, which only
// finds lines: a window of a large text leaves most of it to such jobs, and
// fewer of them keep the table of jobs small.
const freshIndexChunk = 1 << 20

// fresh is a read from line 1, in tag style, of a text without CR that has
// not been indexed: the common read, and the one that must come near the
// cost of hashing the text. Its lines are cut into chunks of whole lines;
// each chunk's job finds its lines for the index, writes their rows in its
// own region of one buffer and says whether they are clean. Alone, the
// caller does the jobs and then hashes. For a large text another goroutine
// takes jobs while the caller hashes the body as if clean, then both take
// what is left: the hash, which cannot be split, starts at once, and a
// helper slow to wake (a virtual processor takes a tenth of a millisecond
// here) costs only the jobs it did not take.
type fresh struct {
	raw string
	x   *lines
	buf []byte
	// jobs is written before the helper starts. A job's results are
	// written by the goroutine that took it and read once left is 0.
	jobs []chunk
	next atomic.Int32 // the next job to take
	left atomic.Int32 // the jobs not done
	// finished has the helper's word that it did the last job.
	finished chan struct{}
	// dirty is set by a job that finds a trailing blank: the text is not
	// clean, and a hash of it as clean gives up.
	dirty atomic.Bool
}

// chunk is one job: the whole lines raw[s:e], the first of them line k+1;
// the first rows of them are rows of the window, written to buf[at:end],
// which is the room they take unclipped, and to a buffer of their own when
// they take more.
type chunk struct {
	s, e, k   int
	lines     int
	rows      int
	at, end   int
	b         []byte // the rows written
	clipped   []int
	separated bool // b is not at buf[at]
}

// renderFresh is RenderWindowAs from line 1 for a text not indexed yet. It
// reports false, having done nothing, for a text with a CR, whose lines are
// found otherwise.
func renderFresh(display string, t *Text, limit int) (View, bool) {
	raw := t.raw
	body := bodyStart(raw)
	if strings.IndexByte(raw[body:], '\r') >= 0 {
		return View{}, false
	}
	f := &fresh{raw: raw}
	last := f.plan(body, display, limit)
	var st *hashState
	from := t.from.Load()
	if len(raw)-body >= freshHelped && t.aheadable(body) {
		f.finished = make(chan struct{}, 1)
		go f.help()
		st = hashCleanUnless(&f.dirty, raw[body:], from, t.same-body)
		if !f.work() && f.left.Load() != 0 {
			<-f.finished
		}
	} else {
		f.work()
	}
	b, clipped := f.join(len(display) + 8)
	clean := !f.dirty.Load()
	f.x.clean = clean
	t.index.CompareAndSwap(nil, f.x)
	if st != nil && clean {
		t.install(st, from)
	}
	appendHeader(b[:0], display, t.Tag())
	return view(b, 1, last, clipped), true
}

// help is the other goroutine of a large fresh render. It may start after
// the caller has returned, and then finds no job left.
func (f *fresh) help() {
	if f.work() {
		f.finished <- struct{}{}
	}
}

// plan cuts the body into chunks, counts the lines and places each chunk's
// rows in the buffer, after room for the header; it returns the window's
// last line.
func (f *fresh) plan(body int, display string, limit int) (last int) {
	raw, n := f.raw, 0
	for s := body; s < len(raw); {
		size := freshChunk
		if n >= limit {
			size = freshIndexChunk
		}
		e := len(raw)
		if s+size < len(raw) {
			if i := strings.IndexByte(raw[s+size:], '\n'); i >= 0 {
				e = s + size + i + 1
			}
		}
		c := chunk{s: s, e: e, k: n, lines: strings.Count(raw[s:e], "\n")}
		if raw[e-1] != '\n' {
			c.lines++
		}
		n += c.lines
		f.jobs = append(f.jobs, c)
		s = e
	}
	last = min(n, limit)
	at := len(display) + 8
	for i := range f.jobs {
		c := &f.jobs[i]
		c.rows = max(min(c.lines, last-c.k), 0)
		if c.rows == 0 {
			continue
		}
		// Where the window ends inside a chunk, its rows take at most the
		// chunk's bytes; a last line without LF gains one in its row.
		c.at, c.end = at, at+c.e-c.s+c.rows+digitsUpTo(c.k+c.rows)-digitsUpTo(c.k)
		if c.rows == c.lines && raw[c.e-1] != '\n' {
			c.end++
		}
		at = c.end
	}
	f.buf = uncleared(at)
	f.left.Store(int32(len(f.jobs)))
	f.x = &lines{starts: make([]int32, n+1), eol: "\n", bom: body > 0, final: len(raw) > body && raw[len(raw)-1] == '\n'}
	f.x.starts[n] = int32(len(raw))
	return last
}

// work takes jobs until none is left, and reports whether it did the last
// one to end.
func (f *fresh) work() (last bool) {
	for {
		i := int(f.next.Add(1)) - 1
		if i >= len(f.jobs) {
			return false
		}
		f.jobs[i].do(f)
		if f.left.Add(-1) == 0 {
			return true
		}
	}
}

// do finds the chunk's lines and writes its rows.
func (c *chunk) do(f *fresh) {
	raw, starts := f.raw, f.x.starts
	var w rows
	if c.rows > 0 {
		// The rows are split at LF, so they are valid UTF-8 where the
		// chunk is; otherwise each row is checked on its own.
		w = newRows(f.buf[c.at:c.at:c.end], c.k+1, utf8.ValidString(raw[c.s:c.e]), AnchorTag, false)
	}
	// The rows a line makes as it is are written here, appending to b, a
	// local, rather than through w: a write of a pointer to the heap would
	// cost a barrier each, while the collector runs.
	b, pos, dirty := w.b, c.s, false
	var ends [256]int32
	for j := 0; j < c.lines; {
		n := newlines.Next(raw[:c.e], pos, ends[:])
		if n == 0 {
			// The text's last line, without LF.
			ends[0], n = int32(c.e), 1
		}
		for _, end := range ends[:n] {
			ce := int(end)
			starts[c.k+j] = int32(pos)
			dirty = dirty || ce > pos && isBlank(raw[ce-1])
			e := min(ce+1, c.e)
			switch {
			case j >= c.rows:
			case w.plain && e-pos <= MaxLineChars && e > ce:
				// The number and its colon in one store of 8 bytes where
				// the region has room: what lies past them is written
				// next, by this job.
				if w.digits < 8 && cap(b)-len(b) >= 8 {
					binary.LittleEndian.PutUint64(b[len(b):len(b)+8], binary.LittleEndian.Uint64(w.num[:8]))
					b = b[:len(b)+w.digits+1]
				} else {
					b = append(b, w.num[:w.digits+1]...)
				}
				b = append(b, raw[pos:e]...)
				w.count()
			default:
				w.b = b
				w.add(c.k+j+1, raw, pos, e, ce)
				b = w.b
			}
			pos = e
			j++
		}
	}
	if dirty {
		f.dirty.Store(true)
	}
	c.b, c.clipped = b, w.clipped
	c.separated = c.rows > 0 && unsafe.SliceData(b) != unsafe.SliceData(f.buf[c.at:])
}

// join is the buffer of the rows in order, after head bytes of room for
// the header, and the rows clipped: the jobs' own buffer when every chunk's
// rows filled their region exactly, a new one otherwise.
func (f *fresh) join(head int) ([]byte, []int) {
	end, exact := head, true
	var clipped []int
	for i := range f.jobs {
		c := &f.jobs[i]
		if c.rows == 0 {
			break
		}
		exact = exact && !c.separated && c.at == end
		end += len(c.b)
		clipped = append(clipped, c.clipped...)
	}
	if exact {
		return f.buf[:end], clipped
	}
	b := make([]byte, head, end)
	for i := range f.jobs {
		b = append(b, f.jobs[i].b...)
	}
	return b, clipped
}

// digitsUpTo is the number of digits in the numbers 1..n written out.
func digitsUpTo(n int) int {
	sum := 0
	for d, p := 1, 1; p <= n; d, p = d+1, p*10 {
		sum += (min(n, p*10-1) - p + 1) * d
	}
	return sum
}

// uncleared is a buffer of n bytes whose contents are not set, for a
// caller that writes every byte it reads: the bytes of a strings.Builder
// grown once, which nothing else holds.
func uncleared(n int) []byte {
	var b strings.Builder
	b.Grow(n)
	b.WriteByte(0)
	return unsafe.Slice(unsafe.StringData(b.String()), n)
}
