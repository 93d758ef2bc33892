package lsp

// A fake editor for the server's tests. It speaks to Serve over net.Pipe with
// real LSP framing and behaves the way the editors in the project's notes
// do: it keeps its own buffers, sends incremental didChange notifications in
// the negotiated position encoding with versions that may jump, and answers
// workspace/applyEdit like VS Code (refusing stale versions, opening files it
// does not hold) or like Neovim 0.7 (skipping stale versions yet answering
// applied, sending didChange late). Its position arithmetic is written from
// the specification, not shared with the documents package, so that a
// position bug in the server cannot hide behind the same code on both sides.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"hashline-ls/commands"
	"hashline-ls/hashline"
)

// callTimeout bounds every request the fake editor sends. It is a failure
// bound, far above what any call needs.
const callTimeout = 10 * time.Second

const utf8BOM = "\uFEFF"

// clientOptions are the capabilities the fake editor announces.
type clientOptions struct {
	applyEdit        bool
	documentChanges  bool
	resourceOps      []string
	failureHandling  string
	annotations      bool
	encodings        []string // general.positionEncodings; nil leaves it out
	workDoneProgress bool
	initOptions      any
	// skipInit leaves the editor connected but not initialized.
	skipInit bool
	// quiet drops the server's log instead of routing it to the test log.
	quiet bool
}

// vscodeOptions announce what VS Code 1.100 announces.
func vscodeOptions() clientOptions {
	return clientOptions{
		applyEdit: true, documentChanges: true, resourceOps: []string{"create", "rename", "delete"},
		failureHandling: "textOnlyTransactional", annotations: true, workDoneProgress: true,
	}
}

// neovimOptions announce what Neovim 0.7.2 announces: resource operations
// but not documentChanges, and no position encodings (so UTF-16).
func neovimOptions() clientOptions {
	return clientOptions{applyEdit: true, resourceOps: []string{"rename", "create", "delete"}, workDoneProgress: true}
}

// unheldMode is what the editor does with a text edit for a file it does
// not hold in a buffer.
type unheldMode int

const (
	// unheldOpen opens the file, as VS Code does: didOpen with the disk text
	// (without its BOM), then didChange.
	unheldOpen unheldMode = iota
	// unheldDisk edits the file on disk and tells the server nothing.
	unheldDisk
	// unheldHidden loads the file into a buffer the server is never told
	// about, as Neovim 0.7 does when nothing attaches the client to it.
	unheldHidden
)

// applyBehaviour is how the fake editor answers workspace/applyEdit.
type applyBehaviour struct {
	// beforeAnswer sends the didChange (and didOpen) before the answer;
	// otherwise they follow it, after delay.
	beforeAnswer bool
	delay        time.Duration
	// staleSkip skips a versioned edit whose version is stale and still
	// answers applied (Neovim 0.7); otherwise the whole edit is refused with
	// applied:false and no reason (VS Code).
	staleSkip bool
	// skipAll answers applied:true and changes nothing.
	skipAll bool
	// refuse answers applied:false to this many requests, changing nothing;
	// onRefuse runs before each such answer (the user typing).
	refuse   int
	onRefuse func(e *editor)
	unheld   unheldMode
	// save writes every buffer the edit changed to disk, BOM included.
	save bool
	// format rewrites a buffer's text after the edit landed in it;
	// formatMerged sends its change in the same didChange as the edit's.
	format       func(text string) string
	formatMerged bool
}

// buffer is one document the fake editor holds.
type buffer struct {
	uri     string
	version int32
	text    string // without a BOM: editors keep it outside the text
	bom     bool
}

type wirePos struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

type wireRange struct {
	Start wirePos `json:"start"`
	End   wirePos `json:"end"`
}

type wireTextEdit struct {
	Range        wireRange `json:"range"`
	NewText      string    `json:"newText"`
	AnnotationID string    `json:"annotationId"`
}

