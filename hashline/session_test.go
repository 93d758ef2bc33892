package hashline_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"hashline-ls/hashline"
)

// docs/contract.md §2.1: at most 32 sessions, the coldest dropped first.
func TestSessionsBound(t *testing.T) {
	ss := hashline.NewSessions()
	first := ss.Get("s0")
	for i := 1; i < hashline.MaxSessions; i++ {
		ss.Get(fmt.Sprintf("s%d", i))
	}
	if ss.Len() != hashline.MaxSessions {
		t.Fatalf("len = %d", ss.Len())
	}
	// Touch s0 so s1 is the coldest, then go one past the bound.
	if ss.Get("s0") != first {
		t.Fatal("Get returned a new session for a held name")
	}
	s1 := ss.Get("s1")
	ss.Get("s0")
	for i := 2; i < hashline.MaxSessions; i++ {
		ss.Get(fmt.Sprintf("s%d", i))
	}
	ss.Get("new")
	if ss.Len() != hashline.MaxSessions {
		t.Fatalf("len past the bound = %d", ss.Len())
	}
	if ss.Get("s0") != first {
		t.Fatal("a recently used session was dropped")
	}
	if ss.Get("s1") == s1 {
		t.Fatal("the coldest session survived")
	}
	if !ss.End("new") || ss.End("new") {
		t.Fatal("End did not report the session once")
	}
	ss.Clear()
	if ss.Len() != 0 {
		t.Fatalf("len after Clear = %d", ss.Len())
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
