// Package lsptest runs the language server in process, behind a scripted
// editor, for tests, as net/http/httptest runs an HTTP server.
//
// New starts lsp.Serve on one end of a pipe with real LSP framing and an
// Editor on the other. The editor behaves the way the editors in the
// project's notes do: it keeps its own buffers, sends incremental
// didChange notifications in the negotiated position encoding with
// versions that may jump, and answers workspace/applyEdit like VS Code
// (refusing stale versions, opening files it does not hold) or like Neovim
// 0.7 (skipping stale versions yet answering applied, sending didChange
// late), as its ApplyBehaviour says. When the test ends, the editor hangs
// up, and the test fails if a goroutine of the server or of the editor
// outlives it.
package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/lsp"
)

// callTimeout bounds every request the editor sends and every wait for the
// server. It is a failure bound, far above what any call needs.
const callTimeout = 10 * time.Second

const utf8BOM = "\uFEFF"

// buffer is one document the editor holds.
type buffer struct {
	uri     string
	version int32
	text    string // without a BOM: editors keep it outside the text
	bom     bool
}

// changed moves b's version on by step and returns the didChange that
// reports evs at the new version.
func (b *buffer) changed(step int32, evs ...changeEvent) *didChangeParams {
	b.version += step
	p := &didChangeParams{ContentChanges: evs}
	p.TextDocument.URI, p.TextDocument.Version = b.uri, b.version
	return p
}

// rewrite replaces b's whole text, as a formatter does, and returns the
// change event that says so in encoding enc.
func (b *buffer) rewrite(text, enc string) changeEvent {
	ev := changeEvent{Range: &Range{End: clientPosition(b.text, len(b.text), enc)}, Text: text}
	b.text = text
	return ev
}

// save writes b to path, its BOM included.
func (b *buffer) save(path string) error {
	return os.WriteFile(path, []byte(bomIf(b.bom)+b.text), 0o644)
}

// Editor is the scripted editor. Its methods fail the test they were
// created for rather than return errors, except the ones that return the
// server's answer as it came.
type Editor struct {
	t    testing.TB
	root string // the workspace folder, symlinks resolved
	enc  string // the negotiated position encoding
	conn jsonrpc2.Conn
	wire *wireLog
	pipe net.Conn // the editor's end, for hand-written frames
	tap  *tapConn

	serveCode int
	served    chan struct{} // closed when Serve returned; serveCode is set then

	// out carries everything the editor writes after its handler returns,
	// in order, so the handler never blocks the read loop on a write: over
	// an unbuffered pipe, two read loops each blocked writing to the other
	// would deadlock.
	out     chan func()
	outDone chan struct{}

	applyArrived chan struct{}

	mu       sync.Mutex // guards the fields below
	behave   ApplyBehaviour
	step     int32 // how far a buffer's version moves per change
	bufs     map[string]*buffer
	held     []note // typed changes held back, as Neovim debounces them
	applies  []ApplyEditRequest
	saving   SaveBehaviour
	saves    []string // the URIs hashline/saveDocument named
	progress []json.RawMessage
	created  []json.RawMessage
}

