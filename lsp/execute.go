package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"hashline-ls/commands"
)

// executeCommand starts a command on its own goroutine and returns at once,
// so the read loop stays free to deliver the client's answers and the
// didChange notifications the command may be waiting for.
func (s *Server) executeCommand(ctx context.Context, call *jsonrpc2.Call, reply jsonrpc2.Replier) {
	var p struct {
		Command       string            `json:"command"`
		Arguments     []json.RawMessage `json:"arguments"`
		WorkDoneToken json.RawMessage   `json:"workDoneToken"`
	}
	if err := json.Unmarshal(call.Params(), &p); err != nil {
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "executeCommand params: "+err.Error()))
		return
	}
	var args json.RawMessage
	switch len(p.Arguments) {
	case 0:
		args = json.RawMessage("{}")
	case 1:
		args = p.Arguments[0]
	default:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s takes one argument object, got %d arguments", p.Command, len(p.Arguments))))
		return
	}
	s.mu.Lock()
	down := s.state == stateShutdown
	if !down {
		// Under s.mu, so that shutdown cancels every command it lets start.
		s.calls.start(ctx, call, reply, p.Command, func(cctx context.Context) (commands.Result, error) {
			prog := s.progress(cctx, p.WorkDoneToken, p.Command)
			res, err := s.cmds.Run(commands.WithProgress(cctx, prog), commands.Call{Command: p.Command, Args: args})
			prog.End("done")
			return res, err
		})
	}
	s.mu.Unlock()
	if down {
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down"))
	}
}

// calls are the commands a connection runs, by request id, so that
// $/cancelRequest can cancel one and the connection's end all of them.
type calls struct {
	log      *zap.Logger
	panicked string // what the log says of a command that panicked

	mu      sync.Mutex // guards cancels
	cancels map[string]context.CancelFunc
}

func newCalls(log *zap.Logger, panicked string) *calls {
	return &calls{log: log, panicked: panicked, cancels: map[string]context.CancelFunc{}}
}

// start runs command on its own goroutine and answers call with what run
// returns; a panic in run is logged and answered as an internal error.
func (c *calls) start(ctx context.Context, call *jsonrpc2.Call, reply jsonrpc2.Replier, command string, run func(context.Context) (commands.Result, error)) {
	key := callKey(call.ID())
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c.mu.Lock()
	c.cancels[key] = cancel
	c.mu.Unlock()
	go func() {
		// The reply must go out even when the request was cancelled: a
		// reply written with a cancelled context is dropped, and the
		// client would wait forever.
		rctx := context.WithoutCancel(ctx)
		defer func() {
			c.mu.Lock()
			delete(c.cancels, key)
			c.mu.Unlock()
			cancel()
			if r := recover(); r != nil {
				c.log.Error(c.panicked, zap.String("command", command), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
				_ = reply(rctx, nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("%s failed: %v", command, r)))
			}
		}()
		res, err := run(cctx)
		// A result wins over the cancellation: an edit the editor already
		// applied must be reported as such, not as cancelled.
		switch {
		case errors.Is(err, context.Canceled):
			_ = reply(rctx, nil, jsonrpc2.NewError(protocol.CodeRequestCancelled, command+" was cancelled before it wrote anything"))
		case err != nil:
			// An unknown command, or arguments that are not one object.
			_ = reply(rctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error()))
		default:
			_ = reply(rctx, res, nil)
		}
	}()
}

// cancel handles $/cancelRequest. The id is decoded here because
// protocol.CancelHandler expects an int32 where JSON gives a float64.
func (c *calls) cancel(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	c.mu.Lock()
	cancel := c.cancels[idKey(p.ID)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// cancelAll cancels every command still running.
func (c *calls) cancelAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cancel := range c.cancels {
		cancel()
	}
}

// answerPanic, deferred by a jsonrpc2 handler, logs a panic in handling req
// and answers it as an internal error, so that it never ends the
// connection.
func answerPanic(ctx context.Context, log *zap.Logger, panicked string, reply jsonrpc2.Replier, req jsonrpc2.Request) {
	if p := recover(); p != nil {
		log.Error(panicked, zap.String("method", req.Method()), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
		if _, isCall := req.(*jsonrpc2.Call); isCall {
			_ = reply(context.WithoutCancel(ctx), nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("the server failed handling %s: %v", req.Method(), p)))
		}
	}
}
