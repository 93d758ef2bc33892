package documents

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"hashline-ls/hashline"
)

// Change is one content change of didChange: Range nil means the whole text.
// An insertion at 0:0 has a Range, so it is not mistaken for a replacement.
type Change struct {
	Range *Range
	Text  string
}

// Doc is an open document.
type Doc struct {
	Path string // canonical and absolute: the key
	URI  string // as the editor sent it, to address the document back
	// Version is the editor's, and only the editor's: it may start at 0 and
	// skip numbers, so it is compared, never predicted.
	Version int32
	Text    string
	// Seq is the store's counter at the document's last open or change.
	Seq uint64
}

// Store holds the documents the editor has open, as its didOpen, didChange
// and didClose notifications describe them. It is safe for concurrent use.
type Store struct {
	mu  sync.Mutex // guards the fields below; never held while waiting
	enc Encoding
	// files is where the text of documents the editor does not hold is
	// read; the zero Disk refuses every path.
	files Disk
	seq   uint64
	docs  map[string]*entry
	// wake is closed on every mutation and forgotten, so that every waiter
	// looks again; it is made only when someone waits, so that keystrokes
	// nobody waits for allocate nothing.
	wake chan struct{}
	// journals are the documents' journals, while an edit of them is on
	// its way (misplaced.go).
	journals map[string][]*journal
}

type entry struct {
	doc Doc
	// idx indexes doc.Text. Change updates it in place, so it never leaves
	// the store.
	idx *LineIndex
}

// NewStore returns an empty store counting positions in UTF-16, until
// SetEncoding says what the client and server agreed.
func NewStore() *Store {
	return &Store{docs: map[string]*entry{}}
}

// SetEncoding sets the encoding the ranges of later changes are counted in.
func (s *Store) SetEncoding(e Encoding) {
	s.mu.Lock()
	s.enc = e
	s.mu.Unlock()
}

// SetDisk sets where the text of a file the editor does not hold is read.
func (s *Store) SetDisk(d Disk) {
	s.mu.Lock()
	s.files = d
	s.mu.Unlock()
}

func (s *Store) disk() Disk {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.files
}

// DiskText is what the disk holds at path, read beneath its root whether
// or not the editor holds the file; a missing file is an fs.ErrNotExist.
func (s *Store) DiskText(path string) (string, error) {
	b, _, err := s.disk().read(path)
	return stringOf(b), err
}

// Encoding is the encoding ranges of changes are counted in.
func (s *Store) Encoding() Encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc
}

// Seq is the store's counter now: the next open, change or close of any
// document takes a greater one. Noting it before asking the editor for an
// edit lets Wait tell the editor's answer from what came before.
func (s *Store) Seq() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}

// Open records a document the editor opened, replacing any it held at path.
// path is the canonical absolute path the caller resolved from uri.
func (s *Store) Open(path, uri string, version int32, text string) {
	idx := NewLineIndex(text)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	s.docs[path] = &entry{doc: Doc{Path: path, URI: uri, Version: version, Text: text, Seq: s.seq}, idx: idx}
	s.note(path, nil)
	s.wakeAll()
}

// Change applies the changes of one didChange in order: each Range is in the
// text as the previous change left it, counted in the store's encoding.
// Positions past a line's end or past the last line clamp as
// LineIndex.OffsetAt does.
// A reversed range is an error, and then none of the changes is applied:
// the stored text is always one the editor held.
func (s *Store) Change(path string, version int32, changes []Change) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.docs[path]
	if !ok {
		return fmt.Errorf("didChange for %s, which is not open: ignored", path)
	}
	b := batch{base: e.doc.Text, idx: e.idx, shared: true, enc: s.enc}
	for i, c := range changes {
		if err := b.add(c); err != nil {
			return fmt.Errorf("didChange for %s (version %d): change %d of %d: %w; none of them applied", path, version, i+1, len(changes), err)
		}
	}
	e.doc.Text, e.idx = b.finish()
	s.seq++
	e.doc.Version, e.doc.Seq = version, s.seq
	s.note(path, changes)
	s.wakeAll()
	return nil
}

// Close forgets the document at path; from now on its text is on disk.
func (s *Store) Close(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.docs[path]; !ok {
		return
	}
	delete(s.docs, path)
	s.seq++
	s.note(path, nil)
	s.wakeAll()
}

// Get returns the open document at path.
func (s *Store) Get(path string) (Doc, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.docs[path]
	if !ok {
		return Doc{}, false
	}
	return e.doc, true
}

