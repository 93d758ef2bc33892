package documents

import (
	"fmt"
	"slices"
)

// An editor that applies an edit without checking the version it was made
// for (Neovim skips the check for version 0, other clients may skip it
// always) can apply it to a text that has the person's keystrokes in it:
// the edit's positions then name other lines, and the edit replaces what
// the person typed there. The journal of a document keeps every change the
// editor reports while an edit of it is on its way, from the text the edit
// was planned against, so that such an edit can be found in what the
// editor did and undone by its exact inverse.

// maxJournal bounds the changes a journal keeps; past it the journal gives
// up, and a misplaced edit is reported rather than undone.
const maxJournal = 512

// journal is what the editor reported of one document since an edit of it
// was sent. Its fields are guarded by the Store's mu.
type journal struct {
	base    string   // the text the edit was planned against
	changes []Change // every content change since, in order
	broken  bool     // the document was reopened or closed, or the journal is full
}

// Watch is the journals of the documents of one change set, from before it
// is sent until its landing has been judged.
type Watch struct {
	store    *Store
	journals map[string]*journal
}

// Watch checks that every file of cs still holds the text it was proven
// against, as CheckUnchanged does, and starts a journal of each open one,
// in one step: nothing the editor reports can fall between the check and
// the journal. End it when the landing is judged.
func (s *Store) Watch(cs ChangeSet) (*Watch, error) {
	if err := s.CheckUnchanged(cs); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := &Watch{store: s, journals: map[string]*journal{}}
	for _, fc := range cs.Files {
		e, open := s.docs[fc.Path]
		if fc.Old == nil || fc.Old.Text == nil || !open || e.doc.Text != fc.Old.Text.Raw() {
			continue
		}
		j := &journal{base: e.handOut().Text}
		w.journals[fc.Path] = j
		if s.journals == nil {
			s.journals = map[string][]*journal{}
		}
		s.journals[fc.Path] = append(s.journals[fc.Path], j)
	}
	return w, nil
}

// End stops the journals.
func (w *Watch) End() {
	if w == nil {
		return
	}
	s := w.store
	s.mu.Lock()
	defer s.mu.Unlock()
	for path, j := range w.journals {
		s.journals[path] = slices.DeleteFunc(s.journals[path], func(x *journal) bool { return x == j })
		if len(s.journals[path]) == 0 {
			delete(s.journals, path)
		}
	}
}

// note records a didChange's changes, or that the document was replaced
// (changes nil), in the journals of path. The caller holds s.mu.
func (s *Store) note(path string, changes []Change) {
	for _, j := range s.journals[path] {
		switch {
		case j.broken:
		case changes == nil || len(j.changes)+len(changes) > maxJournal:
			j.broken, j.changes = true, nil
		default:
			j.changes = append(j.changes, changes...)
		}
	}
}

// Misplaced is an edit the editor applied to other text than the text it
// was planned against, where its positions named other lines.
type Misplaced struct {
	Path    string
	Applied string   // the text the editor applied the edit to
	Result  string   // the text that gave, which the editor holds now
	Undo    []Change // the edit's inverse, in Result's positions
	Lines   [2]int   // the lines of Result the edit wrote, 1-based
}

func (m *Misplaced) Error() string {
	return fmt.Sprintf("the editor applied the edit of %s to text that had changed since it was checked, at lines %d-%d", m.Path, m.Lines[0], m.Lines[1])
}

// Undone is an edit the editor applied at the wrong place and that was
// undone since: nothing of it is left, and it may be planned again.
type Undone struct{ *Misplaced }

func (u *Undone) Error() string { return u.Misplaced.Error() + ", and that was undone" }

// Unwrap makes an Undone an edit that was not applied.
func (u *Undone) Unwrap() error { return ErrNotApplied }

// Warning is what the caller is told once the edit landed after all.
func (u *Undone) Warning() string {
	return fmt.Sprintf("the editor first applied this edit at lines %d-%d, to text the person had changed since it was checked (it does not check the version an edit is made for); that was undone, and the edit was planned again against the text as it is now", u.Lines[0], u.Lines[1])
}

// misplaced looks in the journal of path for the edit sent (its changes,
// in the positions of the text it was planned against) applied to a later
// text, where it wrote over other text than it was meant to. It is found
// only when the document still holds what that gave, and that is cur, the
// text the caller judged not to show the edit: a journal that has moved
// on since holds changes the judgement has not seen, such as the edit's
// own, whose first changes alone are a text the whole edit turns into the
// same result when they rewrite text of the same length.
func (w *Watch) misplaced(path, cur string, sent []Change, enc Encoding) *Misplaced {
	if w == nil || len(sent) == 0 {
		return nil
	}
	j := w.journals[path]
	if j == nil {
		return nil
	}
	w.store.mu.Lock()
	base, changes, broken := j.base, slices.Clone(j.changes), j.broken
	w.store.mu.Unlock()
	if broken || len(changes) == 0 {
		return nil
	}
	states := make([]string, 0, len(changes)+1)
	states = append(states, base)
	for _, c := range changes {
		states = append(states, applyChange(states[len(states)-1], c, enc))
	}
	now := states[len(states)-1]
	if now != cur {
		return nil
	}
	for i := 1; i < len(states)-1; i++ {
		at := states[i]
		got, spans, ok := applySent(at, sent, enc)
		if !ok || got != now || got == at {
			continue
		}
		if !wroteElsewhere(base, at, sent, enc) {
			return nil
		}
		return undoOf(path, at, got, sent, spans, enc)
	}
	return nil
}