// New starts a server and an editor connected to it, with a fresh
// workspace folder, and initializes the session unless opts.SkipInit.
// Everything is torn down when t ends.
func New(t testing.TB, opts Options) *Editor {
	t.Helper()
	checkLeaks(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	serverEnd, clientEnd := net.Pipe()
	log := zap.NewNop()
	if !opts.Quiet {
		log = zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel))
	}
	e := &Editor{
		t: t, root: root, pipe: clientEnd,
		served:       make(chan struct{}),
		out:          make(chan func(), 4096),
		outDone:      make(chan struct{}),
		applyArrived: make(chan struct{}, 256),
		step:         1,
		bufs:         map[string]*buffer{},
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		e.serveCode = lsp.Serve(ctx, serverEnd, log, lsp.Endpoints{Registry: opts.Endpoints})
		close(e.served)
	}()
	e.tap = &tapConn{Conn: clientEnd}
	e.wire = &wireLog{Stream: jsonrpc2.NewStream(e.tap), calls: map[string][]jsonrpc2.ID{}, orphans: make(chan *jsonrpc2.Response, 16)}
	e.conn = jsonrpc2.NewConn(e.wire)
	e.conn.Go(context.Background(), e.handle)
	go func() {
		defer close(e.outDone)
		for f := range e.out {
			f()
		}
	}()
	t.Cleanup(func() {
		e.Flush()
		e.conn.Close()
		e.waitFor("the editor's connection to end", e.conn.Done())
		e.waitFor("Serve to return", e.served)
		cancel()
		close(e.out)
		e.waitFor("the editor's writer to stop", e.outDone)
	})
	if !opts.SkipInit {
		e.Initialize(opts)
	}
	return e
}

func (e *Editor) waitFor(what string, ch <-chan struct{}) {
	select {
	case <-ch:
	case <-time.After(callTimeout):
		e.t.Errorf("timed out waiting for %s", what)
	}
}

// Initialize sends initialize and initialized, and checks the position
// encoding the server chose.
func (e *Editor) Initialize(opts Options) {
	e.t.Helper()
	var res struct {
		Capabilities struct {
			PositionEncoding       string `json:"positionEncoding"`
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
	}
	if err := e.Call("initialize", e.InitParams(opts), &res); err != nil {
		e.t.Fatalf("initialize: %v", err)
	}
	want := "utf-16"
	for _, enc := range opts.Encodings {
		if enc == "utf-8" {
			want = "utf-8"
		}
	}
	if res.Capabilities.PositionEncoding != want {
		e.t.Fatalf("positionEncoding = %q, want %q", res.Capabilities.PositionEncoding, want)
	}
	e.enc = want
	e.Notify("initialized", map[string]any{})
}

// InitParams are the initialize params that announce opts.
func (e *Editor) InitParams(opts Options) map[string]any {
	we := map[string]any{"documentChanges": opts.DocumentChanges}
	if opts.ResourceOps != nil {
		we["resourceOperations"] = opts.ResourceOps
	}
	if opts.FailureHandling != "" {
		we["failureHandling"] = opts.FailureHandling
	}
	if opts.Annotations {
		we["changeAnnotationSupport"] = map[string]any{"groupsOnLabel": true}
	}
	caps := map[string]any{
		"workspace": map[string]any{"applyEdit": opts.ApplyEdit, "workspaceEdit": we, "workspaceFolders": true, "configuration": true},
		"window":    map[string]any{"workDoneProgress": opts.WorkDoneProgress},
	}
	if opts.Encodings != nil {
		caps["general"] = map[string]any{"positionEncodings": opts.Encodings}
	}
	p := map[string]any{
		"processId":        nil,
		"rootUri":          URI(e.root),
		"workspaceFolders": []map[string]any{{"uri": URI(e.root), "name": "ws"}},
		"capabilities":     caps,
	}
	if opts.InitOptions != nil {
		p["initializationOptions"] = opts.InitOptions
	}
	if opts.SaveDocument {
		if opts.InitOptions != nil {
			e.t.Fatalf("give SaveDocument or InitOptions, not both")
		}
		p["initializationOptions"] = map[string]any{"hashline": map[string]any{"saveDocument": true}}
	}
	return p
}

// handle answers the server's requests. It never writes itself: it queues.
func (e *Editor) handle(_ context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	params := append(json.RawMessage(nil), req.Params()...)
	bg := context.Background()
	switch req.Method() {
	case "workspace/applyEdit":
		e.applyEdit(reply, params)
	case "window/workDoneProgress/create":
		var p struct {
			Token json.RawMessage `json:"token"`
		}
		_ = json.Unmarshal(params, &p)
		e.mu.Lock()
		e.created = append(e.created, p.Token)
		e.mu.Unlock()
		e.send(func() { _ = reply(bg, nil, nil) })
	case "hashline/saveDocument":
		e.saveDocument(reply, params)
	case "$/progress":
		e.mu.Lock()
		e.progress = append(e.progress, params)
		e.mu.Unlock()
	default:
		if _, isCall := req.(*jsonrpc2.Call); isCall {
			method := req.Method()
			e.send(func() {
				_ = reply(bg, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "the fake editor has no "+method))
			})
		}
	}
	return nil
}

