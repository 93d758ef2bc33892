package hashline_test

import (
	"fmt"
	"testing"

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