// Live is the text of the file at abs: the editor's buffer when it holds
// one, else the disk (DESIGN §2).
func (s *Store) Live(ctx context.Context, abs string) (Live, error) {
	if d, ok := s.Get(abs); ok {
		return Live{Text: hashline.NewText(d.Text), Version: d.Version, Open: true}, nil
	}
	return s.disk().Live(ctx, abs)
}

// IsOpen reports whether the editor holds abs open: grep reads every other
// file straight from the disk (commands.OpenFiles).
func (s *Store) IsOpen(abs string) bool {
	_, ok := s.Get(abs)
	return ok
}

// CheckUnchanged returns ErrNotApplied when a file of cs no longer holds
// the text it was proven against, where it was: in the editor's buffer, or
// on disk. The positions may be wrong then, so the caller proves it again.
func (s *Store) CheckUnchanged(cs ChangeSet) error {
	for _, fc := range cs.Files {
		if fc.Old == nil || fc.Old.Text == nil {
			continue
		}
		if !s.holds(fc) {
			return fmt.Errorf("%w: %s changed since the edit was checked", ErrNotApplied, fc.Path)
		}
	}
	return nil
}

func (s *Store) holds(fc FileChange) bool {
	if d, ok := s.Get(fc.Path); ok {
		return fc.Old.Open && d.Text == fc.Old.Text.Raw()
	}
	return !fc.Old.Open && s.disk().holds(fc.Path, fc.Old.Text.Raw())
}

// Paths lists the paths of the open documents, sorted.
func (s *Store) Paths() []string {
	s.mu.Lock()
	paths := make([]string, 0, len(s.docs))
	for p := range s.docs {
		paths = append(paths, p)
	}
	s.mu.Unlock()
	slices.Sort(paths)
	return paths
}

// Wait blocks until the document at path has Seq > after (any change, or an
// open of a document that was not open), or ctx ends, or bound passes. It
// returns the document and whether it changed. Unchanged, the document is
// the one held when Wait gave up (zero if none is open); a document closed
// while Wait watches it ends the wait at once, unchanged, since its text is
// then on disk. A bound of zero or less only looks.
func (s *Store) Wait(ctx context.Context, path string, after uint64, bound time.Duration) (Doc, bool) {
	var expired <-chan time.Time
	if bound > 0 {
		t := time.NewTimer(bound)
		defer t.Stop()
		expired = t.C
	}
	watched := false
	for {
		s.mu.Lock()
		e, open := s.docs[path]
		var d Doc
		if open {
			d = e.doc
		}
		if open && d.Seq > after {
			s.mu.Unlock()
			return d, true
		}
		if (!open && watched) || bound <= 0 {
			s.mu.Unlock()
			return d, false
		}
		watched = watched || open
		if s.wake == nil {
			s.wake = make(chan struct{})
		}
		wake := s.wake
		s.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return d, false
		case <-expired:
			return d, false
		}
	}
}

// wakeAll tells every waiter to look again. The caller holds mu.
func (s *Store) wakeAll() {
	if s.wake != nil {
		close(s.wake)
		s.wake = nil
	}
}

// batch applies the changes of one didChange without touching the stored
// document until all of them have been located, so that a bad one leaves
// it as it was.
//
// Editors send a multi-range edit bottom-up (VS Code's text model and
// Neovim's apply_text_edits both apply edits in descending order), so each
// change lies before all earlier ones and can be located in the unchanged
// text before them. The batch collects such changes as splices of its base
// text and builds the new text once. A change elsewhere makes it build the
// text so far and go on from that.
type batch struct {
	base string
	idx  *LineIndex // of base; nil after a whole-text change, until needed
	// shared is set while idx is the stored document's, which must not
	// change before the whole batch is known good.
	shared bool
	// pending are in arrival order, so the last one is the first in base.
	pending []splice
	enc     Encoding
}

// splice replaces base[start:end] with text.
type splice struct {
	start, end int
	text       string
}

