package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"

	"hashline-ls/commands"
	"hashline-ls/endpoint"
	"hashline-ls/workspace"
)

// This file is the server's end of the bridge to hashline-ls mcp (package
// endpoint has the protocol): it publishes the endpoint while the editor
// holds workspace folders, and serves each connection with a command
// server of its own over the editor's documents and sink.

// Endpoints is where a server publishes its bridge endpoint: a registry,
// or, when there is none, why (initialize tells the editor).
type Endpoints struct {
	Registry *endpoint.Registry
	Problem  error
}

// bridge is a server's endpoint and its connections.
type bridge struct {
	s   *Server
	reg *endpoint.Registry // nil: publish nothing

	mu      sync.Mutex // guards the fields below
	l       *endpoint.Listener
	problem string // why nothing is published, when nothing is
	conns   map[*bridgeConn]bool
	next    int  // numbers the connections' sessions
	closed  bool // withdrawn for good: shutdown, exit or the editor gone
}

func newBridge(s *Server) *bridge { return &bridge{s: s, conns: map[*bridgeConn]bool{}} }

// saves reports whether the editor saves documents when asked.
func (b *bridge) saves() bool { return b.s.clientOffers().SaveDocument }

// initialize publishes the endpoint, and says in res (the initialize
// result) where it is, or why it is not.
func (b *bridge) initialize(res any) any {
	b.mu.Lock()
	told := b.reg != nil || b.problem != ""
	b.mu.Unlock()
	b.publish()
	if !told {
		return res
	}
	m, ok := res.(map[string]any)
	caps, ok2 := m["capabilities"].(map[string]any)
	if !ok || !ok2 {
		return res
	}
	b.mu.Lock()
	info := map[string]any{"endpoint": nil}
	if b.l != nil {
		info["endpoint"] = b.l.Addr().String()
	} else {
		info["endpointProblem"] = b.problem
	}
	b.mu.Unlock()
	caps["experimental"] = map[string]any{"hashline": info}
	return res
}

// publish publishes the endpoint with the workspace folders as they are
// now, or updates it, and ends the connections whose roots the folders no
// longer hold. A failure is a warning: the editor works without it.
func (b *bridge) publish() {
	if b.reg == nil {
		return
	}
	folders := b.s.canonicalFolders()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	switch {
	case b.l != nil:
		if err := b.l.SetFolders(folders); err != nil {
			b.s.log.Warn("the bridge endpoint keeps its old workspace folders", zap.Error(err))
		}
	case len(folders) == 0:
		b.problem = "no workspace folder: the endpoint is published once the editor opens one"
		return
	default:
		l, err := b.reg.Publish(folders, commands.Version)
		if err != nil {
			b.problem = err.Error()
			b.s.log.Warn("the bridge endpoint is not published: hashline-ls mcp works on the disk", zap.Error(err))
			return
		}
		l.Refused = func(err error) { b.s.log.Warn("bridge connection refused", zap.Error(err)) }
		b.l = l
		b.s.log.Info("bridge endpoint published", zap.String("socket", l.Addr().String()), zap.Strings("folders", folders))
		go b.accept(l)
	}
	for c := range b.conns {
		if !c.heldBy(folders) {
			c.conn.Close()
		}
	}
}

// close withdraws the endpoint and ends every connection.
func (b *bridge) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	if b.l != nil {
		b.l.Close()
		b.s.log.Info("bridge endpoint withdrawn", zap.String("socket", b.l.Addr().String()))
	}
	for c := range b.conns {
		c.conn.Close()
	}
}

func (b *bridge) accept(l *endpoint.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				b.s.log.Warn("the bridge endpoint stopped accepting", zap.Error(err))
			}
			return
		}
		go b.serveConn(c)
	}
}

// serveConn serves one connection until either end closes it.
func (b *bridge) serveConn(c net.Conn) {
	bc := &bridgeConn{b: b, conn: jsonrpc2.NewConn(newStream(c, b.s.log)), calls: newCalls(b.s.log, "bridged command panicked")}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		c.Close()
		return
	}
	b.conns[bc] = true
	b.mu.Unlock()
	bc.conn.Go(context.Background(), bc.handle)
	<-bc.conn.Done()
	bc.end()
	b.mu.Lock()
	delete(b.conns, bc)
	b.mu.Unlock()
}

// canonicalFolders are the workspace folders, symlinks resolved, leaving
// out any that cannot be used.
func (s *Server) canonicalFolders() []string {
	s.mu.Lock()
	raw := slices.Clone(s.folders)
	s.mu.Unlock()
	var out []string
	for _, f := range raw {
		if r, err := workspace.New(f); err == nil {
			out = append(out, r.List()...)
		}
	}
	return out
}

