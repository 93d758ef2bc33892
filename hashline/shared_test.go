package hashline_test

import (
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"hashline-ls/hashline"
)

// A text many sessions recorded is kept once, and given back when the last
// of them drops it (docs/contract.md §6.4); texts that share a digest but not
// their trailing whitespace are two texts.
func TestSnapshotTextsShared(t *testing.T) {
	text := strings.Repeat("shared line (13)\n", 1000)
	var sessions []*hashline.Session
	for i := 0; i < 8; i++ {
		s := hashline.NewSession()
		// A fresh copy each time, as each read from disk makes one.
		s.Record("/w/a.txt", hashline.NewText(strings.Clone(text)), hashline.FullLineSet(1000))
		sessions = append(sessions, s)
	}
	first := sessions[0].Snapshots("/w/a.txt")[0].Text
	for _, s := range sessions[1:] {
		if got := s.Snapshots("/w/a.txt")[0].Text; unsafe.StringData(got) != unsafe.StringData(first) || got != text {
			t.Fatal("two sessions keep the same text twice")
		}
	}
	spaced := strings.Replace(text, "13)\n", "13)  \n", 1)
	other := hashline.NewSession()
	other.Record("/w/a.txt", hashline.NewText(spaced), hashline.FullLineSet(1000))
	if got := other.Snapshots("/w/a.txt")[0].Text; got != spaced || hashline.TagOf(spaced) != hashline.TagOf(text) {
		t.Fatalf("a text that differs in trailing whitespace only was taken for the other: %.40q", got)
	}
	if first := sessions[0].Snapshots("/w/a.txt")[0].Text; first != text {
		t.Fatal("the first text changed when the second took its digest's entry")
	}
	if !hashline.SharedHolds(hashline.NewText(text)) {
		t.Fatal("the table does not hold the text")
	}
	for _, s := range append(sessions, other) {
		s.Forget("/w/a.txt")
	}
	sessions, other, first = nil, nil, ""
	probe := hashline.NewText(text)
	for deadline := time.Now().Add(10 * time.Second); hashline.SharedHolds(probe); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the table still holds the text after every session dropped it")
		}
		runtime.GC()
	}
}

// The drop hook runs after every drop of sessions, and only then, so a
// front end can give their memory back.
func TestSessionsDropHook(t *testing.T) {
	ss := hashline.NewSessions()
	calls := 0
	ss.OnDrop(func() { calls++ })
	for _, c := range []struct {
		name string
		do   func()
		want int
	}{
		{"a new session", func() { ss.Get("a") }, 0},
		{"ending one", func() { ss.End("a") }, 1},
		{"ending one that is gone", func() { ss.End("a") }, 0},
		{"filling the set", func() {
			for i := 0; i < hashline.MaxSessions; i++ {
				ss.Get(string(rune('A' + i)))
			}
		}, 0},
		{"one past the set", func() { ss.Get("over") }, 1},
		{"clearing", ss.Clear, 1},
		{"clearing nothing", ss.Clear, 0},
	} {
		before := calls
		c.do()
		if got := calls - before; got != c.want {
			t.Errorf("%s: the hook ran %d times, want %d", c.name, got, c.want)
		}
	}
}

// Sessions of one set shown the same window of the same bytes hold one
// copy of its rows; another window, or a text with one byte changed, is
// rendered for itself; and a window no session holds leaves the table.
func TestSessionsShareWindows(t *testing.T) {
	ss := hashline.NewSessions()
	text := strings.Repeat("package p // shared\n", 500)
	read := func(session, raw string, limit int) hashline.View {
		return ss.Get(session).Read("f.go", "f.go", hashline.NewLazyText(strings.Clone(raw)), 1, limit)
	}
	data := func(v hashline.View) *byte { return unsafe.StringData(v.Content) }
	a := read("a", text, 500)
	if b := read("b", text, 500); data(b) != data(a) || b.Content != a.Content || b.Seen.String() != a.Seen.String() {
		t.Fatal("two sessions shown the same window keep two copies of it")
	}
	if c := read("c", text, 400); data(c) == data(a) || c.Content != hashline.RenderWindowAs(hashline.AnchorTag, "f.go", hashline.NewText(text), 1, 400).Content {
		t.Fatal("another window of the same bytes was not rendered for itself")
	}
	changed := text[:len(text)-2] + "X\n"
	if d := read("d", changed, 500); data(d) == data(a) || d.Content != hashline.RenderWindowAs(hashline.AnchorTag, "f.go", hashline.NewText(changed), 1, 500).Content {
		t.Fatal("a text with its last byte changed was shown the window of the other")
	}
	for _, s := range []string{"a", "b", "c", "d"} {
		read(s, "other\n", 1)
	}
	for i := 0; hashline.WindowsHeld(ss) > 1 && i < 100; i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if n := hashline.WindowsHeld(ss); n != 1 {
		t.Fatalf("the table holds %d windows once every session moved on to one, want 1", n)
	}
}