type wireDocChange struct {
	Kind         string          `json:"kind"`
	URI          string          `json:"uri"`
	OldURI       string          `json:"oldUri"`
	NewURI       string          `json:"newUri"`
	Options      map[string]bool `json:"options"`
	AnnotationID string          `json:"annotationId"`
	TextDocument *struct {
		URI     string          `json:"uri"`
		Version json.RawMessage `json:"version"`
	} `json:"textDocument"`
	Edits []wireTextEdit `json:"edits"`
}

// version decodes a TextDocumentEdit's version, which must be present:
// a number, or null for a file as on disk.
func (d wireDocChange) version() (*int32, error) {
	raw := strings.TrimSpace(string(d.TextDocument.Version))
	if raw == "" {
		return nil, errors.New("the text document edit has no version field")
	}
	if raw == "null" {
		return nil, nil
	}
	var v int32
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return nil, fmt.Errorf("version %s: %w", raw, err)
	}
	return &v, nil
}

type wireApply struct {
	Label string `json:"label"`
	Edit  struct {
		Changes           map[string][]wireTextEdit  `json:"changes"`
		DocumentChanges   []wireDocChange            `json:"documentChanges"`
		ChangeAnnotations map[string]json.RawMessage `json:"changeAnnotations"`
	} `json:"edit"`
}

type changeEvent struct {
	Range *wireRange `json:"range,omitempty"`
	Text  string     `json:"text"`
}

// note is one notification the editor sends.
type note struct {
	method string
	params any
}

type didChangeParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int32  `json:"version"`
	} `json:"textDocument"`
	ContentChanges []changeEvent `json:"contentChanges"`
}

// result is any command's result, decoded loosely.
type result struct {
	OK        bool                  `json:"ok"`
	Tag       string                `json:"tag"`
	Header    string                `json:"header"`
	Content   string                `json:"content"`
	Path      string                `json:"path"`
	Created   bool                  `json:"created"`
	Removed   bool                  `json:"removed"`
	Warnings  []hashline.Warning    `json:"warnings"`
	Matches   []commands.GrepMatch  `json:"matches"`
	Tags      map[string]string     `json:"tags"`
	Error     *commands.ErrorObject `json:"error"`
	Terminate bool                  `json:"terminate"`
	raw       string
}

func (r result) hasWarning(kind string) bool {
	for _, w := range r.Warnings {
		if w.Kind == kind {
			return true
		}
	}
	return false
}

// wireLog wraps the editor's stream: it notes the id of every call the
// editor sends, so a test can cancel one, and hands over the responses to
// frames written by hand, which the connection has no caller for.
type wireLog struct {
	jsonrpc2.Stream
	mu      sync.Mutex
	calls   map[string][]jsonrpc2.ID
	orphans chan *jsonrpc2.Response
}

func (w *wireLog) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if c, ok := msg.(*jsonrpc2.Call); ok {
		w.mu.Lock()
		w.calls[c.Method()] = append(w.calls[c.Method()], c.ID())
		w.mu.Unlock()
	}
	return w.Stream.Write(ctx, msg)
}

func (w *wireLog) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	msg, n, err := w.Stream.Read(ctx)
	if r, ok := msg.(*jsonrpc2.Response); ok {
		id := r.ID()
		raw, _ := json.Marshal(&id)
		// The connection numbers its own calls; string ids are only ever
		// used by hand-written frames.
		if strings.HasPrefix(string(raw), `"`) {
			select {
			case w.orphans <- r:
			default:
			}
		}
	}
	return msg, n, err
}

func (w *wireLog) lastCall(method string) (jsonrpc2.ID, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := w.calls[method]
	if len(ids) == 0 {
		return jsonrpc2.ID{}, false
	}
	return ids[len(ids)-1], true
}

// tapConn keeps every byte the editor reads, so a test can look at a
// message as it was on the wire.
type tapConn struct {
	net.Conn
	mu  sync.Mutex
	buf []byte
}

func (c *tapConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	c.buf = append(c.buf, p[:n]...)
	c.mu.Unlock()
	return n, err
}

