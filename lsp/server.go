// Package lsp is the protocol edge of hashline-ls: it speaks the Language
// Server Protocol over a stream, keeps the documents the editor has open,
// runs the hashline.* commands, and lands their edits through
// workspace/applyEdit so they go through the editor's buffers and undo
// (apply.go), saving through the editor what a bridged edit left (save.go).
// It also serves the bridge (bridge.go): the endpoint hashline-ls mcp
// reaches the running editor's server through, each connection a session
// of its own over the same documents.
//
// Concurrency (docs/design.md §4.1): jsonrpc2 calls the handler on its read loop, and
// the same loop delivers the answers to the server's own calls. So
// notifications are handled on the loop, in order, and never wait; every
// executeCommand runs on its own goroutine, where it may call the client and
// wait for the didChange that follows.
//
// docs/design.md §4 and docs/design.md §5 describe its concurrency and writes.
package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"hashline-ls/commands"
	"hashline-ls/documents"
	"hashline-ls/workspace"
)

// Server is one connection's language server.
type Server struct {
	conn jsonrpc2.Conn
	log  *zap.Logger
	docs *documents.Store
	cmds *commands.Server
	// bridge is the endpoint for hashline-ls mcp processes (bridge.go).
	bridge *bridge
	calls  *calls // the commands running, by request id (execute.go)

	mu       sync.Mutex // guards the fields below
	state    state
	caps     clientCaps
	offers   clientOffers
	settings Settings
	folders  []string          // canonical workspace folders
	uris     map[string]string // document URI → canonical path, while open

	exit chan int // receives the exit code when the client says exit
}

type state int

const (
	stateNew state = iota
	stateRunning
	stateShutdown
)

// Serve runs a server on rw until the client exits or the stream ends, and
// returns the process exit code: 0 after shutdown and exit, 1 otherwise.
// Once initialized it publishes its bridge endpoint where ep says (nowhere
// for a zero ep), and withdraws it when the editor shuts it down or goes
// away.
func Serve(ctx context.Context, rw io.ReadWriteCloser, log *zap.Logger, ep Endpoints) int {
	if log == nil {
		log = zap.NewNop()
	}
	s := New(log)
	s.bridge.reg = ep.Registry
	if ep.Registry == nil && ep.Problem != nil {
		s.bridge.problem = ep.Problem.Error()
	}
	conn := jsonrpc2.NewConn(newStream(rw, log))
	s.conn = conn
	// Once Serve returns no answer can reach the client, and a command
	// waiting for a didChange would wait out its land timeout.
	defer s.calls.cancelAll()
	defer s.bridge.close()
	conn.Go(ctx, s.handle)
	select {
	case code := <-s.exit:
		// Closing the conn cannot unblock a read of os.Stdin, so return
		// instead of waiting for the read loop to end.
		conn.Close()
		return code
	case <-conn.Done():
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.state == stateShutdown {
			return 0
		}
		return 1
	case <-ctx.Done():
		conn.Close()
		return 1
	}
}

// New returns a server that is not yet connected; Serve connects it.
func New(log *zap.Logger) *Server {
	docs := documents.NewStore()
	roots, _ := workspace.New()
	s := &Server{
		log:      log,
		docs:     docs,
		settings: defaultSettings(),
		uris:     map[string]string{},
		calls:    newCalls(log, "command panicked"),
		exit:     make(chan int, 1),
	}
	docs.SetDisk(documents.Disk{Roots: roots})
	s.cmds = commands.New(roots, source{s}, sink{s}, log)
	s.cmds.NewFileEOL = s.newFileEOL
	s.bridge = newBridge(s)
	return s
}

// handle is the jsonrpc2 handler. It always returns nil: jsonrpc2 stores a
// returned error on the conn, and a second one of another type panics. A
// failure is answered to the client, or logged when the answer itself
// cannot be written.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	defer answerPanic(ctx, s.log, "handler panicked", reply, req)
	if err := s.dispatch(ctx, reply, req); err != nil {
		s.log.Warn("reply not sent", zap.String("method", req.Method()), zap.Error(err))
	}
	return nil
}

