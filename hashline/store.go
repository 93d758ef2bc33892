package hashline

import "strings"

// Snapshot is one version of a file as a session was shown it (docs/contract.md §6.1).
type Snapshot struct {
	// Text is the normalized text (LF, no BOM, trailing whitespace kept).
	// It is empty when the file was too large to retain (docs/contract.md §6.3); the tag,
	// digest and seen lines are still kept, so version and provenance
	// checks work, but recovery does not.
	Text     string
	Retained bool
	Tag      Tag
	// Digest identifies the text: two recordings are one version only when
	// their digests are equal, never on tag equality alone (docs/contract.md §3.4).
	Digest Digest
	Lines  int
	// Seen holds the lines displayed in full. Never nil in the store; a
	// missing snapshot is what "no provenance recorded" means.
	Seen *LineSet

	used   uint64
	shared *sharedText // holds Text, which other sessions' snapshots may share
}

// Store is one session's snapshot store: canonical path → versions, newest
// first, within the bounds of docs/contract.md §6.3. It is not safe for concurrent use; the
// Session that owns it serializes access.
type Store struct {
	paths map[string]*history
	bytes int // retained text across all paths
	clock uint64
	// aged remembers the tags the bounds pushed out, per path: such a tag
	// degrades to a version check (docs/contract.md §6.5) instead of being unknown.
	aged map[string]map[Tag]bool
}

type history struct {
	versions []*Snapshot // newest first
	used     uint64
}

// bytes is the text the history retains.
func (h *history) bytes() int {
	n := 0
	for _, v := range h.versions {
		n += len(v.Text)
	}
	return n
}

// NewStore returns an empty store.
func NewStore() *Store { return &Store{paths: map[string]*history{}, aged: map[string]map[Tag]bool{}} }

// maxAged bounds the memory of aged-out tags; past it the memory is
// dropped, which fails closed: those tags become unknown.
const maxAged = 4 * MaxPathsPerSession

func (s *Store) age(path string, tag Tag) {
	if len(s.aged) >= maxAged {
		clear(s.aged)
	}
	if s.aged[path] == nil {
		s.aged[path] = map[Tag]bool{}
	}
	s.aged[path][tag] = true
}

// AgedOut reports whether the bounds pushed a version of path tagged tag
// out of the store.
func (s *Store) AgedOut(path string, tag Tag) bool { return s.aged[path][tag] }

func (s *Store) tick() uint64 { s.clock++; return s.clock }

// Record stores t for path with the lines in seen marked as displayed, and
// returns the snapshot that now holds them. A version with the same digest is
// promoted and its seen lines unioned (read fusion, docs/contract.md §6.2); anything else is a
// new version at the head.
func (s *Store) Record(path string, t *Text, seen *LineSet) *Snapshot {
	if seen == nil {
		seen = &LineSet{}
	}
	now := s.tick()
	h := s.paths[path]
	if h == nil {
		h = &history{}
		s.paths[path] = h
	}
	h.used = now
	for i, v := range h.versions {
		if v.Digest != t.Digest() {
			continue
		}
		v.Seen.Union(seen)
		v.used = now
		// Trailing whitespace may differ within one digest; keep what the
		// file holds now, since that is what recovery will diff against.
		s.retain(v, t)
		copy(h.versions[1:i+1], h.versions[:i])
		h.versions[0] = v
		s.enforce(path)
		return v
	}
	v := &Snapshot{Tag: t.Tag(), Digest: t.Digest(), Lines: t.Len(), Seen: seen.Clone(), used: now}
	s.retain(v, t)
	h.versions = append([]*Snapshot{v}, h.versions...)
	s.enforce(path)
	return v
}

// retain sets v's text from t, within the single-file bound. The text is
// kept once across sessions (sharedText); the bounds still count it in
// every session that holds it.
func (s *Store) retain(v *Snapshot, t *Text) {
	s.bytes -= len(v.Text)
	v.Text, v.Retained, v.shared = "", false, nil
	if norm := t.Normalized(); len(norm) <= MaxRetainedFileBytes {
		v.shared = share(t.Digest(), norm, t)
		v.Text, v.Retained = v.shared.text, true
		s.bytes += len(norm)
	}
}

// enforce applies the bounds after a record on path; path itself is evicted
// last, since it is the one in use.
func (s *Store) enforce(path string) {
	h := s.paths[path]
	for len(h.versions) > MaxVersionsPerPath || len(h.versions) > MinVersionsPerPath && h.bytes() > MaxPathTextBytes {
		s.dropOldest(path, h)
	}
	for len(s.paths) > MaxPathsPerSession || s.bytes > MaxSessionTextBytes {
		cold := s.coldest(path)
		if cold == "" {
			break
		}
		for _, v := range s.paths[cold].versions {
			s.age(cold, v.Tag)
		}
		s.Forget(cold)
	}
	for s.bytes > MaxSessionTextBytes && len(h.versions) > 1 {
		s.dropOldest(path, h)
	}
}

func (s *Store) dropOldest(path string, h *history) {
	last := h.versions[len(h.versions)-1]
	s.age(path, last.Tag)
	s.bytes -= len(last.Text)
	h.versions = h.versions[:len(h.versions)-1]
}

func (s *Store) coldest(except string) string {
	var cold string
	var used uint64
	for p, h := range s.paths {
		if p != except && (cold == "" || h.used < used) {
			cold, used = p, h.used
		}
	}
	return cold
}

// recalls gives t the digest of v, and the line index of the text v was
// recorded from, when t holds that text: the same bytes, or, for a text
// with a BOM or CRs, the same normalized text. Normalized text holds no CR,
// so a t without one that equals it, and starts with no BOM, is in
// normalized form itself. It reports whether t is v's text.
func (v *Snapshot) recalls(t *Text) bool {
	if !v.Retained {
		return false
	}
	if u := v.shared.indexed; t == u || t.raw == v.Text && !strings.HasPrefix(t.raw, bom) {
		t.takeFrom(u)
		t.knowDigest(v.Digest)
		return true
	}
	if x := t.x(); (x.bom || x.hasCR) && t.normalizedIs(v.Text) {
		t.knowDigest(v.Digest)
		return true
	}
	return false
}

// Forget drops every version of path.
func (s *Store) Forget(path string) {
	h := s.paths[path]
	if h == nil {
		return
	}
	for _, v := range h.versions {
		s.bytes -= len(v.Text)
	}
	delete(s.paths, path)
}

// Lookup returns the versions of path whose tag is tag, newest first.
func (s *Store) Lookup(path string, tag Tag) []*Snapshot {
	h := s.paths[path]
	if h == nil {
		return nil
	}
	var out []*Snapshot
	for _, v := range h.versions {
		if v.Tag == tag {
			out = append(out, v)
		}
	}
	return out
}

// Versions returns every version of path, newest first.
func (s *Store) Versions(path string) []*Snapshot {
	if h := s.paths[path]; h != nil {
		return h.versions
	}
	return nil
}

// Has reports whether anything is recorded for path.
func (s *Store) Has(path string) bool { return s.paths[path] != nil }

// Bytes is the retained text across the store.
func (s *Store) Bytes() int { return s.bytes }

// Len is the number of paths with a history.
func (s *Store) Len() int { return len(s.paths) }
