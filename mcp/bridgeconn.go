package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"

	"hashline-ls/endpoint"
	"hashline-ls/lsp"
)

// editorConn is the MCP process's end of one bridge connection: requests
// out, their answers back, over the language server's framing. It is
// written here rather than taken from jsonrpc2.Conn because a call must end
// when the editor goes away, which that Conn's calls do not notice, and
// because a cancelled call must name its request id in $/cancelRequest and
// still take the answer: an edit the editor applied is reported as such.
type editorConn struct {
	stream jsonrpc2.Stream
	gone   chan struct{} // closed when the connection ends

	mu      sync.Mutex // guards next and pending
	next    int32
	pending map[jsonrpc2.ID]chan *jsonrpc2.Response
}

// goneError is a call that ended because the editor went away; sent says
// whether the request may have reached it.
type goneError struct{ sent bool }

func (e *goneError) Error() string {
	if e.sent {
		return "the editor went away before it answered"
	}
	return "the editor went away"
}

func newEditorConn(c net.Conn, log *zap.Logger) *editorConn {
	ec := &editorConn{stream: lsp.NewStream(c, log), gone: make(chan struct{}), pending: map[jsonrpc2.ID]chan *jsonrpc2.Response{}}
	go ec.read()
	return ec
}

// read delivers answers until the connection ends. The server sends no
// requests of its own; one that comes anyway is answered as unknown.
func (c *editorConn) read() {
	defer close(c.gone)
	for {
		msg, _, err := c.stream.Read(context.Background())
		if err != nil {
			return
		}
		switch m := msg.(type) {
		case *jsonrpc2.Response:
			c.mu.Lock()
			ch := c.pending[m.ID()]
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case *jsonrpc2.Call:
			r, _ := jsonrpc2.NewResponse(m.ID(), nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "hashline-ls mcp answers no requests"))
			_, _ = c.stream.Write(context.Background(), r)
		}
	}
}

// cancelGrace is how long a cancelled call waits for the server's answer,
// which comes at once from a server that is there.
const cancelGrace = 2 * time.Second

// call sends method and waits for its answer, decoded into result. When
// ctx ends first it sends $/cancelRequest and waits a little longer: the
// server answers a cancelled call at once, with its result when it had
// already written.
func (c *editorConn) call(ctx context.Context, method string, params, result any) error {
	c.mu.Lock()
	c.next++
	id := jsonrpc2.NewNumberID(c.next)
	ch := make(chan *jsonrpc2.Response, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	req, err := jsonrpc2.NewCall(id, method, params)
	if err != nil {
		return fmt.Errorf("%s params: %w", method, err)
	}
	select {
	case <-c.gone:
		return &goneError{}
	default:
	}
	if _, err := c.stream.Write(ctx, req); err != nil {
		return &goneError{}
	}
	done := ctx.Done()
	var grace <-chan time.Time
	for {
		select {
		case <-grace:
			return ctx.Err()
		case r := <-ch:
			if r.Err() != nil {
				return r.Err()
			}
			if result == nil {
				return nil
			}
			return json.Unmarshal(r.Result(), result)
		case <-c.gone:
			return &goneError{sent: true}
		case <-done:
			done = nil
			t := time.NewTimer(cancelGrace)
			defer t.Stop()
			grace = t.C
			if n, err := jsonrpc2.NewNotification(endpoint.MethodCancel, map[string]any{"id": &id}); err == nil {
				_, _ = c.stream.Write(context.Background(), n)
			}
		}
	}
}

func (c *editorConn) close() { c.stream.Close() }

// isGone reports whether err is the editor going away, and whether the
// request may have reached it.
func isGone(err error) (gone, sent bool) {
	var g *goneError
	if errors.As(err, &g) {
		return true, g.sent
	}
	return false, false
}