// dispatch handles one message; its error is that of writing the reply.
func (s *Server) dispatch(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	call, isCall := req.(*jsonrpc2.Call)
	if !isCall {
		s.notification(ctx, req)
		return nil
	}
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	switch {
	case st == stateNew && req.Method() != protocol.MethodInitialize:
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized: send initialize first"))
	case st == stateShutdown:
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down: only exit is accepted"))
	case st != stateNew && req.Method() == protocol.MethodInitialize:
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is already initialized"))
	}
	switch req.Method() {
	case protocol.MethodInitialize:
		res, err := s.initialize(req.Params())
		if err != nil {
			return reply(ctx, nil, err)
		}
		return reply(ctx, s.bridge.initialize(res), nil)
	case protocol.MethodShutdown:
		s.shutdown()
		s.bridge.close()
		return reply(ctx, nil, nil)
	case protocol.MethodWorkspaceExecuteCommand:
		s.executeCommand(ctx, call, reply)
		return nil
	case methodDocumentDigest:
		return reply(ctx, s.documentDigest(req.Params()), nil)
	}
	return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("method %q is not supported by hashline-ls", req.Method())))
}

func (s *Server) notification(ctx context.Context, req jsonrpc2.Request) {
	params := req.Params()
	var err error
	switch req.Method() {
	case protocol.MethodInitialized:
	case protocol.MethodExit:
		s.mu.Lock()
		code := 1
		if s.state == stateShutdown {
			code = 0
		}
		s.mu.Unlock()
		select {
		case s.exit <- code:
		default:
		}
	case protocol.MethodCancelRequest:
		s.calls.cancel(params)
	case protocol.MethodTextDocumentDidOpen:
		err = s.didOpen(params)
	case protocol.MethodTextDocumentDidChange:
		err = s.didChange(params)
	case protocol.MethodTextDocumentDidClose:
		err = s.didClose(params)
	case protocol.MethodTextDocumentDidSave:
	case protocol.MethodWorkspaceDidChangeWorkspaceFolders:
		err = s.didChangeFolders(params)
		s.bridge.publish()
	case protocol.MethodWorkspaceDidChangeConfiguration:
		err = s.didChangeConfiguration(params)
	default:
		s.log.Debug("ignored notification", zap.String("method", req.Method()))
	}
	if err != nil {
		s.log.Warn("notification failed", zap.String("method", req.Method()), zap.Error(err))
	}
}

// shutdown ends every command still waiting, and refuses new ones.
func (s *Server) shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state = stateShutdown
	s.calls.cancelAll()
}

// idKey spells a request id from the wire the way callKey spells a
// jsonrpc2.ID: numbers as #N, strings quoted.
func idKey(raw json.RawMessage) string {
	var n float64
	if json.Unmarshal(raw, &n) == nil {
		return fmt.Sprintf("#%d", int64(n))
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		if str == "" {
			return callKey(emptyID)
		}
		return fmt.Sprintf("%q", str)
	}
	return string(raw)
}

func callKey(id jsonrpc2.ID) string { return fmt.Sprintf("%q", id) }

// landTimeout is how long a write waits for the editor to report the text
// that landed.
func (s *Server) landTimeout() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Duration(s.settings.LandTimeoutMs) * time.Millisecond
}

// applyEditTimeout is how long a write waits for the editor's answer to
// workspace/applyEdit.
func (s *Server) applyEditTimeout() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Duration(s.settings.ApplyEditTimeoutMs) * time.Millisecond
}

func (s *Server) clientOffers() clientOffers {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offers
}

// newFileEOL is the line ending the editor gives new files.
func (s *Server) newFileEOL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings.NewFileEOL
}

func (s *Server) capabilities() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}
