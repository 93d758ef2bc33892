package hashline

import (
	"path/filepath"
	"sync"
)

// MaxSessions is how many sessions a server holds; the coldest goes first.
const MaxSessions = 32

// Session is what one assistant accumulates: the snapshots it was shown,
// its named registers, and its repeat guard (docs/contract.md §2.1). Its methods are
// safe for concurrent use. Serializing a session's mutations from gate to
// commit (docs/design.md §4.3) is the caller's: the core holds no lock across calls.
type Session struct {
	mu    sync.Mutex // guards store, regs, guard and shown
	store *Store
	regs  *Registers
	guard *Guard
	// shown is the window the session was shown last, so that a read of
	// the same bytes and the same window is not rendered again.
	shown *shownWindow
	// windows is the table of windows the sessions of its set share; nil
	// for a session made on its own.
	windows *windows

	used uint64 // recency; guarded by the Sessions mutex
}

// NewSession returns a session that has seen nothing.
func NewSession() *Session {
	return &Session{store: NewStore(), regs: NewRegisters(), guard: NewGuard()}
}

// Read renders lines first..first+limit-1 of t and records them as shown.
func (s *Session) Read(path, display string, t *Text, first, limit int) View {
	return s.ReadAs(AnchorTag, path, display, t, first, limit)
}

// ReadAs is Read with rows in the given anchor style.
func (s *Session) ReadAs(anchors Anchors, path, display string, t *Text, first, limit int) View {
	s.recall(path, t)
	w := shownWindow{raw: t.raw, windowKey: windowKey{size: len(t.raw), anchors: anchors, display: display, first: first, limit: limit}}
	v, ok := s.reshow(&w, t)
	if !ok {
		v = RenderWindowAs(anchors, display, t, first, limit)
		w.digest, w.view = t.Digest(), v
		s.keep(&w)
	}
	s.Record(path, t, v.Seen)
	return v
}

// recall gives t, the live text of path, the digest and the line index of
// the version of path the session holds with the same text, if it holds
// one: a file read again unchanged is compared, not scanned and hashed.
// A text already indexed or hashed keeps what it has.
func (s *Session) recall(path string, t *Text) {
	if t.Hashed() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.store.Versions(path) {
		if v.recalls(t) {
			return
		}
	}
}

// Record notes that the lines in seen of t were displayed in full.
func (s *Session) Record(path string, t *Text, seen *LineSet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.store.Record(path, t, seen)
}

// Forget drops what the session holds about path.
func (s *Session) Forget(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.store.Forget(path)
}

// Fail counts a failed mutation of path in turn against the repeat guard;
// it may mark err terminal (docs/contract.md §15.2).
func (s *Session) Fail(path, turn, kind string, err *Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guard.Fail(path, turn, kind, err)
}

// Commit records what an edit's write left in the file: landed is the text
// the file holds now, recorded at path with every line seen, because the
// session authored it (docs/contract.md §5.3). It also keeps the call's named captures and
// clears the path's repeat count. For REM, landed is nil.
func (s *Session) Commit(p *Plan, path string, landed *Text) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// In capture order, so when the register file overflows the eviction
	// is the same every time.
	for _, c := range p.captures {
		s.regs.Set(c.name, c.lines)
	}
	s.guard.Succeed(p.Path)
	if p.Path != path || landed == nil {
		s.store.Forget(p.Path)
	}
	if landed != nil {
		s.store.Record(path, landed, authoredLines(p.New, landed))
	}
}

// RecordLanded records what a write left in the file: the lines that are
// what the session wrote count as seen (docs/contract.md §5.3: it authored them); lines a
// formatter or the user changed on the way did not come from the session,
// and must be read like any other.
func (s *Session) RecordLanded(path string, intended, landed *Text) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.store.Record(path, landed, authoredLines(intended, landed))
}

// authoredLines are the lines of landed that a line diff pairs with
// intended: all of them when the two are one text.
func authoredLines(intended, landed *Text) *LineSet {
	if intended == nil || intended.Raw() == landed.Raw() {
		return FullLineSet(landed.Len())
	}
	seen := &LineSet{}
	if m, ok := diffLines(intended, landed); ok {
		for j := 1; j < len(m.rev); j++ {
			if int(m.rev[j]) != 0 {
				seen.Add(j)
			}
		}
		m.release()
	}
	return seen
}

