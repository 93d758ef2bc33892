package documents

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
	"unsafe"

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

// entry is one open document. A keystroke in a large document must not
// cost a new copy of it for the collector to reclaim, or the process's peak
// grows with typing: a change is built in a buffer the store owns, the
// spare, and the buffer the text it replaces lived in becomes the next
// spare. A text handed out of the store (a Doc, a Live) is frozen first,
// and a frozen buffer is never written again, so every string outside the
// store stays what it was.
type entry struct {
	doc Doc
	// idx indexes doc.Text. Change updates it in place, so it never leaves
	// the store.
	idx *LineIndex
	// buf holds doc.Text while nothing outside the store refers to it; nil
	// once frozen, or when the text is a string the editor sent whole.
	buf []byte
	// spare is a buffer no text refers to any more, for the next change.
	spare []byte
	// out is set once doc.Text has been handed out. While it is not, the
	// editor is being typed in unread, and the next change is built in a
	// buffer kept for reuse; once it is, a reader will freeze the next one
	// too, so it is built as a plain string, copied once and not cleared.
	out bool
	// live is doc.Text as a hashline.Text, so that its line index and its
	// digest are computed once for the version, whoever asks: made by the
	// first Live, or taken from an edit that landed as it was meant.
	live *hashline.Text
}

// handOut returns the document for use outside the store, freezing its
// text.
// The caller holds the store's mutex.
func (e *entry) handOut() Doc {
	e.buf, e.out = nil, true
	return e.doc
}

// NewStore returns an empty store counting positions in UTF-16, until
// SetEncoding says what the client and server agreed.
func NewStore() *Store {
	return &Store{docs: map[string]*entry{}}
}

// SetEncoding sets the encoding the ranges of later changes are counted in.
func (s *Store) SetEncoding(e Encoding) {
	setLocked(&s.mu, &s.enc, e)
}

// SetDisk sets where the text of a file the editor does not hold is read.
func (s *Store) SetDisk(d Disk) {
	setLocked(&s.mu, &s.files, d)
}

func (s *Store) disk() Disk {
	return getLocked(&s.mu, &s.files)
}

// DiskText is what the disk holds at path, read beneath its root whether
// or not the editor holds the file; a missing file is an fs.ErrNotExist.
func (s *Store) DiskText(path string) (string, error) {
	b, _, err := s.disk().read(path)
	return stringOf(b), err
}

// Encoding is the encoding ranges of changes are counted in.
func (s *Store) Encoding() Encoding {
	return getLocked(&s.mu, &s.enc)
}

// Seq is the store's counter now: the next open, change or close of any
// document takes a greater one. Noting it before asking the editor for an
// edit lets Wait tell the editor's answer from what came before.
func (s *Store) Seq() uint64 {
	return getLocked(&s.mu, &s.seq)
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
	prev, read := e.live, e.out
	text, idx, buf := b.finish(e.spare, !e.out)
	if buf != nil || !sameString(text, e.doc.Text) {
		// The old text's buffer, unless frozen, is free from now on.
		e.spare, e.buf, e.out, e.live = e.buf, buf, false, nil
		if edits := b.edits(); prev != nil && read && prev.Hashed() && edits != nil {
			// Read before this change, and likely read after it: its
			// text is made of the one read, index and digest, and is
			// held as handed out.
			e.live, e.buf, e.out = prev.Derive(text, edits), nil, true
		}
	}
	e.doc.Text, e.idx = text, idx
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
	return entryLocked(s, path, (*entry).handOut)
}

// Live is the text of the file at abs: the editor's buffer when it holds
// one, else the disk (docs/design.md §2.3). The buffer's text is one hashline.Text
// per version, indexed and hashed at most once.
func (s *Store) Live(ctx context.Context, abs string) (Live, error) {
	return s.LiveKnown(ctx, abs, nil)
}

// LiveKnown is Live for a caller that read abs before as known: a file the
// editor does not hold is compared with known (Disk.LiveKnown).
func (s *Store) LiveKnown(ctx context.Context, abs string, known *hashline.Text) (Live, error) {
	if l, ok := s.buffer(abs); ok {
		return l, nil
	}
	return s.disk().LiveKnown(ctx, abs, known)
}

// buffer is the Live text of the document at abs, if the editor holds it.
func (s *Store) buffer(abs string) (Live, bool) {
	return entryLocked(s, abs, func(e *entry) Live {
		if e.live == nil {
			e.live = hashline.NewLazyText(e.handOut().Text)
		}
		return Live{Text: e.live, Version: e.doc.Version, Open: true}
	})
}

// adopt makes t the Live text of the document at path, when it holds t's
// bytes: an edit that landed as it was meant is not indexed or hashed again.
func (s *Store) adopt(path string, t *hashline.Text) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.docs[path]; ok && e.live == nil && e.doc.Text == t.Raw() {
		e.live = t
	}
}

// IsOpen reports whether the editor holds abs open: grep reads every other
// file straight from the disk (commands.OpenFiles).
func (s *Store) IsOpen(abs string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.docs[abs]
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
	s.mu.Lock()
	if e, ok := s.docs[fc.Path]; ok {
		same := fc.Old.Open && e.doc.Text == fc.Old.Text.Raw()
		s.mu.Unlock()
		return same
	}
	s.mu.Unlock()
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
			d = e.handOut()
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
	// direct is set by finish when pending, in order then, are splices of
	// the text the batch started from.
	direct bool
}

