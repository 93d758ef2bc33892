// Package commands implements the hashline.* commands for every front end:
// the language server, the bridge, MCP and the shell verbs each build one
// Call and hand it to Run, which decodes and checks its arguments once,
// runs the command and renders its result as the text a model reads.
//
// Reads and grep (a third of the package: grep*.go) take live text from a
// Source; edit, write and patch take their permits (permits.go), then go
// through one landing step (land.go) that plans against the live text,
// carries the change to the editor or the disk through a Sink, saves it
// through a Saver when the caller reads the disk next, and reads back what
// landed. What differs between the front ends is that wiring: the Source
// and Sink (the editor's buffers, or the disk), the Saver (the bridge's),
// the Permits (shared by the servers over one editor's documents) and
// Stateless (the shell verbs, which remember nothing between calls).
//
// docs/design.md §3 walks an edit through them; docs/contract.md has the rules.
package commands

import (
	"context"
	"errors"
	"sync"

	"go.uber.org/zap"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/hashline/blocks"
	"hashline-ls/workspace"
)

// Version is the version of hashline-ls.
const Version = "0.1.0"

// Source gives the live text of a file: the editor's buffer when it holds
// one, else the disk.
type Source interface {
	Live(ctx context.Context, abs string) (documents.Live, error)
}

// Syncer is a Source whose editor may hold back the changes a person
// made (Neovim sends them after a debounce): Sync asks for them, so that
// what Live returns next is what the editor holds. Every command that
// reads live text syncs first, and an edit syncs before each plan, so
// nothing is planned against text the editor has left behind.
type Syncer interface {
	Sync(ctx context.Context)
}

// sync brings the Source up to date with the editor, when it can be.
func (s *Server) sync(ctx context.Context) {
	if sy, ok := s.Source.(Syncer); ok {
		sy.Sync(ctx)
	}
}

// Sink writes a change set, all or nothing, and reports the text each file
// holds afterwards. It returns documents.ErrNotApplied when it wrote
// nothing because a file is not the text the change was proven against.
type Sink interface {
	Apply(ctx context.Context, cs documents.ChangeSet) (documents.Landed, error)
}

// Server runs commands. Its exported fields are set once before the first
// call; New and Within set them.
type Server struct {
	Roots    *workspace.Roots
	Sessions *hashline.Sessions
	Source   Source
	Sink     Sink
	Blocks   hashline.BlockResolver
	Log      *zap.Logger
	// Stateless says no call sees an earlier one, as for the shell verbs:
	// patch then re-hashes every anchor but cannot require a read first.
	Stateless bool
	// Saver, when set, saves through the editor what a write left in its
	// buffers, for callers that read the disk next (the bridge of
	// hashline-ls mcp). Without one the user saves.
	Saver Saver
	// Permits, when set, are shared with the other servers over the same
	// documents; nil: the server's own. Taken through lock only.
	Permits *Permits
	// NewFileEOL, when set, says how the editor ends the lines of new
	// files: a file the server creates whose content ends its lines in
	// plain LF takes that ending (eol.go). Nil: the content's own.
	NewFileEOL func() string

	own Permits

	hookOnce sync.Once // sets the Sessions' drop hook on the first call

	outlines outlineCache // the last outlines made (outline.go)
}

// New returns a server over roots that reads live text through source and
// writes through sink, with sessions, a block resolver and mutation
// permits of its own. log may be nil.
func New(roots *workspace.Roots, source Source, sink Sink, log *zap.Logger) *Server {
	return &Server{Roots: roots, Sessions: hashline.NewSessions(), Source: source, Sink: sink, Blocks: blocks.New(), Log: log, Permits: &Permits{}}
}

// Within returns a server confined to roots that shares s's sessions,
// block resolver, source, sink permits and new files' line ending, and saves through saver what
// its changes leave in the editor's buffers: the editor's server for one
// bridge connection.
func (s *Server) Within(roots *workspace.Roots, saver Saver) *Server {
	return &Server{Roots: roots, Sessions: s.Sessions, Source: s.Source, Sink: s.Sink, Blocks: s.Blocks, Log: s.Log, Saver: saver, Permits: s.Permits, NewFileEOL: s.NewFileEOL}
}

// Names of the commands, as executeCommand knows them.
const (
	CmdRead       = "hashline.read"
	CmdGrep       = "hashline.grep"
	CmdPatch      = "hashline.patch"
	CmdEdit       = "hashline.edit"
	CmdWrite      = "hashline.write"
	CmdDescribe   = "hashline.describe"
	CmdSessionEnd = "hashline.session.end"
)

// Commands lists every command the server executes.
func Commands() []string {
	return []string{CmdRead, CmdGrep, CmdEdit, CmdWrite, CmdPatch, CmdDescribe, CmdSessionEnd}
}

// ErrorResult is the result of every failed command.
type ErrorResult struct {
	OK        bool        `json:"ok"`
	Error     ErrorObject `json:"error"`
	Terminate bool        `json:"terminate,omitempty"`
	rendered
}

// ErrorObject is the error of a failed command.
type ErrorObject struct {
	Code      hashline.Code    `json:"code"`
	Message   string           `json:"message"`
	Retriable bool             `json:"retriable"`
	Details   hashline.Details `json:"details"`
}

func errorResult(e *hashline.Error) *ErrorResult {
	return &ErrorResult{Error: ErrorObject{Code: e.Code, Message: e.Message, Retriable: e.Code.Retriable(), Details: e.Details}, Terminate: e.Terminate}
}

// Common holds the arguments every command takes.
type Common struct {
	Session string `json:"session"`
	Turn    string `json:"turn"`
}

func (c Common) sessionName() string {
	if c.Session == "" {
		return "default"
	}
	return c.Session
}

func (s *Server) log() *zap.Logger {
	if s.Log == nil {
		return zap.NewNop()
	}
	return s.Log
}

// resolve maps a path argument into the workspace.
func (s *Server) resolve(p string) (workspace.Path, error) {
	wp, err := s.Roots.Resolve(p)
	var we *workspace.Error
	if errors.As(err, &we) {
		code := hashline.CodeInvalidArgument
		if we.Kind == workspace.Outside {
			code = hashline.CodePathOutsideWorkspace
		}
		return wp, &hashline.Error{Code: code, Message: we.Error(), Details: hashline.Details{Field: "path"}}
	}
	return wp, err
}

func (s *Server) describe(context.Context, Common) (Result, error) {
	return &DescribeResult{OK: true, Version: Version, Tools: Tools(), Guidance: Guidance()}, nil
}

// SessionEndResult is the result of hashline.session.end.
type SessionEndResult struct {
	OK    bool `json:"ok"`
	Ended bool `json:"ended"`
	rendered
}

func (s *Server) sessionEnd(_ context.Context, a Common) (Result, error) {
	return &SessionEndResult{OK: true, Ended: s.Sessions.End(a.sessionName())}, nil
}