// response returns the members of the response with the given id, as the
// server wrote them.
func (c *tapConn) response(id jsonrpc2.ID) (map[string]json.RawMessage, bool) {
	c.mu.Lock()
	data := string(c.buf)
	c.mu.Unlock()
	want, _ := json.Marshal(&id)
	for {
		_, rest, ok := strings.Cut(data, "Content-Length: ")
		if !ok {
			return nil, false
		}
		head, body, ok := strings.Cut(rest, "\r\n\r\n")
		var n int
		if !ok || func() bool { _, err := fmt.Sscanf(head, "%d", &n); return err != nil }() || n > len(body) {
			return nil, false
		}
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(body[:n]), &m) == nil && string(m["id"]) == string(want) {
			if _, isCall := m["method"]; !isCall {
				return m, true
			}
		}
		data = body[n:]
	}
}

// editor is the fake editor.
type editor struct {
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
	behave   applyBehaviour
	step     int32 // how far a buffer's version moves per change
	bufs     map[string]*buffer
	held     []note // typed changes held back, as Neovim debounces them
	applies  []wireApply
	progress []json.RawMessage
	created  []json.RawMessage
}

// newEditor starts a server and a fake editor connected to it, with a fresh
// workspace folder, and initializes the session unless opts.skipInit.
func newEditor(t testing.TB, opts clientOptions) *editor {
	t.Helper()
	checkLeaks(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	serverEnd, clientEnd := net.Pipe()
	log := zap.NewNop()
	if !opts.quiet {
		log = zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel))
	}
	e := &editor{
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
		e.serveCode = Serve(ctx, serverEnd, log)
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
		e.flush()
		e.conn.Close()
		e.waitFor("the editor's connection to end", e.conn.Done())
		e.waitFor("Serve to return", e.served)
		cancel()
		close(e.out)
		e.waitFor("the editor's writer to stop", e.outDone)
	})
	if !opts.skipInit {
		e.initialize(opts)
	}
	return e
}

func (e *editor) waitFor(what string, ch <-chan struct{}) {
	select {
	case <-ch:
	case <-time.After(callTimeout):
		e.t.Errorf("timed out waiting for %s", what)
	}
}

