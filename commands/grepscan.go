package commands

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/search"
)

// found is what the search of one file gave.
type found struct {
	skipped bool           // not a text file grep reads, so not counted
	notice  string         // why a named file was not searched
	text    *hashline.Text // the file's text, when a line matched
	lines   []int          // the matching lines
	// In symbols mode: the matching declarations, or why the file could
	// not be outlined.
	symbols []hashline.Symbol
	unread  string
}

// scanWindow bounds how far the walk may run ahead of the result, in
// files: far enough that the other workers keep busy while one reads a
// large file whose turn has come.
const scanWindow = 1024

// heldBytes bounds the text that files searched ahead of their turn hold:
// a file that matched keeps its text until the result takes it. Tests make
// it small.
var heldBytes = 64 << 20

// run searches the files walk visits and adds them to the result in walk
// order. Off the disk, files are read and searched several at once; a
// Source that cannot tell which files are open is asked for each file in
// turn, as it may answer for any of them.
func (g *grepper) run(walk walkFunc) error {
	if !g.disk && g.open == nil {
		r := g.reader()
		return walk(func(f grepFile) error {
			if g.ctx.Err() != nil {
				return errCancelled
			}
			return g.accept(f, g.scan(r, f))
		})
	}
	return g.runParallel(walk)
}

// scanJob is one file on its way through the workers.
type scanJob struct {
	seq   int // its place in the walk
	file  grepFile
	found found
	done  chan struct{} // closed once found is set
}

func (g *grepper) runParallel(walk walkFunc) error {
	ctx, cancel := context.WithCancel(g.ctx)
	defer cancel()
	held := newHolds()
	// order holds the jobs in walk order for the result to take; jobs
	// holds the same jobs for the workers.
	order := make(chan *scanJob, scanWindow)
	jobs := make(chan *scanJob, scanWindow)
	var workers sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		workers.Go(func() {
			r := g.reader()
			for j := range jobs {
				if ctx.Err() == nil {
					j.found = g.scan(r, j.file)
					held.hold(j.seq, j.found.size())
				}
				close(j.done)
			}
		})
	}
	var walkErr error
	go func() {
		defer close(order)
		defer close(jobs)
		seq := 0
		walkErr = walk(func(f grepFile) error {
			if ctx.Err() != nil {
				return errCancelled
			}
			j := &scanJob{seq: seq, file: f, done: make(chan struct{})}
			seq++
			select {
			case order <- j:
			case <-ctx.Done():
				return errCancelled
			}
			jobs <- j
			return nil
		})
	}()
	stop := g.collect(order, held, cancel)
	workers.Wait()
	if stop == nil {
		stop = walkErr // read after order closed, so after the walk ended
	}
	return stop
}

// collect adds each job's file to the result, in order, until one ends the
// search; then it stops the walk and the workers and drains what is left.
func (g *grepper) collect(order <-chan *scanJob, held *holds, cancel context.CancelFunc) error {
	var stop error
	for j := range order {
		<-j.done
		if stop == nil {
			if g.ctx.Err() != nil {
				stop = errCancelled
			} else {
				stop = g.accept(j.file, j.found)
			}
			if stop != nil {
				cancel()
				held.stop()
			}
		}
		held.release(j.found.size())
		j.found = found{}
	}
	return stop
}

// holds counts the text held by files searched ahead of their turn, and
// makes a worker wait while that is over heldBytes. The file whose turn it
// is never waits, so the result always moves on.
type holds struct {
	mu   sync.Mutex
	cond sync.Cond
	// Guarded by mu.
	bytes   int  // held by files searched but not yet taken
	next    int  // the place in the walk of the file the result takes next
	stopped bool // the search ended: nobody waits any more
}

func newHolds() *holds {
	h := &holds{}
	h.cond.L = &h.mu
	return h
}

// hold adds n bytes held by file seq, once there is room.
func (h *holds) hold(seq, n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for n > 0 && h.bytes > 0 && h.bytes+n > heldBytes && seq != h.next && !h.stopped {
		h.cond.Wait()
	}
	h.bytes += n
}

// release gives back what the file the result just took held.
func (h *holds) release(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.bytes -= n
	h.next++
	h.cond.Broadcast()
}

func (h *holds) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopped = true
	h.cond.Broadcast()
}

// size is how much text fd holds.
func (fd found) size() int {
	if fd.text == nil {
		return 0
	}
	return fd.text.Size()
}

func (g *grepper) reader() *search.Reader {
	return &search.Reader{Pattern: g.pat, MaxBytes: documents.MaxFileBytes, Open: g.openFD}
}

// scan searches one file; in symbols mode it outlines a file with a
// matching line.
func (g *grepper) scan(r *search.Reader, f grepFile) found {
	fd := g.scanLines(r, f)
	if g.sym != nil && fd.text != nil {
		g.sym.outline(&fd, f.abs, f.rel)
	}
	return fd
}

// scanLines searches one file's lines. A file no editor holds open is read
// straight from the disk, and hashed only when a line matches; any other
// comes from the Source, which may hold the editor's unsaved text.
func (g *grepper) scanLines(r *search.Reader, f grepFile) found {
	if !f.named && (g.disk || g.open != nil && !g.open.IsOpen(f.abs)) {
		res := r.File(f.abs, g.limit)
		switch {
		case res.Skip != search.NotSkipped:
			return found{skipped: true}
		case len(res.Lines) == 0:
			return found{}
		}
		return found{text: hashline.NewText(res.Text), lines: res.Lines}
	}
	live, err := g.s.Source.Live(g.ctx, f.abs)
	if err != nil || !live.Exists() {
		fd := found{skipped: true}
		if f.named && err != nil {
			fd.notice = fmt.Sprintf("%s could not be read (%s): nothing was searched", f.rel, hashline.AsError(err).Message)
		}
		return fd
	}
	t := live.Text
	if t.Size() > documents.MaxFileBytes || isBinary(t.Raw()) {
		fd := found{skipped: true}
		if f.named {
			fd.notice = fmt.Sprintf("%s is a binary or oversized file: grep searches text files only", f.rel)
		}
		return fd
	}
	lines := g.pat.LinesString(t.Raw(), g.limit)
	if len(lines) == 0 {
		return found{}
	}
	return found{text: t, lines: lines}
}
