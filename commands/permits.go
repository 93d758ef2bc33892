package commands

import (
	"context"
	"slices"
	"sync"
)

// lock takes the permits a mutation needs (docs/design.md §4.3): its session's,
// so one session's mutations run one at a time from gate to commit and no
// record slips between a validation and its write; then each document's,
// so two sessions never mutate one document at once. Documents are taken in
// sorted order, so two calls cannot deadlock. It gives up when ctx ends;
// the returned func releases every permit.
//
// Session permits are keyed by name, not kept in the hashline.Session:
// Sessions may drop a session while it mutates and hand out a new one under
// the same name, and the two then wait for one permit, so no two mutations
// of one name can overlap.
func (s *Server) lock(ctx context.Context, session string, paths ...string) (func(), error) {
	ps := s.Permits
	if ps == nil {
		ps = &s.own
	}
	if err := ps.sessions.acquire(ctx, session); err != nil {
		return nil, err
	}
	var held []string
	release := func() {
		for i := len(held) - 1; i >= 0; i-- {
			ps.docs.release(held[i])
		}
		ps.sessions.release(session)
	}
	for _, p := range slices.Compact(slices.Sorted(slices.Values(paths))) {
		if err := ps.docs.acquire(ctx, p); err != nil {
			release()
			return nil, err
		}
		held = append(held, p)
	}
	return release, nil
}

// Permits are the mutation permits of the servers that share them: one per
// session name and one per document. Servers over one editor's documents
// share one Permits, so two of them never mutate a document at once.
type Permits struct {
	sessions, docs permits
}

// permits hands out one permit per key. A permit is a channel, so a caller
// waiting for one can give up when its request is cancelled. A key has an
// entry only while someone holds or waits for its permit, so the table does
// not grow with every session or path ever seen.
type permits struct {
	mu sync.Mutex // guards m and every entry's refs; never held while waiting
	m  map[string]*permit
}

type permit struct {
	held chan struct{} // full while a caller holds the permit
	refs int           // callers holding or waiting
}

func (ps *permits) acquire(ctx context.Context, key string) error {
	ps.mu.Lock()
	if ps.m == nil {
		ps.m = map[string]*permit{}
	}
	p := ps.m[key]
	if p == nil {
		p = &permit{held: make(chan struct{}, 1)}
		ps.m[key] = p
	}
	p.refs++
	ps.mu.Unlock()
	select {
	case p.held <- struct{}{}:
		return nil
	case <-ctx.Done():
		ps.drop(key, p)
		return ctx.Err()
	}
}

func (ps *permits) release(key string) {
	ps.mu.Lock()
	p := ps.m[key]
	ps.mu.Unlock()
	<-p.held
	ps.drop(key, p)
}

func (ps *permits) drop(key string, p *permit) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if p.refs--; p.refs == 0 {
		delete(ps.m, key)
	}
}