// bridgeConn is one hashline-ls mcp process's connection: after hello, a
// session of its own, confined to that process's roots.
type bridgeConn struct {
	b     *bridge
	conn  jsonrpc2.Conn
	calls *calls

	mu      sync.Mutex       // guards the fields below
	cmds    *commands.Server // set by hello
	roots   []string
	session string
}

// handle is the connection's jsonrpc2 handler. Like the server's, it
// always returns nil and answers failures to the peer.
func (c *bridgeConn) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	defer answerPanic(ctx, c.b.s.log, "bridge handler panicked", reply, req)
	call, isCall := req.(*jsonrpc2.Call)
	switch {
	case req.Method() == endpoint.MethodCancel:
		c.calls.cancel(req.Params())
	case !isCall:
	case req.Method() == endpoint.MethodHello:
		c.hello(ctx, reply, req.Params())
	case req.Method() == endpoint.MethodExecute:
		c.execute(ctx, call, reply)
	default:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("method %q is not part of the hashline bridge: it takes %s and %s", req.Method(), endpoint.MethodHello, endpoint.MethodExecute)))
	}
	return nil
}

// hello checks the peer's roots against the workspace folders and, when
// the folders hold them all, gives the connection its command server. A
// refusal is answered, then the connection is closed.
func (c *bridgeConn) hello(ctx context.Context, reply jsonrpc2.Replier, params json.RawMessage) {
	folders := c.b.s.canonicalFolders()
	h, err := c.welcome(params, folders)
	if err != nil {
		_ = reply(ctx, nil, err)
		c.b.s.log.Warn("bridge hello refused", zap.Error(err))
		c.conn.Close()
		return
	}
	c.b.s.log.Info("bridge connection", zap.Int("pid", h.PID), zap.Strings("roots", h.Roots), zap.String("session", c.session))
	_ = reply(ctx, endpoint.Welcome{Protocol: endpoint.Protocol, Version: commands.Version, PID: os.Getpid(), Folders: folders, Save: c.b.saves()}, nil)
}

// welcome decodes hello and builds the connection's command server, or
// says why not.
func (c *bridgeConn) welcome(params json.RawMessage, folders []string) (endpoint.Hello, error) {
	var h endpoint.Hello
	if err := json.Unmarshal(params, &h); err != nil {
		return h, jsonrpc2.NewError(jsonrpc2.InvalidParams, "hello params: "+err.Error())
	}
	if h.Protocol != endpoint.Protocol {
		return h, jsonrpc2.NewError(jsonrpc2.InvalidRequest, fmt.Sprintf("this hashline-ls %s speaks bridge protocol %d, not %d: use the same version of hashline-ls in the editor and for mcp", commands.Version, endpoint.Protocol, h.Protocol))
	}
	roots, err := workspace.New(h.Roots...)
	if err != nil || len(h.Roots) == 0 {
		return h, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("hello roots %v: %v", h.Roots, err))
	}
	for _, r := range roots.List() {
		if !inFolders(r, folders) {
			return h, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s is not inside this editor's workspace folders (%s): open it in the editor, or work on the disk", r, strings.Join(folders, ", ")))
		}
	}
	s := c.b.s
	cmds := s.cmds.Within(roots, saver{s})
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmds != nil {
		return h, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "hello comes once per connection")
	}
	c.b.mu.Lock()
	c.b.next++
	c.session = fmt.Sprintf("mcp-%d-%d", h.PID, c.b.next)
	c.b.mu.Unlock()
	c.cmds, c.roots = cmds, roots.List()
	return h, nil
}

// heldBy reports whether folders still hold every root of the connection.
func (c *bridgeConn) heldBy(folders []string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.roots {
		if !inFolders(r, folders) {
			return false
		}
	}
	return true
}

func inFolders(path string, folders []string) bool {
	for _, f := range folders {
		if path == f || strings.HasPrefix(path, strings.TrimSuffix(f, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// execute runs one command in the connection's session, on its own
// goroutine, so the read loop stays free for $/cancelRequest.
func (c *bridgeConn) execute(ctx context.Context, call *jsonrpc2.Call, reply jsonrpc2.Replier) {
	c.mu.Lock()
	cmds, session := c.cmds, c.session
	c.mu.Unlock()
	var p endpoint.Execute
	switch err := json.Unmarshal(call.Params(), &p); {
	case cmds == nil:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "send "+endpoint.MethodHello+" first"))
		return
	case err != nil:
		_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "execute params: "+err.Error()))
		return
	}
	c.calls.start(ctx, call, reply, p.Command, func(cctx context.Context) (commands.Result, error) {
		via := p.Via
		if via == "" {
			via = "the bridge"
		}
		return cmds.Run(cctx, commands.Call{Command: p.Command, Session: session, Via: via, Args: p.Arguments})
	})
}

// end stops what the connection still runs and ends its session.
func (c *bridgeConn) end() {
	c.calls.cancelAll()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmds != nil {
		c.cmds.Sessions.End(c.session)
	}
}
