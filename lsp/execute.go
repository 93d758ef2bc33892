package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

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
	key := callKey(call.ID())
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.mu.Lock()
	if s.state == stateShutdown {
		s.mu.Unlock()
		cancel()
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down"))
		return
	}
	s.inflight[key] = cancel
	s.mu.Unlock()

	go func() {
		// The reply must go out even when the request was cancelled: a
		// reply written with a cancelled context is dropped, and the
		// client would wait forever.
		rctx := context.WithoutCancel(ctx)
		defer func() {
			s.mu.Lock()
			delete(s.inflight, key)
			s.mu.Unlock()
			cancel()
			if r := recover(); r != nil {
				s.log.Error("command panicked", zap.String("command", p.Command), zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
				_ = reply(rctx, nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("%s failed: %v", p.Command, r)))
			}
		}()
		prog := s.progress(cctx, p.WorkDoneToken, p.Command)
		res, err := s.cmds.Execute(commands.WithProgress(cctx, prog), p.Command, args)
		prog.End("done")
		// A result wins over the cancellation: an edit the editor already
		// applied must be reported as such, not as cancelled.
		switch {
		case errors.Is(err, context.Canceled):
			_ = reply(rctx, nil, jsonrpc2.NewError(protocol.CodeRequestCancelled, p.Command+" was cancelled before it wrote anything"))
		case err != nil:
			// An unknown command, or arguments that are not one object.
			_ = reply(rctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error()))
		default:
			_ = reply(rctx, res, nil)
		}
	}()
}