// A splice replaces base[Start:End] with New.
type splice = hashline.ByteEdit

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
			b.pending = append(b.pending, splice{Start: start, End: end, New: c.Text})
			return nil
		}
		b.flush()
	}
	idx := b.index()
	start := idx.OffsetAt(b.base, r.Start, b.enc)
	end := idx.OffsetAt(b.base, r.End, b.enc)
	b.pending = append(b.pending, splice{Start: start, End: end, New: c.Text})
	return nil
}

// locateBefore finds r in the text as the pending splices left it, if it
// lies wholly before them. The text before the first splice is base's, and
// so are the lines starting there; a walk along one of them that would need
// a byte from the first splice on fails instead.
func (b *batch) locateBefore(r Range) (start, end int, ok bool) {
	m := b.pending[len(b.pending)-1].Start
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

// flush applies the pending splices to base. The index is updated in place
// unless it is the stored document's, which stays as it is until the whole
// batch is known good.
func (b *batch) flush() {
	if len(b.pending) == 0 {
		return
	}
	slices.Reverse(b.pending)
	text := hashline.ApplyEdits(b.base, b.pending)
	if b.shared {
		b.idx = b.index().spliced(text, b.pending)
	} else {
		b.idx = b.index().shiftInPlace(text, b.pending)
	}
	b.base, b.shared = text, false
	b.pending = b.pending[:0]
}

// edits are the splices of a finished batch as edits of the text it
// started from, or nil when it went through another text on its way.
func (b *batch) edits() []hashline.ByteEdit {
	if !b.direct {
		return nil
	}
	return slices.Clone(b.pending)
}

// finish returns the text the batch ends with, and its index. The batch is
// known good by now, so the stored index may be updated in place. When
// splices were pending, the text is built in dst if it fits there, or,
// when keep is set, in a new buffer with room to grow; buf is then the
// buffer. Else it is a plain string, and buf is nil.
func (b *batch) finish(dst []byte, keep bool) (text string, idx *LineIndex, buf []byte) {
	if len(b.pending) == 0 {
		return b.base, b.index(), nil
	}
	slices.Reverse(b.pending)
	b.direct = b.shared
	size := splicedSize(b.base, b.pending)
	switch {
	case cap(dst) >= size:
		buf = spliceInto(dst[:0], b.base, b.pending)
	case keep:
		buf = spliceInto(make([]byte, 0, size+size/16+4096), b.base, b.pending)
	default:
		text = hashline.ApplyEdits(b.base, b.pending)
	}
	if buf != nil {
		text = unsafe.String(unsafe.SliceData(buf), len(buf))
	}
	b.base, b.idx = text, b.index().shiftInPlace(text, b.pending)
	return b.base, b.idx, buf
}

// shiftInPlace returns the index of text, which is x's text with sp
// applied: x itself, updated in place, when there is one splice, else a new
// index. x must be the caller's to change.
func (x *LineIndex) shiftInPlace(text string, sp []splice) *LineIndex {
	if len(sp) == 1 {
		x.splice(text, sp[0])
		return x
	}
	return x.spliced(text, sp)
}

// splicedSize is the length of base with the splices applied.
func splicedSize(base string, sp []splice) int {
	size := len(base)
	for _, p := range sp {
		size += len(p.New) - (p.End - p.Start)
	}
	return size
}

// spliceInto appends base with the splices applied to dst.
func spliceInto(dst []byte, base string, sp []splice) []byte {
	pos := 0
	for _, p := range sp {
		dst = append(dst, base[pos:p.Start]...)
		dst = append(dst, p.New...)
		pos = p.End
	}
	return append(dst, base[pos:]...)
}

// sameString reports whether a and b are one string, not just equal ones.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// A splice of base[start:end] can change only the line starts in
// [start, end]: whether a line starts at o depends on the bytes at o-1 and
// o alone. Those are dropped and looked for again in the new text, over the
// span the splice put there; the starts after it shift by the change in
// length.

// splice updates x in place for text, which is x's text with p applied.
func (x *LineIndex) splice(text string, p splice) {
	i, _ := slices.BinarySearch(x.starts, p.Start)
	j, found := slices.BinarySearch(x.starts, p.End)
	if found {
		j++
	}
	var buf [8]int
	fresh := appendStartsIn(buf[:0], text, p.Start, p.Start+len(p.New))
	x.starts = slices.Replace(x.starts, i, j, fresh...)
	if delta := len(p.New) - (p.End - p.Start); delta != 0 {
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
		for oi < len(old) && old[oi] < p.Start {
			starts = append(starts, old[oi]+delta)
			oi++
		}
		for oi < len(old) && old[oi] <= p.End {
			oi++
		}
		from := p.Start + delta
		starts = appendStartsIn(starts, text, from, from+len(p.New))
		delta += len(p.New) - (p.End - p.Start)
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

// setLocked sets *field to v under mu: a setting the store's readers take
// under mu.
func setLocked[T any](mu *sync.Mutex, field *T, v T) {
	mu.Lock()
	*field = v
	mu.Unlock()
}

// entryLocked is f of the open document at path, under s.mu; false when
// there is none.
func entryLocked[T any](s *Store, path string, f func(*entry) T) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.docs[path]
	if !ok {
		var none T
		return none, false
	}
	return f(e), true
}

// getLocked is *field read under mu.
func getLocked[T any](mu *sync.Mutex, field *T) T {
	mu.Lock()
	defer mu.Unlock()
	return *field
}