func (b *batch) add(c Change) error {
	if c.Range == nil {
		b.base, b.idx, b.shared, b.pending = c.Text, nil, false, b.pending[:0]
		return nil
	}
	r := *c.Range
	if r.End.Before(r.Start) {
		return fmt.Errorf("range %d:%d-%d:%d ends before it starts", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
	}
	if len(b.pending) > 0 {
		if start, end, ok := b.locateBefore(r); ok {
			b.pending = append(b.pending, splice{start, end, c.Text})
			return nil
		}
		b.flush(!b.shared)
	}
	idx := b.index()
	start := idx.OffsetAt(b.base, r.Start, b.enc)
	end := idx.OffsetAt(b.base, r.End, b.enc)
	b.pending = append(b.pending, splice{start, end, c.Text})
	return nil
}

// locateBefore finds r in the text as the pending splices left it, if it
// lies wholly before them. The text before the first splice is base's, and
// so are the lines starting there; a walk along one of them that would need
// a byte from the first splice on fails instead.
func (b *batch) locateBefore(r Range) (start, end int, ok bool) {
	m := b.pending[len(b.pending)-1].start
	prefix := b.base[:m]
	at := func(p Position) (int, bool) {
		if int64(p.Line) >= int64(len(b.idx.starts)) {
			return 0, false
		}
		ls := b.idx.starts[p.Line]
		if ls >= m {
			// A line starting at m may not start there any more: the splice
			// may have joined a CR to an LF.
			return 0, false
		}
		off, cut := seek(prefix, ls, p.Character, b.enc)
		return off, !cut
	}
	if start, ok = at(r.Start); !ok {
		return 0, 0, false
	}
	if end, ok = at(r.End); !ok {
		return 0, 0, false
	}
	return start, end, true
}

func (b *batch) index() *LineIndex {
	if b.idx == nil {
		b.idx = NewLineIndex(b.base)
	}
	return b.idx
}

// flush applies the pending splices to base, updating idx in place when
// mutate allows it.
func (b *batch) flush(mutate bool) {
	if len(b.pending) == 0 {
		return
	}
	slices.Reverse(b.pending)
	b.base, b.idx = applySplices(b.base, b.index(), b.pending, mutate)
	b.shared = false
	b.pending = b.pending[:0]
}

// finish returns the text the batch ends with, and its index. The batch is
// known good by now, so the stored index may be updated in place.
func (b *batch) finish() (string, *LineIndex) {
	b.flush(true)
	return b.base, b.index()
}

// applySplices builds base with the splices, which are in order and do not
// overlap, in one copy, and shifts idx to match.
func applySplices(base string, idx *LineIndex, sp []splice, mutate bool) (string, *LineIndex) {
	edits := make([]hashline.ByteEdit, len(sp))
	for i, p := range sp {
		edits[i] = hashline.ByteEdit{Start: p.start, End: p.end, New: p.text}
	}
	text := hashline.ApplyEdits(base, edits)
	if mutate && len(sp) == 1 {
		idx.splice(text, sp[0])
		return text, idx
	}
	return text, idx.spliced(text, sp)
}

// A splice of base[start:end] can change only the line starts in
// [start, end]: whether a line starts at o depends on the bytes at o-1 and
// o alone. Those are dropped and looked for again in the new text, over the
// span the splice put there; the starts after it shift by the change in
// length.

// splice updates x in place for text, which is x's text with p applied.
func (x *LineIndex) splice(text string, p splice) {
	i, _ := slices.BinarySearch(x.starts, p.start)
	j, found := slices.BinarySearch(x.starts, p.end)
	if found {
		j++
	}
	var buf [8]int
	fresh := appendStartsIn(buf[:0], text, p.start, p.start+len(p.text))
	x.starts = slices.Replace(x.starts, i, j, fresh...)
	if delta := len(p.text) - (p.end - p.start); delta != 0 {
		tail := x.starts[i+len(fresh):]
		for k := range tail {
			tail[k] += delta
		}
	}
}

// spliced returns a new index for text, which is x's text with sp applied.
func (x *LineIndex) spliced(text string, sp []splice) *LineIndex {
	old := x.starts
	starts := make([]int, 0, len(old)+len(sp))
	oi, delta := 0, 0
	for _, p := range sp {
		for oi < len(old) && old[oi] < p.start {
			starts = append(starts, old[oi]+delta)
			oi++
		}
		for oi < len(old) && old[oi] <= p.end {
			oi++
		}
		from := p.start + delta
		starts = appendStartsIn(starts, text, from, from+len(p.text))
		delta += len(p.text) - (p.end - p.start)
	}
	for ; oi < len(old); oi++ {
		starts = append(starts, old[oi]+delta)
	}
	return &LineIndex{starts: starts}
}

// appendStartsIn appends the line starts of text in [from, to] to dst,
// skipping one dst already ends with: two adjacent splices share an end.
func appendStartsIn(dst []int, text string, from, to int) []int {
	for o := from; o <= to; o++ {
		if isLineStart(text, o) && (len(dst) == 0 || dst[len(dst)-1] < o) {
			dst = append(dst, o)
		}
	}
	return dst
}
