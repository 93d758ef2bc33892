package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"hashline-ls/commands"
	"hashline-ls/endpoint"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// Bridge runs each connection's commands in the language server of a
// running editor, through its endpoint (package endpoint): reads see the
// editor's unsaved buffers and edits land in them as workspace edits. When
// the editor cannot be reached, or goes away, the connection goes on on
// the disk, in a session of its own, and the result that says so is the
// first the model gets from there.
type Bridge struct {
	reg    *endpoint.Registry
	choice endpoint.Choice
	roots  *workspace.Roots
	disk   *Disk
	log    *zap.Logger
}

// helloTimeout bounds the wait for an editor's answer to hello.
const helloTimeout = 10 * time.Second

// NewBridge returns a Bridge to the editor choice names, in reg, for the
// MCP process's roots; disk serves when the editor does not.
func NewBridge(reg *endpoint.Registry, choice endpoint.Choice, roots *workspace.Roots, disk *Disk, log *zap.Logger) *Bridge {
	if log == nil {
		log = zap.NewNop()
	}
	return &Bridge{reg: reg, choice: choice, roots: roots, disk: disk, log: log}
}

// Open connects to the editor and says hello; an editor that cannot be
// reached leaves the session on the disk, and its first result says why.
func (b *Bridge) Open(ctx context.Context) (Session, error) {
	s := &bridgeSession{b: b}
	ec, w, err := b.connect(ctx)
	if err != nil {
		b.log.Warn("the editor cannot be reached: working on the disk", zap.Int("editor", b.choice.Serving.PID), zap.Error(err))
		if err := s.toDisk(ctx); err != nil {
			return nil, err
		}
		s.notice = fmt.Sprintf("the editor with pid %d, which holds %s, cannot be reached (%v): this session works on the disk", b.choice.Serving.PID, b.choice.Folder, err)
		return s, nil
	}
	b.log.Info("serving through the editor", zap.Int("editor", w.PID), zap.Strings("folders", w.Folders), zap.Bool("saves", w.Save))
	s.editor, s.welcome = ec, w
	if len(b.choice.Others) > 0 {
		s.notice = b.servedBy()
	}
	return s, nil
}

// connect dials the editor and says hello.
func (b *Bridge) connect(ctx context.Context) (*editorConn, endpoint.Welcome, error) {
	var w endpoint.Welcome
	uc, err := b.reg.Dial(ctx, b.choice.Serving)
	if err != nil {
		return nil, w, err
	}
	ec := newEditorConn(uc, b.log)
	hctx, cancel := context.WithTimeout(ctx, helloTimeout)
	defer cancel()
	hello := endpoint.Hello{Protocol: endpoint.Protocol, Version: commands.Version, PID: os.Getpid(), Roots: b.roots.List()}
	if err := ec.call(hctx, endpoint.MethodHello, hello, &w); err != nil {
		ec.close()
		return nil, w, fmt.Errorf("it refused hello: %w", err)
	}
	if w.Protocol != endpoint.Protocol {
		ec.close()
		return nil, w, fmt.Errorf("it speaks bridge protocol %d, not %d", w.Protocol, endpoint.Protocol)
	}
	return ec, w, nil
}

// servedBy is the warning of a session that several editors could serve.
func (b *Bridge) servedBy() string {
	var others []string
	for _, o := range b.choice.Others {
		others = append(others, fmt.Sprintf("pid %d (started %s)", o.PID, o.Started.Local().Format(time.DateTime)))
	}
	return fmt.Sprintf("served by the editor with pid %d (workspace folder %s, started %s), the most recent of those holding it; also holding it: %s; to use another, start hashline-ls mcp with --editor PID",
		b.choice.Serving.PID, b.choice.Folder, b.choice.Serving.Started.Local().Format(time.DateTime), strings.Join(others, ", "))
}

// bridgeSession is one MCP connection's session: in the editor until it
// goes away, then on the disk.
type bridgeSession struct {
	b *Bridge

	mu      sync.Mutex // guards the fields below
	editor  *editorConn
	welcome endpoint.Welcome
	disk    Session // set once the session works on the disk
	notice  string  // a warning for the next result
}

// Run runs c in the editor; the editor's server confines it to this
// process's roots, which hello named. On the disk it runs in a session of
// its own.
func (s *bridgeSession) Run(ctx context.Context, c commands.Call) (Reply, error) {
	s.mu.Lock()
	ec := s.editor
	s.mu.Unlock()
	if ec != nil {
		var res json.RawMessage
		err := ec.call(ctx, endpoint.MethodExecute, endpoint.Execute{Command: c.Command, Arguments: c.Args, Via: c.Via}, &res)
		gone, sent := isGone(err)
		if !gone {
			if err != nil {
				return Reply{}, err
			}
			r, err := replyOf(res)
			if err != nil {
				return Reply{}, err
			}
			return s.noted(r)
		}
		if err := s.editorGone(ctx, ec); err != nil {
			return Reply{}, err
		}
		if sent && !readOnly(c.Command) {
			// The editor may have applied it: running it again on the
			// disk could apply it twice.
			return s.noted(refuse(hashline.CodeToolFailed, "", fmt.Sprintf(
				"the editor went away while it ran %s, which may have changed the file: read it before doing anything else", c.Command)))
		}
	}
	s.mu.Lock()
	disk := s.disk
	s.mu.Unlock()
	r, err := disk.Run(ctx, c)
	if err != nil {
		return Reply{}, err
	}
	return s.noted(r)
}

// onEditor reports whether the editor still serves the session.
func (s *bridgeSession) onEditor() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.editor != nil
}

// editorGone moves the session to the disk, once, with the warning that
// says so.
func (s *bridgeSession) editorGone(ctx context.Context, ec *editorConn) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.editor != ec {
		return nil // another call moved it already
	}
	s.editor = nil
	ec.close()
	s.b.log.Warn("the editor went away: working on the disk", zap.Int("editor", s.welcome.PID))
	disk, err := s.b.disk.Open(ctx)
	if err != nil {
		return err
	}
	s.disk = disk
	s.notice = fmt.Sprintf("the editor with pid %d went away: from this call on, this session works on the disk, where the tags read through the editor are unknown; read each file again before editing it", s.welcome.PID)
	return nil
}

// toDisk starts the session on the disk.
func (s *bridgeSession) toDisk(ctx context.Context) error {
	disk, err := s.b.disk.Open(ctx)
	if err != nil {
		return err
	}
	s.disk = disk
	return nil
}

// noted adds the pending warning, if any, to r.
func (s *bridgeSession) noted(r Reply) (Reply, error) {
	s.mu.Lock()
	notice := s.notice
	s.notice = ""
	s.mu.Unlock()
	return withNotice(r, notice)
}

// withNotice is r with notice, when there is one, as its editor warning:
// the result object, as JSON, takes it as AppendWarning adds it, and the
// text it gives.
func withNotice(r Reply, notice string) (Reply, error) {
	if notice == "" {
		return r, nil
	}
	res, err := json.Marshal(r.Result)
	if err != nil {
		return Reply{}, err
	}
	if res, err = commands.AppendWarning(res, hashline.Warning{Kind: hashline.WarnEditor, Message: notice}); err != nil {
		return Reply{}, err
	}
	return replyOf(res)
}

func (s *bridgeSession) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.editor != nil {
		s.editor.close()
		s.editor = nil
	}
	if s.disk != nil {
		return s.disk.Close()
	}
	return nil
}