// initialize sends initialize and initialized.
func (e *editor) initialize(opts clientOptions) {
	e.t.Helper()
	var res struct {
		Capabilities struct {
			PositionEncoding       string `json:"positionEncoding"`
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
	}
	if err := e.call("initialize", e.initParams(opts), &res); err != nil {
		e.t.Fatalf("initialize: %v", err)
	}
	want := "utf-16"
	for _, enc := range opts.encodings {
		if enc == "utf-8" {
			want = "utf-8"
		}
	}
	if res.Capabilities.PositionEncoding != want {
		e.t.Fatalf("positionEncoding = %q, want %q", res.Capabilities.PositionEncoding, want)
	}
	e.enc = want
	e.notify("initialized", map[string]any{})
}

func (e *editor) initParams(opts clientOptions) map[string]any {
	we := map[string]any{"documentChanges": opts.documentChanges}
	if opts.resourceOps != nil {
		we["resourceOperations"] = opts.resourceOps
	}
	if opts.failureHandling != "" {
		we["failureHandling"] = opts.failureHandling
	}
	if opts.annotations {
		we["changeAnnotationSupport"] = map[string]any{"groupsOnLabel": true}
	}
	caps := map[string]any{
		"workspace": map[string]any{"applyEdit": opts.applyEdit, "workspaceEdit": we, "workspaceFolders": true, "configuration": true},
		"window":    map[string]any{"workDoneProgress": opts.workDoneProgress},
	}
	if opts.encodings != nil {
		caps["general"] = map[string]any{"positionEncodings": opts.encodings}
	}
	p := map[string]any{
		"processId":        nil,
		"rootUri":          uriOf(e.root),
		"workspaceFolders": []map[string]any{{"uri": uriOf(e.root), "name": "ws"}},
		"capabilities":     caps,
	}
	if opts.initOptions != nil {
		p["initializationOptions"] = opts.initOptions
	}
	return p
}

// handle answers the server's requests. It never writes itself: it queues.
func (e *editor) handle(_ context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
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

func (e *editor) send(f func()) { e.out <- f }

// exited reports whether Serve has returned, after which nothing reaches
// the server.
func (e *editor) exited() bool {
	select {
	case <-e.served:
		return true
	default:
		return false
	}
}

func (e *editor) sendNotes(notes []note) {
	for _, n := range notes {
		if err := e.conn.Notify(context.Background(), n.method, n.params); err != nil && !e.exited() {
			e.t.Errorf("sending %s: %v", n.method, err)
		}
	}
}

// flush waits until everything queued before it has been written.
func (e *editor) flush() {
	done := make(chan struct{})
	e.send(func() { close(done) })
	e.waitFor("the editor's queue to drain", done)
}

// applyEdit applies a workspace edit the way the behaviour says, then
// queues the answer and the notifications in the behaviour's order.
func (e *editor) applyEdit(reply jsonrpc2.Replier, params json.RawMessage) {
	bg := context.Background()
	var req wireApply
	if err := json.Unmarshal(params, &req); err != nil {
		e.t.Errorf("applyEdit params %s: %v", params, err)
		e.send(func() { _ = reply(bg, map[string]any{"applied": false, "failureReason": err.Error()}, nil) })
		return
	}
	e.mu.Lock()
	e.applies = append(e.applies, req)
	b := e.behave
	answer := map[string]any{"applied": true}
	var notes []note
	var hook func(*editor)
	switch {
	case b.refuse > 0:
		e.behave.refuse--
		hook = b.onRefuse
		answer["applied"] = false
	case b.skipAll:
	default:
		var err error
		var applied bool
		notes, applied, err = e.applyLocked(req, b)
		if err != nil {
			e.t.Errorf("applying %s: %v", params, err)
			answer["failureReason"] = err.Error()
		}
		answer["applied"] = applied && err == nil
	}
	held := e.held
	e.held = nil
	e.mu.Unlock()
	select {
	case e.applyArrived <- struct{}{}:
	default:
	}
	if hook != nil {
		hook(e)
	}
	if b.beforeAnswer {
		e.send(func() {
			e.sendNotes(held)
			e.sendNotes(notes)
			_ = reply(bg, answer, nil)
		})
		return
	}
	e.send(func() { _ = reply(bg, answer, nil) })
	if len(held)+len(notes) > 0 {
		e.send(func() {
			if b.delay > 0 {
				time.Sleep(b.delay)
			}
			e.sendNotes(held)
			e.sendNotes(notes)
		})
	}
}

// applyLocked applies req to the buffers and the disk and returns the
// notifications that tell the server. The caller holds e.mu.
func (e *editor) applyLocked(req wireApply, b applyBehaviour) ([]note, bool, error) {
	type tde struct {
		uri   string
		ver   *int32
		edits []wireTextEdit
	}
	var steps []any // tde or wireDocChange (a resource operation)
	for _, dc := range req.Edit.DocumentChanges {
		if dc.TextDocument == nil {
			if dc.Kind == "" {
				return nil, false, errors.New("a document change that is neither a text edit nor a resource operation")
			}
			steps = append(steps, dc)
			continue
		}
		v, err := dc.version()
		if err != nil {
			return nil, false, err
		}
		steps = append(steps, tde{uri: dc.TextDocument.URI, ver: v, edits: dc.Edits})
	}
	uris := make([]string, 0, len(req.Edit.Changes))
	for uri := range req.Edit.Changes {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, uri := range uris {
		steps = append(steps, tde{uri: uri, edits: req.Edit.Changes[uri]})
	}
	// VS Code checks every version before it changes anything.
	if !b.staleSkip {
		for _, s := range steps {
			if d, ok := s.(tde); ok && d.ver != nil {
				buf := e.bufs[pathOf(e.t, d.uri)]
				if buf == nil || buf.version != *d.ver {
					return nil, false, nil
				}
			}
		}
	}
	var notes []note
	last := map[string]*didChangeParams{}
	var changed []string
	for _, s := range steps {
		switch d := s.(type) {
		case wireDocChange:
			n, err := e.resourceLocked(d, last)
			if err != nil {
				return notes, false, err
			}
			notes = append(notes, n...)
		case tde:
			path := pathOf(e.t, d.uri)
			buf := e.bufs[path]
			if buf == nil {
				switch b.unheld {
				case unheldDisk:
					if err := e.editDisk(path, d.edits); err != nil {
						return notes, false, err
					}
					continue
				case unheldHidden:
					continue
				}
				raw, err := os.ReadFile(path)
				if err != nil {
					return notes, false, err
				}
				buf = &buffer{uri: d.uri, version: 1, text: strings.TrimPrefix(string(raw), utf8BOM), bom: strings.HasPrefix(string(raw), utf8BOM)}
				e.bufs[path] = buf
				notes = append(notes, note{"textDocument/didOpen", openParams(buf)})
			}
			if d.ver != nil && *d.ver != buf.version {
				continue // Neovim 0.7 skips it; VS Code refused above
			}
			evs, err := applyTextEdits(&buf.text, d.edits, e.enc)
			if err != nil {
				return notes, false, err
			}
			buf.version += e.step
			p := &didChangeParams{ContentChanges: evs}
			p.TextDocument.URI, p.TextDocument.Version = buf.uri, buf.version
			last[path] = p
			notes = append(notes, note{"textDocument/didChange", p})
			changed = append(changed, path)
		}
	}
	for _, path := range changed {
		buf := e.bufs[path]
		if buf == nil || b.format == nil {
			continue
		}
		formatted := b.format(buf.text)
		if formatted == buf.text {
			continue
		}
		ev := changeEvent{Range: &wireRange{End: clientPosition(buf.text, len(buf.text), e.enc)}, Text: formatted}
		buf.text = formatted
		if p := last[path]; b.formatMerged && p != nil {
			p.ContentChanges = append(p.ContentChanges, ev)
			continue
		}
		buf.version += e.step
		p := &didChangeParams{ContentChanges: []changeEvent{ev}}
		p.TextDocument.URI, p.TextDocument.Version = buf.uri, buf.version
		notes = append(notes, note{"textDocument/didChange", p})
	}
	if b.save {
		for _, path := range changed {
			if buf := e.bufs[path]; buf != nil {
				if err := os.WriteFile(path, []byte(bomIf(buf.bom)+buf.text), 0o644); err != nil {
					return notes, false, err
				}
			}
		}
	}
	return notes, true, nil
}

// resourceLocked performs a create, rename or delete on disk, moving or
// closing the buffer it concerns. The caller holds e.mu.
func (e *editor) resourceLocked(d wireDocChange, last map[string]*didChangeParams) ([]note, error) {
	switch d.Kind {
	case "create":
		path := pathOf(e.t, d.URI)
		if _, err := os.Lstat(path); err == nil {
			switch {
			case d.Options["overwrite"]:
			case d.Options["ignoreIfExists"]:
				return nil, nil
			default:
				return nil, fmt.Errorf("create %s: the file exists", path)
			}
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		return nil, os.WriteFile(path, nil, 0o644)
	case "rename":
		from, to := pathOf(e.t, d.OldURI), pathOf(e.t, d.NewURI)
		if _, err := os.Lstat(to); err == nil && !d.Options["overwrite"] {
			if d.Options["ignoreIfExists"] {
				return nil, nil
			}
			return nil, fmt.Errorf("rename to %s: the file exists", to)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return nil, err
		}
		if err := os.Rename(from, to); err != nil {
			return nil, err
		}
		buf := e.bufs[from]
		if buf == nil {
			return nil, nil
		}
		delete(e.bufs, from)
		delete(last, from)
		moved := &buffer{uri: uriOf(to), version: 1, text: buf.text, bom: buf.bom}
		e.bufs[to] = moved
		return []note{
			{"textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": buf.uri}}},
			{"textDocument/didOpen", openParams(moved)},
		}, nil
	case "delete":
		path := pathOf(e.t, d.URI)
		if err := os.Remove(path); err != nil {
			return nil, err
		}
		buf := e.bufs[path]
		if buf == nil {
			return nil, nil
		}
		delete(e.bufs, path)
		delete(last, path)
		return []note{{"textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": buf.uri}}}}, nil
	}
	return nil, fmt.Errorf("unknown resource operation %q", d.Kind)
}