// applyChange applies one content change to text.
func applyChange(text string, c Change, enc Encoding) string {
	if c.Range == nil {
		return c.Text
	}
	idx := NewLineIndex(text)
	start, end := idx.OffsetAt(text, c.Range.Start, enc), idx.OffsetAt(text, c.Range.End, enc)
	if end < start {
		return text
	}
	return text[:start] + c.Text + text[end:]
}

// span is where one change of an edit sat, in bytes of the text it was
// applied to.
type span struct{ start, end int }

// applySent applies an edit's changes, all in the positions of one text,
// to text; spans are where they sit, sorted.
func applySent(text string, sent []Change, enc Encoding) (string, []span, bool) {
	idx := NewLineIndex(text)
	spans := make([]span, len(sent))
	order := make([]int, len(sent))
	for i, c := range sent {
		if c.Range == nil {
			return "", nil, false
		}
		spans[i] = span{idx.OffsetAt(text, c.Range.Start, enc), idx.OffsetAt(text, c.Range.End, enc)}
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return spans[a].start - spans[b].start })
	out, at := make([]byte, 0, len(text)), 0
	sorted := make([]span, len(sent))
	for k, i := range order {
		sp := spans[i]
		if sp.start < at || sp.end < sp.start {
			return "", nil, false
		}
		out = append(append(out, text[at:sp.start]...), sent[i].Text...)
		at = sp.end
		sorted[k] = sp
	}
	return string(append(out, text[at:]...)), sorted, true
}

// wroteElsewhere reports whether the edit, applied to at, replaced other
// text than it replaces in base, the text it was planned against.
func wroteElsewhere(base, at string, sent []Change, enc Encoding) bool {
	bi, ai := NewLineIndex(base), NewLineIndex(at)
	for _, c := range sent {
		bs, be := bi.OffsetAt(base, c.Range.Start, enc), bi.OffsetAt(base, c.Range.End, enc)
		as, ae := ai.OffsetAt(at, c.Range.Start, enc), ai.OffsetAt(at, c.Range.End, enc)
		if base[bs:be] != at[as:ae] || lineOf(base, bs) != lineOf(at, as) {
			return true
		}
	}
	return false
}

// lineOf is the text of the line around offset off.
func lineOf(text string, off int) string {
	idx := NewLineIndex(text)
	p := idx.PositionAt(text, off, UTF8)
	start := idx.OffsetAt(text, Position{Line: p.Line}, UTF8)
	end := idx.OffsetAt(text, Position{Line: p.Line, Character: ^uint32(0)}, UTF8)
	return text[start:end]
}

// undoOf is the inverse of the edit that turned at into got: each change's
// new text, where it sits in got, goes back to what at held there.
func undoOf(path, at, got string, sent []Change, spans []span, enc Encoding) *Misplaced {
	gi := NewLineIndex(got)
	m := &Misplaced{Path: path, Applied: at, Result: got}
	texts := sortedTexts(at, sent, enc)
	shift := 0
	for i, sp := range spans {
		start := sp.start + shift
		end := start + len(texts[i])
		shift += len(texts[i]) - (sp.end - sp.start)
		r := Range{Start: gi.PositionAt(got, start, enc), End: gi.PositionAt(got, end, enc)}
		m.Undo = append(m.Undo, Change{Range: &r, Text: at[sp.start:sp.end]})
		if i == 0 {
			m.Lines[0] = int(r.Start.Line) + 1
		}
		// New text ending in a line break wrote the line before its end.
		m.Lines[1] = int(r.End.Line) + 1
		if r.End.Character == 0 && r.End.Line > r.Start.Line {
			m.Lines[1]--
		}
	}
	// Applied bottom-up, each inverse leaves the positions of those above
	// it as they are.
	slices.Reverse(m.Undo)
	return m
}

// sortedTexts are the new texts of sent in the order of their positions.
func sortedTexts(text string, sent []Change, enc Encoding) []string {
	idx := NewLineIndex(text)
	type at struct {
		off  int
		text string
	}
	xs := make([]at, len(sent))
	for i, c := range sent {
		xs[i] = at{idx.OffsetAt(text, c.Range.Start, enc), c.Text}
	}
	slices.SortStableFunc(xs, func(a, b at) int { return a.off - b.off })
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.text
	}
	return out
}