// Known is the text of the newest version of path the session holds, or
// nil: a source may compare the file with it rather than read it anew.
func (s *Session) Known(path string) *Text {
	s.mu.Lock()
	defer s.mu.Unlock()
	if vs := s.store.Versions(path); len(vs) > 0 && vs[0].Retained {
		return vs[0].shared.indexed
	}
	return nil
}

// Snapshots returns the versions recorded for path, newest first. The
// snapshots must not be modified.
func (s *Session) Snapshots(path string) []*Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Snapshot(nil), s.store.Versions(path)...)
}

// Sessions holds the sessions of a server by name, at most MaxSessions.
type Sessions struct {
	mu    sync.Mutex // guards m, clock, dropped and each held session's used
	m     map[string]*Session
	clock uint64
	// windows is the windows the sessions hold, one copy of each.
	windows *windows
	// dropped is called, outside mu, after sessions were dropped (ended,
	// cleared or pushed out), so their memory can be given back.
	dropped func()
}

// OnDrop sets what is called after sessions were dropped.
func (ss *Sessions) OnDrop(f func()) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.dropped = f
}

// call runs a drop hook, if there is one.
func call(dropped func()) {
	if dropped != nil {
		dropped()
	}
}

// NewSessions returns an empty set.
func NewSessions() *Sessions { return &Sessions{m: map[string]*Session{}, windows: newWindows()} }

// Get returns the named session, creating it, and dropping the coldest
// session when the set is full.
func (ss *Sessions) Get(name string) *Session {
	s, dropped := ss.get(name)
	call(dropped)
	return s
}

// get is Get under the lock; it returns the drop hook when it pushed a
// session out.
func (ss *Sessions) get(name string) (*Session, func()) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.clock++
	if s, ok := ss.m[name]; ok {
		s.used = ss.clock
		return s, nil
	}
	var dropped func()
	if len(ss.m) >= MaxSessions {
		delete(ss.m, coldest(ss.m, func(s *Session) uint64 { return s.used }))
		dropped = ss.dropped
	}
	s := NewSession()
	s.used, s.windows = ss.clock, ss.windows
	ss.m[name] = s
	return s, dropped
}

// Lookup returns the named session if there is one, without making it or
// counting it as used.
func (ss *Sessions) Lookup(name string) (*Session, bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	s, ok := ss.m[name]
	return s, ok
}

// End drops the named session; it reports whether there was one.
func (ss *Sessions) End(name string) bool {
	ss.mu.Lock()
	_, ok := ss.m[name]
	delete(ss.m, name)
	dropped := ss.dropped
	ss.mu.Unlock()
	if ok {
		call(dropped)
	}
	return ok
}

// Clear drops every session, as a workspace change requires (docs/contract.md §2.1).
func (ss *Sessions) Clear() {
	ss.mu.Lock()
	n := len(ss.m)
	clear(ss.m)
	dropped := ss.dropped
	ss.mu.Unlock()
	if n > 0 {
		call(dropped)
	}
}

// Len is the number of sessions held.
func (ss *Sessions) Len() int {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return len(ss.m)
}

// RecoverPath finds the file an edit meant when its path names no file
// (docs/contract.md §14): the one path this session recorded whose base name is base and
// which has a version tagged tag. The authored path itself is excluded, so
// a deleted file cannot recover onto its own history; a tie finds nothing.
func (s *Session) RecoverPath(base string, tag Tag, authored string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	found := ""
	for p, h := range s.store.paths {
		if p == authored || filepath.Base(p) != base {
			continue
		}
		for _, v := range h.versions {
			if v.Tag == tag {
				if found != "" {
					return "", false
				}
				found = p
				break
			}
		}
	}
	return found, found != ""
}

// HasRead reports whether the session recorded anything of path: kli's
// read-before-edit check (docs/contract.md §17.3).
func (s *Session) HasRead(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.store.Has(path)
}

// Succeed clears the repeat guard's count for key after a write landed.
func (s *Session) Succeed(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guard.Succeed(key)
}