// editDisk applies text edits to a file on disk; positions count from after
// its BOM, which an editor does not hold as a character.
func (e *editor) editDisk(path string, edits []wireTextEdit) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text, bom := strings.CutPrefix(string(raw), utf8BOM)
	if _, err := applyTextEdits(&text, edits, e.enc); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(bomIf(bom)+text), 0o644)
}

func bomIf(b bool) string {
	if b {
		return utf8BOM
	}
	return ""
}

func openParams(b *buffer) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": b.uri, "languageId": "plaintext", "version": b.version, "text": b.text}}
}

// applyTextEdits applies LSP text edits, whose ranges all refer to the text
// before any of them, to *text. It works bottom-up, as VS Code and Neovim
// do, so every edit's range is still right in the text the previous one
// left; the returned change events, in that order, are what the editor
// reports in didChange.
func applyTextEdits(text *string, edits []wireTextEdit, enc string) ([]changeEvent, error) {
	order := make([]int, len(edits))
	for i := range order {
		order[i] = i
	}
	before := func(p, q wirePos) bool { return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character }
	// Later edits first; of two inserts at one position, the later in the
	// array first, so the earlier ends up in front as the spec says.
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := edits[order[a]].Range.Start, edits[order[b]].Range.Start
		if ra == rb {
			return order[a] > order[b]
		}
		return before(rb, ra)
	})
	t := *text
	bound := len(t)
	evs := make([]changeEvent, 0, len(edits))
	for _, i := range order {
		te := edits[i]
		s, err := clientOffset(t, te.Range.Start, enc)
		if err != nil {
			return nil, fmt.Errorf("edit %d start: %w", i, err)
		}
		en, err := clientOffset(t, te.Range.End, enc)
		if err != nil {
			return nil, fmt.Errorf("edit %d end: %w", i, err)
		}
		if en < s || en > bound {
			return nil, fmt.Errorf("edit %d: range %v is reversed or overlaps another edit", i, te.Range)
		}
		t = t[:s] + te.NewText + t[en:]
		bound = s
		r := te.Range
		evs = append(evs, changeEvent{Range: &r, Text: te.NewText})
	}
	*text = t
	return evs, nil
}

