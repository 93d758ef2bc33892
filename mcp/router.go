package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"time"

	"go.uber.org/zap"

	"hashline-ls/commands"
	"hashline-ls/workspace"
)

// Router serves each connection on the route found when the MCP server
// started, and looks again between calls when the registry folder changed:
// a terminal agent is often started before the editor, whose server is
// then found on the next call; one that goes away leaves the session on
// the disk (Bridge) until another is found.
type Router struct {
	first Route
	roots *workspace.Roots
	disk  *Disk
	log   *zap.Logger
}

// Open starts the connection's session on the route found at start.
func (r *Router) Open(ctx context.Context) (Session, error) {
	s := &routedSession{r: r, stamp: r.stamp(), reads: map[string]json.RawMessage{}}
	if err := s.use(ctx, r.first); err != nil {
		return nil, err
	}
	return s, nil
}

// stamp is the registry folder's modification time, which changes when an
// editor's server publishes itself there or its entry goes: one stat per
// call, rather than listing the editors each time.
func (r *Router) stamp() time.Time {
	if r.first.Folder == "" {
		return time.Time{}
	}
	fi, err := os.Stat(r.first.Folder)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// routedSession is one connection's session on whichever route serves it
// now. It moves from the disk to an editor between calls, never in the
// middle of one: a move waits for the calls running to end.
type routedSession struct {
	r *Router

	mu      sync.RWMutex // a call holds it shared; a move holds it alone, with the fields below
	cur     Session
	bridged *bridgeSession // cur, when an editor served it at its start
	stamp   time.Time      // the registry folder's, when the route was last looked up
	notice  string         // the move's warning, for the next result

	readsMu sync.Mutex                 // guards reads
	reads   map[string]json.RawMessage // each path's last successful read, by its arguments
}

// use makes route the session's, closing the one before.
func (s *routedSession) use(ctx context.Context, route Route) error {
	var next Session
	var err error
	if route.Editor == nil {
		next, err = s.r.disk.Open(ctx)
	} else {
		next, err = NewBridge(route.reg, *route.Editor, s.r.roots, s.r.disk, s.r.log).Open(ctx)
	}
	if err != nil {
		return err
	}
	if s.cur != nil {
		s.cur.Close()
	}
	s.cur, s.bridged = next, nil
	if b, ok := next.(*bridgeSession); ok {
		s.bridged = b
	}
	return nil
}

// Run runs c on the route that serves the session now, after looking the
// route up again when it may have changed.
func (s *routedSession) Run(ctx context.Context, c commands.Call) (Reply, error) {
	if err := s.reroute(ctx); err != nil {
		return Reply{}, err
	}
	s.mu.RLock()
	res, err := s.cur.Run(ctx, c)
	s.mu.RUnlock()
	if err != nil {
		return Reply{}, err
	}
	if c.Command == commands.CmdRead && res.OK {
		s.recordRead(c.Args)
	}
	s.mu.Lock()
	notice := s.notice
	s.notice = ""
	s.mu.Unlock()
	return withNotice(res, notice)
}

// reroute moves the session to an editor that now holds its roots, when
// it works on the disk and the registry folder changed since it last
// looked. An editor that serves it already is left to notice its own end.
func (s *routedSession) reroute(ctx context.Context) error {
	stamp := s.r.stamp()
	s.mu.Lock()
	defer s.mu.Unlock()
	if stamp.Equal(s.stamp) || s.bridged != nil && s.bridged.onEditor() {
		return nil
	}
	s.stamp = stamp
	route, err := FindRoute(s.r.first.Roots, 0)
	if err != nil || route.Editor == nil {
		return nil
	}
	next, err := NewBridge(route.reg, *route.Editor, s.r.roots, s.r.disk, s.r.log).Open(ctx)
	if err != nil {
		return err
	}
	b := next.(*bridgeSession)
	if !b.onEditor() {
		// It could not be reached: stay where the session is.
		next.Close()
		return nil
	}
	s.r.log.Info("an editor started: serving through it", zap.Int("editor", route.Editor.Serving.PID))
	s.cur.Close()
	s.cur, s.bridged = b, b
	s.replayReads(ctx)
	s.notice = fmt.Sprintf("from this call on, this session is served by the editor with pid %d, which holds %s: reads see its unsaved buffers and edits land in them; a tag read before stays valid where the editor holds the same text, and is EDIT_TAG_UNKNOWN, with the live tag, where it does not",
		route.Editor.Serving.PID, route.Editor.Folder)
	return nil
}

// recordRead keeps a successful read's arguments, by its path.
func (s *routedSession) recordRead(args json.RawMessage) {
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(args, &a) != nil || a.Path == "" {
		return
	}
	s.readsMu.Lock()
	s.reads[a.Path] = args
	s.readsMu.Unlock()
}

// replayReads reads again, in the session just moved to, what the model
// was last shown of each file, so the editor's server knows those tags
// and lines: where its text is the same, the tag the model holds is its
// own; elsewhere the tag is unknown to it, and an edit is refused with the
// live tag.
func (s *routedSession) replayReads(ctx context.Context) {
	s.readsMu.Lock()
	defer s.readsMu.Unlock()
	for path, args := range s.reads {
		if _, err := s.cur.Run(ctx, commands.Call{Command: commands.CmdRead, Via: "MCP", Args: args}); err != nil {
			s.r.log.Warn("a read replayed in the editor failed", zap.String("path", path), zap.Error(err))
		}
	}
}

func (s *routedSession) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur.Close()
}