func (e *Editor) send(f func()) { e.out <- f }

// exited reports whether Serve has returned, after which nothing reaches
// the server.
func (e *Editor) exited() bool {
	select {
	case <-e.served:
		return true
	default:
		return false
	}
}

func (e *Editor) sendNotes(notes []note) {
	for _, n := range notes {
		if err := e.conn.Notify(context.Background(), n.method, n.params); err != nil && !e.exited() {
			e.t.Errorf("sending %s: %v", n.method, err)
		}
	}
}

// Flush waits until everything the editor queued before it has been
// written to the server.
func (e *Editor) Flush() {
	done := make(chan struct{})
	e.send(func() { close(done) })
	e.waitFor("the editor's queue to drain", done)
}

// Root is the workspace folder, symlinks resolved.
func (e *Editor) Root() string { return e.root }

// Path is the absolute path of rel in the workspace.
func (e *Editor) Path(rel string) string { return filepath.Join(e.root, filepath.FromSlash(rel)) }

// PathOf is the path of a file URI the server sent; anything else fails
// the test.
func (e *Editor) PathOf(uri string) string {
	p, err := filePath(uri)
	if err != nil {
		e.t.Errorf("the server sent %v", err)
	}
	return p
}

// WriteFile writes text to rel on disk, making its folders.
func (e *Editor) WriteFile(rel, text string) {
	e.t.Helper()
	p := e.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// DiskText is what rel holds on disk.
func (e *Editor) DiskText(rel string) string {
	e.t.Helper()
	b, err := os.ReadFile(e.Path(rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// Exists reports whether rel exists on disk.
func (e *Editor) Exists(rel string) bool {
	_, err := os.Lstat(e.Path(rel))
	return err == nil
}

// BufferText is what the editor's buffer for rel holds, without a BOM.
func (e *Editor) BufferText(rel string) string {
	e.t.Helper()
	return e.buffer(rel).text
}

// BufferVersion is the version of the editor's buffer for rel.
func (e *Editor) BufferVersion(rel string) int32 {
	e.t.Helper()
	return e.buffer(rel).version
}

// buffer returns a copy of rel's buffer, failing the test if there is none.
func (e *Editor) buffer(rel string) buffer {
	e.t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	b := e.heldLocked(rel, "the editor holds no buffer for %s")
	return *b
}

// heldLocked is rel's buffer, which e.mu, held, guards; if the editor
// holds none it fails the test with why, formatted with rel.
func (e *Editor) heldLocked(rel, why string) *buffer {
	e.t.Helper()
	b := e.bufs[e.Path(rel)]
	if b == nil {
		e.t.Fatalf(why, rel)
	}
	return b
}

// Holds reports whether the editor holds a buffer for rel.
func (e *Editor) Holds(rel string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.bufs[e.Path(rel)] != nil
}

// SetBehaviour sets how the editor answers the applyEdit requests to come.
func (e *Editor) SetBehaviour(b ApplyBehaviour) {
	setLocked(&e.mu, &e.behave, b)
}

// SetSave sets how the editor answers the hashline/saveDocument requests
// to come.
func (e *Editor) SetSave(b SaveBehaviour) {
	setLocked(&e.mu, &e.saving, b)
}

// Saves returns the URIs the server asked the editor to save so far.
func (e *Editor) Saves() []string {
	return cloneLocked(&e.mu, &e.saves)
}

// SetStep sets how far a buffer's version moves with each change from now
// on (1 at first).
func (e *Editor) SetStep(step int32) {
	setLocked(&e.mu, &e.step, step)
}

// Applies returns the applyEdit requests received so far.
func (e *Editor) Applies() []ApplyEditRequest {
	return cloneLocked(&e.mu, &e.applies)
}

// AwaitApply waits for the next applyEdit request to reach the editor, and
// fails the test if none comes.
func (e *Editor) AwaitApply() {
	e.t.Helper()
	select {
	case <-e.applyArrived:
	case <-time.After(callTimeout):
		e.t.Fatalf("no applyEdit reached the editor")
	}
}

// Progress returns the params of the $/progress notifications received
// so far.
func (e *Editor) Progress() []json.RawMessage {
	return cloneLocked(&e.mu, &e.progress)
}

// CreatedTokens returns the tokens the server asked the editor to create
// with window/workDoneProgress/create.
func (e *Editor) CreatedTokens() []json.RawMessage {
	return cloneLocked(&e.mu, &e.created)
}

// Open opens rel with the text on disk (its BOM kept aside) at version.
func (e *Editor) Open(rel string, version int32) {
	e.t.Helper()
	raw := e.DiskText(rel)
	text, bom := strings.CutPrefix(raw, utf8BOM)
	e.mu.Lock()
	b := &buffer{uri: URI(e.Path(rel)), version: version, text: text, bom: bom}
	e.bufs[e.Path(rel)] = b
	e.send(func() { e.sendNotes([]note{{"textDocument/didOpen", openParams(b)}}) })
	e.mu.Unlock()
	e.Flush()
}

// Close closes rel's buffer without saving it.
func (e *Editor) Close(rel string) {
	e.mu.Lock()
	b := e.bufs[e.Path(rel)]
	delete(e.bufs, e.Path(rel))
	e.mu.Unlock()
	if b != nil {
		e.Notify("textDocument/didClose", closeParams(b))
	}
}

// TypeAt replaces the bytes [start, end) of rel's buffer with text, as the
// user typing, and reports it as one incremental change. With hold the
// report waits for the next applyEdit answer, as Neovim's debounce holds it.
func (e *Editor) TypeAt(rel string, start, end int, text string, hold bool) {
	e.t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	b := e.heldLocked(rel, "typing into %s, which the editor does not hold")
	r := Range{Start: clientPosition(b.text, start, e.enc), End: clientPosition(b.text, end, e.enc)}
	b.text = b.text[:start] + text + b.text[end:]
	n := note{"textDocument/didChange", b.changed(e.step, changeEvent{Range: &r, Text: text})}
	if hold {
		e.held = append(e.held, n)
		return
	}
	e.send(func() { e.sendNotes([]note{n}) })
}

// Type replaces the first occurrence of old in rel's buffer with new, and
// waits until the server has been told.
func (e *Editor) Type(rel, old, new string) {
	e.t.Helper()
	text := e.BufferText(rel)
	i := strings.Index(text, old)
	if i < 0 {
		e.t.Fatalf("%q is not in %s", old, rel)
	}
	e.TypeAt(rel, i, i+len(old), new, false)
	e.Flush()
}

// Sync waits until the server has handled everything the editor sent: it
// reads a request after the notifications before it, so once it answers
// them, a caller on another connection (the bridge) sees their effect.
func (e *Editor) Sync() {
	e.t.Helper()
	_ = e.Call("$/hashline/sync", nil, nil)
}

// Notify sends a notification and waits until it is written.
func (e *Editor) Notify(method string, params any) {
	e.send(func() { e.sendNotes([]note{{method, params}}) })
	e.Flush()
}

// Call sends a request after everything queued before it, so that it
// reaches the server behind the notifications the test already sent, and
// gives up after a failure bound.
func (e *Editor) Call(method string, params, res any) error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return e.CallContext(ctx, method, params, res)
}

// CallContext is Call without the bound: it waits as long as ctx.
func (e *Editor) CallContext(ctx context.Context, method string, params, res any) error {
	e.Flush()
	_, err := e.conn.Call(ctx, method, params, res)
	return err
}

// Exec runs a command with the given argument list.
func (e *Editor) Exec(command string, arguments ...any) (Result, error) {
	return e.ExecParams(map[string]any{"command": command, "arguments": arguments})
}

// ExecParams sends workspace/executeCommand with params as they are.
func (e *Editor) ExecParams(params map[string]any) (Result, error) {
	var raw json.RawMessage
	if err := e.Call("workspace/executeCommand", params, &raw); err != nil {
		return Result{}, err
	}
	var r Result
	if err := json.Unmarshal(raw, &r); err != nil {
		e.t.Errorf("result %s: %v", raw, err)
	}
	r.Raw = string(raw)
	return r, nil
}

// OK runs a command that must succeed.
func (e *Editor) OK(command string, args map[string]any) Result {
	e.t.Helper()
	r, err := e.Exec(command, args)
	if err != nil {
		e.t.Fatalf("%s %v: %v", command, args, err)
	}
	if !r.OK {
		e.t.Fatalf("%s %v failed: %s", command, args, r.Raw)
	}
	return r
}

// Fail runs a command that must fail with code.
func (e *Editor) Fail(command string, args map[string]any, code hashline.Code) Result {
	e.t.Helper()
	r, err := e.Exec(command, args)
	if err != nil {
		e.t.Fatalf("%s %v: %v", command, args, err)
	}
	if r.OK || r.Error == nil || r.Error.Code != code {
		e.t.Fatalf("%s %v = %s, want error %s", command, args, r.Raw, code)
	}
	return r
}

// Read reads rel, which must succeed.
func (e *Editor) Read(rel string) Result {
	e.t.Helper()
	return e.OK(commands.CmdRead, map[string]any{"path": rel})
}

// Edit edits rel with ops against tag, which must succeed.
func (e *Editor) Edit(rel, tag, ops string) Result {
	e.t.Helper()
	return e.OK(commands.CmdEdit, map[string]any{"path": rel, "tag": tag, "ops": ops})
}

// LineAnchors reads rel whole with per-line anchors and returns each
// line's LINE:HH by line number.
func (e *Editor) LineAnchors(rel string) map[int]string {
	e.t.Helper()
	r := e.OK(commands.CmdRead, map[string]any{"path": rel, "anchors": "line", "limit": 100000})
	out := map[int]string{}
	rows := strings.Split(strings.TrimSuffix(r.Content, "\n"), "\n")
	for _, row := range rows[1:] {
		a, _, _ := strings.Cut(row, "|")
		var n int
		if _, err := fmt.Sscanf(a, "%d:", &n); err != nil {
			e.t.Fatalf("row %q is not N:HH|text", row)
		}
		out[n] = a
	}
	return out
}

// Disconnect hangs up on the server, as an editor that goes away.
func (e *Editor) Disconnect() {
	e.Flush()
	e.conn.Close()
}

// WaitServe waits for Serve to return and returns its exit code.
func (e *Editor) WaitServe() int {
	e.t.Helper()
	e.waitFor("Serve to return", e.served)
	if !e.exited() {
		e.t.FailNow()
	}
	return e.serveCode
}

// setLocked sets *field to v under mu, for the setters a test calls while
// the server's requests read the field.
func setLocked[T any](mu *sync.Mutex, field *T, v T) {
	mu.Lock()
	*field = v
	mu.Unlock()
}

// cloneLocked is a copy of *list taken under mu: what the editor received
// so far, which goes on growing after the copy.
func cloneLocked[T any](mu *sync.Mutex, list *[]T) []T {
	mu.Lock()
	defer mu.Unlock()
	return append([]T(nil), *list...)
}