// clientOffset is the byte offset of an LSP position in text, from the
// specification: lines end at LF, CRLF or CR; a character counts UTF-16
// code units or UTF-8 bytes as negotiated. Unlike a lenient editor it
// refuses a position past a line's end or inside a character, so that a
// server bug shows.
func clientOffset(text string, p wirePos, enc string) (int, error) {
	off := 0
	for l := uint32(0); l < p.Line; l++ {
		i := strings.IndexAny(text[off:], "\r\n")
		if i < 0 {
			return 0, fmt.Errorf("line %d is past the last line (%d)", p.Line, l)
		}
		off += i
		if strings.HasPrefix(text[off:], "\r\n") {
			off += 2
		} else {
			off++
		}
	}
	end := len(text)
	if i := strings.IndexAny(text[off:], "\r\n"); i >= 0 {
		end = off + i
	}
	var n uint32
	for n < p.Character {
		if off >= end {
			return 0, fmt.Errorf("character %d is past the end of line %d (%d)", p.Character, p.Line, n)
		}
		r, w := utf8.DecodeRuneInString(text[off:])
		units := uint32(w)
		if enc == "utf-16" {
			units = 1
			if r >= 0x10000 {
				units = 2
			}
		}
		if n+units > p.Character {
			return 0, fmt.Errorf("character %d of line %d falls inside %q", p.Character, p.Line, r)
		}
		n += units
		off += w
	}
	return off, nil
}

