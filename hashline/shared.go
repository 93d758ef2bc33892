package hashline

import (
	"runtime"
	"sync"
	"weak"
)

// sharedText is one retained snapshot text. Every snapshot of that text,
// in every session, holds the same one, so 32 sessions that read one file
// version keep it once; when the last of them drops it, the collector
// frees it and its entry leaves the table.
type sharedText struct {
	text string
	// indexed is text as a Text. For a text recorded in normalized form it
	// is the very one recorded, so its line index serves a later read of
	// the same bytes, the next edit's gates and recovery from this version
	// without a scan. The index costs four bytes a line, about a tenth of
	// a line's bytes.
	indexed *Text
}

// sharedTexts indexes the retained texts by the digest the store computes
// anyway. A digest sets trailing whitespace aside (docs/contract.md §3.2), so a hit is
// shared only when the text is the same too; otherwise the newer text
// takes the entry and the older stays with the snapshots that hold it.
var sharedTexts = struct {
	mu sync.Mutex // guards m
	m  map[Digest]weak.Pointer[sharedText]
}{m: map[Digest]weak.Pointer[sharedText]{}}

// share returns the retained copy of text, the normalized text of t, whose
// digest is d.
func share(d Digest, text string, t *Text) *sharedText {
	sharedTexts.mu.Lock()
	defer sharedTexts.mu.Unlock()
	if s := sharedTexts.m[d].Value(); s != nil && s.text == text {
		return s
	}
	s := &sharedText{text: text, indexed: t}
	if text != t.raw {
		s.indexed = NewLazyText(text)
	}
	sharedTexts.m[d] = weak.Make(s)
	runtime.AddCleanup(s, unshare, d)
	return s
}

// unshare drops the entry of d once its text has been collected, unless a
// newer text took the entry meanwhile.
func unshare(d Digest) {
	sharedTexts.mu.Lock()
	defer sharedTexts.mu.Unlock()
	if sharedTexts.m[d].Value() == nil {
		delete(sharedTexts.m, d)
	}
}
