package hashline

import (
	"runtime"
	"slices"
	"sync"
	"weak"
)

// shownWindow is a rendered window and what it was rendered from. A window
// depends on nothing else: the same bytes, anchor style, display path and
// window render to the same view, byte for byte. It is never changed once
// kept, so sessions share it.
type shownWindow struct {
	raw string
	windowKey
	digest Digest // raw's
	view   View
}

// windowKey is what a window is asked for with, and the size of its text.
type windowKey struct {
	size         int
	anchors      Anchors
	display      string
	first, limit int
}

// same reports whether w is the window u asks for.
func (w *shownWindow) same(u *shownWindow) bool {
	return w.windowKey == u.windowKey && w.raw == u.raw
}

// maxShownBytes bounds the window a session keeps: one, of a text the
// store may retain, whose rows are at most this long. Its text is the
// snapshot's own string when the text is in normalized form (LF, no BOM),
// so a session holds at most this much more, and at most
// MaxRetainedFileBytes more again for a text with CRs or a BOM; and less,
// where sessions of one set were shown the same window (windows).
const maxShownBytes = MaxRetainedFileBytes

// reshow is the window the session was shown last, or one the sessions of
// its set hold, when w asks for that window of the same bytes; t, which
// holds them, takes their digest. The view returned is the caller's: it
// shares only the immutable content.
func (s *Session) reshow(w *shownWindow, t *Text) (View, bool) {
	s.mu.Lock()
	last := s.shown
	s.mu.Unlock()
	if last == nil || !last.same(w) {
		if last = s.windows.find(w); last == nil {
			return View{}, false
		}
		s.mu.Lock()
		s.shown = last
		s.mu.Unlock()
	}
	t.knowDigest(last.digest)
	v := last.view
	v.Seen, v.Clipped = v.Seen.Clone(), slices.Clone(v.Clipped)
	return v, true
}

// keep makes w the window the session was shown last, within
// maxShownBytes, and one its set holds.
func (s *Session) keep(w *shownWindow) {
	if len(w.raw) > MaxRetainedFileBytes || len(w.view.Content) > maxShownBytes {
		w = nil
	} else {
		w.view.Seen, w.view.Clipped = w.view.Seen.Clone(), slices.Clone(w.view.Clipped)
		s.windows.add(w)
	}
	s.mu.Lock()
	s.shown = w
	s.mu.Unlock()
}

// windows is the windows the sessions of one set were shown last, one copy
// of each: sessions that read the same bytes in the same window share its
// rows rather than each keeping them. A window stays while a session holds
// it, and leaves the table once none does.
type windows struct {
	mu sync.Mutex // guards m
	m  map[windowKey][]weak.Pointer[shownWindow]
}

func newWindows() *windows {
	return &windows{m: map[windowKey][]weak.Pointer[shownWindow]{}}
}

// find is the window held that w asks for, if any. The texts are compared
// outside the lock: a compare is up to MaxRetainedFileBytes long.
func (ws *windows) find(w *shownWindow) *shownWindow {
	if ws == nil {
		return nil
	}
	ws.mu.Lock()
	var held []*shownWindow
	for _, p := range ws.m[w.windowKey] {
		if h := p.Value(); h != nil {
			held = append(held, h)
		}
	}
	ws.mu.Unlock()
	for _, h := range held {
		if h.raw == w.raw {
			return h
		}
	}
	return nil
}

// add holds w, until no session does.
func (ws *windows) add(w *shownWindow) {
	if ws == nil {
		return
	}
	ws.mu.Lock()
	ws.m[w.windowKey] = append(ws.m[w.windowKey], weak.Make(w))
	ws.mu.Unlock()
	runtime.AddCleanup(w, ws.prune, w.windowKey)
}

// prune drops the windows of key that no session holds any more.
func (ws *windows) prune(key windowKey) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	held := slices.DeleteFunc(ws.m[key], func(p weak.Pointer[shownWindow]) bool { return p.Value() == nil })
	if len(held) == 0 {
		delete(ws.m, key)
		return
	}
	ws.m[key] = held
}