// clientPosition is the LSP position of byte offset off, which must sit on
// a character boundary outside any line ending.
func clientPosition(text string, off int, enc string) wirePos {
	var p wirePos
	start := 0
	for i := 0; i < off; i++ {
		switch text[i] {
		case '\n':
			p.Line++
			start = i + 1
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			p.Line++
			start = i + 1
		}
	}
	for _, r := range text[start:off] {
		switch {
		case enc == "utf-8":
			p.Character += uint32(utf8.RuneLen(r))
		case r >= 0x10000:
			p.Character += 2
		default:
			p.Character++
		}
	}
	return p
}

func uriOf(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

func pathOf(t testing.TB, uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		t.Errorf("the server sent %q, which is not a file URI", uri)
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// path is the absolute path of rel in the workspace.
func (e *editor) path(rel string) string { return filepath.Join(e.root, filepath.FromSlash(rel)) }

func (e *editor) writeFile(rel, text string) {
	e.t.Helper()
	p := e.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *editor) diskText(rel string) string {
	e.t.Helper()
	b, err := os.ReadFile(e.path(rel))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

func (e *editor) exists(rel string) bool {
	_, err := os.Lstat(e.path(rel))
	return err == nil
}

// bufferText is what the editor's buffer for rel holds.
func (e *editor) bufferText(rel string) string {
	e.t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	b := e.bufs[e.path(rel)]
	if b == nil {
		e.t.Fatalf("the editor holds no buffer for %s", rel)
	}
	return b.text
}

func (e *editor) bufferVersion(rel string) int32 {
	e.t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	b := e.bufs[e.path(rel)]
	if b == nil {
		e.t.Fatalf("the editor holds no buffer for %s", rel)
	}
	return b.version
}

func (e *editor) holds(rel string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.bufs[e.path(rel)] != nil
}

func (e *editor) setBehaviour(b applyBehaviour) {
	e.mu.Lock()
	e.behave = b
	e.mu.Unlock()
}

func (e *editor) setStep(step int32) {
	e.mu.Lock()
	e.step = step
	e.mu.Unlock()
}

// appliesSeen returns the applyEdit requests received so far.
func (e *editor) appliesSeen() []wireApply {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]wireApply(nil), e.applies...)
}

// open opens rel with the text on disk (its BOM kept aside) at version.
func (e *editor) open(rel string, version int32) {
	e.t.Helper()
	raw := e.diskText(rel)
	text, bom := strings.CutPrefix(raw, utf8BOM)
	e.mu.Lock()
	b := &buffer{uri: uriOf(e.path(rel)), version: version, text: text, bom: bom}
	e.bufs[e.path(rel)] = b
	e.send(func() { e.sendNotes([]note{{"textDocument/didOpen", openParams(b)}}) })
	e.mu.Unlock()
	e.flush()
}

// close closes rel's buffer without saving it.
func (e *editor) close(rel string) {
	e.mu.Lock()
	b := e.bufs[e.path(rel)]
	delete(e.bufs, e.path(rel))
	e.mu.Unlock()
	if b != nil {
		e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": b.uri}})
	}
}

// typeAt replaces the bytes [start, end) of rel's buffer with text, as the
// user typing, and reports it as one incremental change. With hold the
// report waits for the next applyEdit answer, as Neovim's debounce holds it.
func (e *editor) typeAt(rel string, start, end int, text string, hold bool) {
	e.t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	b := e.bufs[e.path(rel)]
	if b == nil {
		e.t.Fatalf("typing into %s, which the editor does not hold", rel)
	}
	r := wireRange{Start: clientPosition(b.text, start, e.enc), End: clientPosition(b.text, end, e.enc)}
	b.text = b.text[:start] + text + b.text[end:]
	b.version += e.step
	p := &didChangeParams{ContentChanges: []changeEvent{{Range: &r, Text: text}}}
	p.TextDocument.URI, p.TextDocument.Version = b.uri, b.version
	n := note{"textDocument/didChange", p}
	if hold {
		e.held = append(e.held, n)
		return
	}
	e.send(func() { e.sendNotes([]note{n}) })
}

// typeReplace replaces the first occurrence of old in rel's buffer.
func (e *editor) typeReplace(rel, old, new string) {
	e.t.Helper()
	text := e.bufferText(rel)
	i := strings.Index(text, old)
	if i < 0 {
		e.t.Fatalf("%q is not in %s", old, rel)
	}
	e.typeAt(rel, i, i+len(old), new, false)
	e.flush()
}

func (e *editor) notify(method string, params any) {
	e.send(func() { e.sendNotes([]note{{method, params}}) })
	e.flush()
}

// call sends a request after everything queued before it, so that it
// reaches the server behind the notifications the test already sent.
func (e *editor) call(method string, params, res any) error {
	e.flush()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	_, err := e.conn.Call(ctx, method, params, res)
	return err
}

// exec runs a command with the given argument list.
func (e *editor) exec(command string, arguments ...any) (result, error) {
	return e.execParams(map[string]any{"command": command, "arguments": arguments})
}

func (e *editor) execParams(params map[string]any) (result, error) {
	var raw json.RawMessage
	if err := e.call("workspace/executeCommand", params, &raw); err != nil {
		return result{}, err
	}
	var r result
	if err := json.Unmarshal(raw, &r); err != nil {
		e.t.Errorf("result %s: %v", raw, err)
	}
	r.raw = string(raw)
	return r, nil
}

// ok runs a command that must succeed.
func (e *editor) ok(command string, args map[string]any) result {
	e.t.Helper()
	r, err := e.exec(command, args)
	if err != nil {
		e.t.Fatalf("%s %v: %v", command, args, err)
	}
	if !r.OK {
		e.t.Fatalf("%s %v failed: %s", command, args, r.raw)
	}
	return r
}

// fail runs a command that must fail with code.
func (e *editor) fail(command string, args map[string]any, code hashline.Code) result {
	e.t.Helper()
	r, err := e.exec(command, args)
	if err != nil {
		e.t.Fatalf("%s %v: %v", command, args, err)
	}
	if r.OK || r.Error == nil || r.Error.Code != code {
		e.t.Fatalf("%s %v = %s, want error %s", command, args, r.raw, code)
	}
	return r
}

func (e *editor) read(rel string) result {
	e.t.Helper()
	return e.ok(commands.CmdRead, map[string]any{"path": rel})
}

func (e *editor) edit(rel, tag, ops string) result {
	e.t.Helper()
	return e.ok(commands.CmdEdit, map[string]any{"path": rel, "tag": tag, "ops": ops})
}

// rpcCode is the JSON-RPC error code of err, or 0.
func rpcCode(err error) jsonrpc2.Code {
	var re *jsonrpc2.Error
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

func tagOf(text string) string { return string(hashline.TagOf(text)) }

// checkLeaks fails the test when goroutines of the server or of the fake
// editor outlive it. It is registered first, so it runs after every other
// cleanup.
func checkLeaks(t testing.TB) {
	t.Cleanup(func() {
		deadline := time.Now().Add(callTimeout)
		for {
			leaked := leakedGoroutines()
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%d goroutines outlived the test:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

func leakedGoroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "lsp.checkLeaks") || strings.Contains(g, "lsp.leakedGoroutines") ||
			strings.Contains(g, "hashline-ls/lsp.Test") || strings.Contains(g, "hashline-ls/lsp.Benchmark") {
			continue
		}
		if strings.Contains(g, "hashline-ls/") || strings.Contains(g, "go.lsp.dev/jsonrpc2") {
			out = append(out, g)
		}
	}
	return out
}
