package commands

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"

	"hashline-ls/hashline"
)

// One mutation at a time per session (docs/design.md §4.3) and per document across
// sessions: while a mutation holds its permits, another that
// needs one of them waits, and gives up with its context; one that needs
// none of them goes ahead.
func TestLockSerializes(t *testing.T) {
	for _, c := range []struct {
		name    string
		session string
		paths   []string
		waits   bool
	}{
		{"the same session", "a", nil, true},
		{"the same session, another file", "a", []string{"/y"}, true},
		{"another session, the same file", "b", []string{"/x"}, true},
		{"another session, the same file among others", "b", []string{"/z", "/x"}, true},
		{"another session, another file", "b", []string{"/y"}, false},
		{"another session, no file", "b", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := newServer(t, nil)
			release, err := s.lock(context.Background(), "a", "/x")
			if err != nil {
				t.Fatal(err)
			}
			if c.waits {
				ctx, cancel := context.WithCancel(context.Background())
				errc := make(chan error, 1)
				go func() {
					_, err := s.lock(ctx, c.session, c.paths...)
					errc <- err
				}()
				for waiters(&s.own.sessions, "a") < 2 && waiters(&s.own.docs, "/x") < 2 {
					select {
					case err := <-errc:
						t.Fatalf("lock(%s, %v) = %v while its permit was held, want it to wait", c.session, c.paths, err)
					default:
						runtime.Gosched()
					}
				}
				cancel()
				if err := <-errc; !errors.Is(err, context.Canceled) {
					t.Fatalf("lock(%s, %v) after its context ended = %v, want context.Canceled", c.session, c.paths, err)
				}
			} else {
				again, err := s.lock(context.Background(), c.session, c.paths...)
				if err != nil {
					t.Fatalf("lock(%s, %v) = %v, want the permits at once", c.session, c.paths, err)
				}
				again()
			}
			release()
			if n, m := len(s.own.sessions.m), len(s.own.docs.m); n != 0 || m != 0 {
				t.Fatalf("%d session and %d document permits left after every release, want none", n, m)
			}
		})
	}
}

// waiters is how many callers hold or wait for key's permit.
func waiters(ps *permits, key string) int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if p := ps.m[key]; p != nil {
		return p.refs
	}
	return 0
}

// A session's permit is its name's: when Sessions drops the session object
// in the middle of a mutation and makes a new one under the same name, a
// second mutation of that name still waits for the first.
func TestSessionPermitOutlivesEviction(t *testing.T) {
	s, _ := newServer(t, nil)
	busy := s.Sessions.Get("busy") // the coldest from here on
	release, err := s.lock(context.Background(), "busy")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	for i := 0; i < 2*hashline.MaxSessions; i++ {
		s.Sessions.Get(fmt.Sprintf("s%d", i))
	}
	if s.Sessions.Get("busy") == busy {
		t.Fatal("the session was not dropped, so this test shows nothing")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.lock(ctx, "busy"); !errors.Is(err, context.Canceled) {
		t.Fatalf("lock while held = %v, want context.Canceled", err)
	}
}
