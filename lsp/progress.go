package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"
)

var progressSeq atomic.Int64

// workProgress reports a command's progress as $/progress notifications
// under one token: the client's workDoneToken when it sent one, else a token
// the server creates when the client supports window/workDoneProgress. With
// neither, reports are dropped.
type workProgress struct {
	s      *Server
	ctx    context.Context
	token  json.RawMessage
	title  string
	begun  bool
	closed bool
}

func (s *Server) progress(ctx context.Context, token json.RawMessage, title string) *workProgress {
	return &workProgress{s: s, ctx: ctx, token: token, title: title}
}

func (p *workProgress) Report(message string, percentage int) {
	if p.closed {
		return
	}
	if !p.begun {
		p.begun = true
		if len(p.token) == 0 || string(p.token) == "null" {
			if !p.s.capabilities().Window.WorkDoneProgress {
				p.closed = true
				return
			}
			p.token, _ = json.Marshal(fmt.Sprintf("hashline-%d", progressSeq.Add(1)))
			var res any
			// Progress is a courtesy: a client slow to create it must not
			// hold up the command.
			ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
			_, err := p.s.conn.Call(ctx, protocol.MethodWorkDoneProgressCreate, map[string]any{"token": p.token}, &res)
			cancel()
			if err != nil {
				p.closed = true
				return
			}
		}
		p.notify(map[string]any{"kind": "begin", "title": p.title, "message": message, "percentage": percentage, "cancellable": false})
		return
	}
	p.notify(map[string]any{"kind": "report", "message": message, "percentage": percentage})
}

// End closes the progress, if it began.
func (p *workProgress) End(message string) {
	if p.begun && !p.closed {
		p.notify(map[string]any{"kind": "end", "message": message})
	}
	p.closed = true
}

func (p *workProgress) notify(value map[string]any) {
	_ = p.s.conn.Notify(context.WithoutCancel(p.ctx), protocol.MethodProgress, map[string]any{"token": p.token, "value": value})
}
