package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hashline-ls/commands"
	"hashline-ls/workspace"
)

// workspaceDir is a fresh workspace holding files.
func workspaceDir(t testing.TB, files map[string]string) (string, *Disk) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return roots.List()[0], NewDisk(roots, nil)
}

// connect serves one connection on backend and connects the SDK's own
// client to it. The connection's session is recorded, so that call can
// look at the result object behind each text.
func connect(t *testing.T, backend Backend) *sdk.ClientSession {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	log := &resultLog{}
	srv := &Server{Backend: recordingBackend{backend, log}}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), st) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	results.Store(cs, log)
	t.Cleanup(func() {
		cs.Close()
		results.Delete(cs)
		if err := <-done; err != nil && err != io.EOF && !strings.Contains(err.Error(), "closed") {
			t.Errorf("Serve: %v", err)
		}
	})
	return cs
}

// results holds each connection's resultLog, by its client session.
var results sync.Map

// resultLog is the result objects a connection's session returned.
type resultLog struct {
	mu  sync.Mutex // guards all
	all []json.RawMessage
}

func (l *resultLog) add(res json.RawMessage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, res)
}

func (l *resultLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.all)
}

func (l *resultLog) last() json.RawMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.all[len(l.all)-1]
}

type recordingBackend struct {
	Backend
	log *resultLog
}

func (b recordingBackend) Open(ctx context.Context) (Session, error) {
	s, err := b.Backend.Open(ctx)
	if err != nil {
		return nil, err
	}
	return recordingSession{s, b.log}, nil
}

type recordingSession struct {
	Session
	log *resultLog
}

func (s recordingSession) Run(ctx context.Context, c commands.Call) (Reply, error) {
	r, err := s.Session.Run(ctx, c)
	if err == nil {
		res, err := resultJSON(r)
		if err != nil {
			return Reply{}, err
		}
		s.log.add(res)
	}
	return r, err
}

// resultJSON is the result object of r as JSON: as the editor sent it, or
// as the commands' result encodes.
func resultJSON(r Reply) (json.RawMessage, error) {
	if raw, ok := r.Result.(json.RawMessage); ok {
		return raw, nil
	}
	return json.Marshal(r.Result)
}

// called is a tool call's answer as the tests look at it.
type called struct {
	isError bool
	text    string         // the one text block
	result  map[string]any // the result object behind it
}

// call makes a tool call and checks its answer: one text block, which is
// the result's text, and no structuredContent.
func call(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) called {
	t.Helper()
	l, _ := results.Load(cs)
	log := l.(*resultLog)
	before := log.len()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want one text block", tool, len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", tool, res.Content[0])
	}
	if res.StructuredContent != nil {
		t.Fatalf("%s: structuredContent %v, want none: hosts would show it in place of the text", tool, res.StructuredContent)
	}
	if tc.Text == "" {
		t.Fatalf("%s: empty text", tool)
	}
	if log.len() == before {
		t.Fatalf("%s: answered without a result from the session", tool)
	}
	var m map[string]any
	if err := json.Unmarshal(log.last(), &m); err != nil {
		t.Fatal(err)
	}
	if m["text"] != tc.Text {
		t.Fatalf("%s: the text block %q is not the result's text %q", tool, tc.Text, m["text"])
	}
	if ok := m["ok"] == true; res.IsError == ok {
		t.Fatalf("%s: isError %v with ok %v", tool, res.IsError, m["ok"])
	}
	return called{isError: res.IsError, text: tc.Text, result: m}
}

func (c called) code() string {
	if e, ok := c.result["error"].(map[string]any); ok {
		return e["code"].(string)
	}
	return ""
}

var headerRe = regexp.MustCompile(`(?m)^\[([^\]#]+)#([0-9A-F]{4})\]$`)

// tagOf is the tag in the [path#TAG] header of a rendered text.
func tagOf(t *testing.T, text string) string {
	t.Helper()
	m := headerRe.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no [path#TAG] header in %q", text)
	}
	return m[2]
}

func TestReadEditOnDisk(t *testing.T) {
	dir, disk := workspaceDir(t, map[string]string{"greet.py": "def greet(name):\n    return f\"hello {name}\"\n"})
	cs := connect(t, disk)

	read := call(t, cs, "hashline_read", map[string]any{"path": "greet.py"})
	if read.isError || read.text != "[greet.py#"+read.result["tag"].(string)+"]\n1:def greet(name):\n2:    return f\"hello {name}\"\n" {
		t.Fatalf("read: %+v", read)
	}
	edit := call(t, cs, "hashline_edit", map[string]any{"path": "greet.py", "tag": tagOf(t, read.text), "ops": "PUT 2.=2:\n+    return f\"hi {name}\"\n"})
	if edit.isError {
		t.Fatalf("edit: %s", edit.text)
	}
	want := "def greet(name):\n    return f\"hi {name}\"\n"
	if b, _ := os.ReadFile(filepath.Join(dir, "greet.py")); string(b) != want {
		t.Fatalf("disk holds %q, want %q", b, want)
	}
	if !strings.HasPrefix(edit.text, "[greet.py#"+edit.result["tag"].(string)+"]\n") {
		t.Fatalf("edit text does not start with the new header: %q", edit.text)
	}

	// The old tag is stale now; the line it would change changed: refused,
	// with the live tag.
	stale := call(t, cs, "hashline_edit", map[string]any{"path": "greet.py", "tag": tagOf(t, read.text), "ops": "PUT 2.=2:\n+    return 1\n"})
	if !stale.isError || stale.code() != "EDIT_TAG_MISMATCH" || !strings.Contains(stale.text, "live tag: "+edit.result["tag"].(string)) {
		t.Fatalf("stale edit: %+v", stale)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "greet.py")); string(b) != want {
		t.Fatalf("a refused edit changed the disk: %q", b)
	}

	// write and grep and patch answer the same way.
	w := call(t, cs, "hashline_write", map[string]any{"path": "new.txt", "content": "x\ny\n"})
	if w.isError || !strings.HasPrefix(w.text, "[new.txt#") {
		t.Fatalf("write: %+v", w)
	}
	g := call(t, cs, "hashline_grep", map[string]any{"pattern": "hi"})
	if g.isError || !strings.Contains(g.text, "2:    return f\"hi {name}\"") {
		t.Fatalf("grep: %+v", g)
	}
	lr := call(t, cs, "hashline_read", map[string]any{"path": "new.txt", "anchors": "line"})
	rows := regexp.MustCompile(`(?m)^2:([0-9a-f]{2})\|y$`).FindStringSubmatch(lr.text)
	if rows == nil {
		t.Fatalf("line-anchored read: %q", lr.text)
	}
	p := call(t, cs, "hashline_patch", map[string]any{"patch": "@@ new.txt\n= 2:" + rows[1] + "\n~z\n"})
	if p.isError {
		t.Fatalf("patch: %s", p.text)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "new.txt")); string(b) != "x\nz\n" {
		t.Fatalf("patch left %q", b)
	}
}

// A connection is a session: read-before-edit, provenance and recovery
// hold, and nothing one connection read counts for another.
func TestConnectionIsSession(t *testing.T) {
	text := "a\nb\nc\nd\n"
	dir, disk := workspaceDir(t, map[string]string{"f.txt": text})
	path := filepath.Join(dir, "f.txt")
	a, b := connect(t, disk), connect(t, disk)

	ra := call(t, a, "hashline_read", map[string]any{"path": "f.txt", "limit": 2})
	tag := tagOf(t, ra.text)

	// b never read the file: the tag is unknown to it, though it hashes
	// the file.
	if r := call(t, b, "hashline_edit", map[string]any{"path": "f.txt", "tag": tag, "ops": "PUT 1.=1:\n+A\n"}); r.code() != "EDIT_TAG_UNKNOWN" {
		t.Fatalf("edit from another connection: %s", r.text)
	}
	// a was shown lines 1-2 only: line 4 is refused as unseen.
	if r := call(t, a, "hashline_edit", map[string]any{"path": "f.txt", "tag": tag, "ops": "PUT 4.=4:\n+D\n"}); r.code() != "EDIT_LINES_UNSEEN" {
		t.Fatalf("edit of an unseen line: %s", r.text)
	}
	if got, _ := os.ReadFile(path); string(got) != text {
		t.Fatalf("refused edits changed the file: %q", got)
	}

	// Drift recovery: the file changes behind a's back; an edit of a line
	// a saw, with the old tag, lands where that line went.
	if err := os.WriteFile(path, []byte("top\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := call(t, a, "hashline_edit", map[string]any{"path": "f.txt", "tag": tag, "ops": "PUT 1.=1:\n+A\n"})
	if r.isError || !strings.Contains(r.text, "warning: ") {
		t.Fatalf("edit after an external change: %s", r.text)
	}
	if got, _ := os.ReadFile(path); string(got) != "top\nA\nb\nc\nd\n" {
		t.Fatalf("recovered edit left %q", got)
	}

	// A new connection starts from nothing: the tag a's edit returned is
	// unknown there.
	c := connect(t, disk)
	if r2 := call(t, c, "hashline_edit", map[string]any{"path": "f.txt", "tag": r.result["tag"], "ops": "PUT 2.=2:\n+AA\n"}); r2.code() != "EDIT_TAG_UNKNOWN" {
		t.Fatalf("edit on a new connection: %s", r2.text)
	}
}

// Codex drops pattern and minimum from the schemas it forwards, so the
// server must hold the line itself.
func TestArgumentsCheckedByTheServer(t *testing.T) {
	_, disk := workspaceDir(t, map[string]string{"f.txt": "a\n"})
	cs := connect(t, disk)
	elsewhere := t.TempDir()
	existing, created := filepath.Join(elsewhere, "there.txt"), filepath.Join(elsewhere, "new.txt")
	if err := os.WriteFile(existing, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		code  string
		field string
	}{
		{"hashline_edit", map[string]any{"path": "f.txt", "tag": "G00D", "ops": "CUT 1.=1"}, "EDIT_TAG_REQUIRED", ""}, // pattern
		{"hashline_edit", map[string]any{"path": "f.txt", "tag": "12345", "ops": "CUT 1.=1"}, "EDIT_TAG_REQUIRED", ""},
		{"hashline_read", map[string]any{"path": "f.txt", "offset": 0}, "INVALID_ARGUMENT", "offset"}, // minimum
		{"hashline_read", map[string]any{"path": "f.txt", "limit": -3}, "INVALID_ARGUMENT", "limit"},
		{"hashline_grep", map[string]any{"pattern": "a", "maxResults": 0}, "INVALID_ARGUMENT", "maxResults"},
		{"hashline_grep", map[string]any{"pattern": ""}, "INVALID_ARGUMENT", "pattern"}, // minLength
		{"hashline_read", map[string]any{"path": "f.txt", "anchors": "hash"}, "INVALID_ARGUMENT", "anchors"},
		{"hashline_read", map[string]any{"path": "f.txt", "offset": 1.5}, "INVALID_ARGUMENT", "offset"},
		{"hashline_read", map[string]any{}, "INVALID_ARGUMENT", "path"},
		{"hashline_read", map[string]any{"path": "f.txt", "lines": 3}, "INVALID_ARGUMENT", ""},
		{"hashline_read", map[string]any{"path": "f.txt", "session": "other"}, "INVALID_ARGUMENT", "session"},
		{"hashline_edit", map[string]any{"path": "f.txt", "tag": "ABCD", "ops": "CUT 1.=1", "turn": "t1"}, "INVALID_ARGUMENT", "turn"},
		{"hashline_read", map[string]any{"path": "../outside.txt"}, "PATH_OUTSIDE_WORKSPACE", "path"},
		{"hashline_read", map[string]any{"path": existing}, "PATH_OUTSIDE_WORKSPACE", "path"},
		{"hashline_read", map[string]any{"path": "file://" + filepath.ToSlash(existing)}, "PATH_OUTSIDE_WORKSPACE", "path"},
		{"hashline_write", map[string]any{"path": created, "content": "x"}, "PATH_OUTSIDE_WORKSPACE", "path"},
	} {
		t.Run(fmt.Sprintf("%s %v", tc.tool, tc.args), func(t *testing.T) {
			r := call(t, cs, tc.tool, tc.args)
			if !r.isError || r.code() != tc.code || !strings.HasPrefix(r.text, tc.code+": ") {
				t.Fatalf("got %s, want %s", r.text, tc.code)
			}
			if tc.field != "" {
				if f := r.result["error"].(map[string]any)["details"].(map[string]any)["field"]; f != tc.field {
					t.Fatalf("field %v, want %s: %s", f, tc.field, r.text)
				}
			}
		})
	}
	if _, err := os.Stat(created); err == nil {
		t.Fatal("a write outside the workspace landed")
	}
}

// rawServer serves one connection on backend over pipes the test reads and
// writes as JSON lines, so what goes over the wire can be checked byte for
// byte.
type rawServer struct {
	w   io.Writer
	r   *bufio.Reader
	ids int
}

func serveRaw(t *testing.T, backend Backend) *rawServer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		(&Server{Backend: backend}).Serve(context.Background(), &sdk.IOTransport{Reader: inR, Writer: outW})
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); <-done })
	return &rawServer{w: inW, r: bufio.NewReader(outR)}
}

// request sends method with params and returns the raw result.
func (s *rawServer) request(t *testing.T, method string, params any) (json.RawMessage, *struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}) {
	t.Helper()
	s.ids++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": s.ids, "method": method, "params": params})
	if _, err := s.w.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	for {
		line, err := s.r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		var msg struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			t.Fatalf("%s: %v in %q", method, err, line)
		}
		if msg.ID != nil && *msg.ID == s.ids {
			return msg.Result, msg.Error
		}
	}
}

func (s *rawServer) notify(t *testing.T, method string) {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	if _, err := s.w.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
}

func (s *rawServer) initialize(t *testing.T, version string) json.RawMessage {
	t.Helper()
	res, e := s.request(t, "initialize", map[string]any{
		"protocolVersion": version, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "1"},
	})
	if e != nil {
		t.Fatalf("initialize: %+v", e)
	}
	s.notify(t, "notifications/initialized")
	return res
}

func TestInitialize(t *testing.T) {
	for _, version := range []string{"2025-06-18", "2025-03-26", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			_, disk := workspaceDir(t, nil)
			raw := serveRaw(t, disk).initialize(t, version)
			var res struct {
				ProtocolVersion string `json:"protocolVersion"`
				ServerInfo      struct {
					Name    string `json:"name"`
					Version string `json:"version"`
				} `json:"serverInfo"`
				Instructions string                     `json:"instructions"`
				Capabilities map[string]json.RawMessage `json:"capabilities"`
			}
			if err := json.Unmarshal(raw, &res); err != nil {
				t.Fatal(err)
			}
			if res.ProtocolVersion != version {
				t.Errorf("protocolVersion %q, want %q", res.ProtocolVersion, version)
			}
			if res.ServerInfo.Name != "hashline-ls" || res.ServerInfo.Version != commands.Version {
				t.Errorf("serverInfo %+v", res.ServerInfo)
			}
			if res.Instructions != commands.Guidance() {
				t.Errorf("instructions are not describe's guidance:\n%s", res.Instructions)
			}
			if _, ok := res.Capabilities["tools"]; !ok || len(res.Capabilities) != 1 {
				t.Errorf("capabilities %s, want tools only", raw)
			}
		})
	}
}

// tools/list is describe's tools, byte for byte (docs/design.md §9.6).
func TestToolsListIsDescribe(t *testing.T) {
	_, disk := workspaceDir(t, nil)
	s := serveRaw(t, disk)
	s.initialize(t, "2025-06-18")
	raw, e := s.request(t, "tools/list", map[string]any{})
	if e != nil {
		t.Fatalf("tools/list: %+v", e)
	}
	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			Title       string          `json:"title"`
			Description json.RawMessage `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
			Annotations struct {
				ReadOnlyHint bool `json:"readOnlyHint"`
			} `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	want := map[string]commands.Tool{}
	for _, d := range commands.Tools() {
		want[d.Name] = d
	}
	if len(list.Tools) != len(want) {
		t.Fatalf("%d tools, want %d", len(list.Tools), len(want))
	}
	for _, got := range list.Tools {
		d, ok := want[got.Name]
		if !ok {
			t.Errorf("tool %q is not describe's", got.Name)
			continue
		}
		delete(want, got.Name)
		if got.Title != d.DisplayName {
			t.Errorf("%s: title %q, want %q", d.Name, got.Title, d.DisplayName)
		}
		var desc string
		if err := json.Unmarshal(got.Description, &desc); err != nil || desc != d.Description {
			t.Errorf("%s: description\n%s\nwant\n%s", d.Name, desc, d.Description)
		}
		// The schema goes out as the bytes describe's schema marshals to.
		if raw, _ := json.Marshal(d.InputSchema); string(got.InputSchema) != string(raw) {
			t.Errorf("%s: inputSchema\n%s\nwant\n%s", d.Name, got.InputSchema, raw)
		}
		if ro := d.Name == "hashline_read" || d.Name == "hashline_grep"; got.Annotations.ReadOnlyHint != ro {
			t.Errorf("%s: readOnlyHint %v, want %v", d.Name, got.Annotations.ReadOnlyHint, ro)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing tools: %v", want)
	}
	var names []string
	for _, got := range list.Tools {
		names = append(names, got.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"hashline_edit", "hashline_grep", "hashline_patch", "hashline_read", "hashline_write"}) {
		t.Errorf("tools/list gives %v", names)
	}

	// The SDK's client sees the same schemas.
	cs := connect(t, disk)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, tool := range res.Tools {
		for _, d := range commands.Tools() {
			if d.Name == tool.Name {
				seen = append(seen, d.Name)
				if canonical(t, tool.InputSchema) != canonical(t, d.InputSchema) || tool.Description != d.Description {
					t.Errorf("%s as the SDK client reads it differs from describe", tool.Name)
				}
			}
		}
	}
	if len(seen) != len(commands.Tools()) {
		t.Errorf("the SDK client lists %v", seen)
	}
}

// canonical is v as JSON with keys sorted and no HTML escaping.
func canonical(t *testing.T, v any) string {
	t.Helper()
	if raw, ok := v.(json.RawMessage); ok {
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Arguments that are not an object are a protocol fault, not a result.
func TestArgumentsNotAnObject(t *testing.T) {
	_, disk := workspaceDir(t, map[string]string{"f.txt": "a\n"})
	s := serveRaw(t, disk)
	s.initialize(t, "2025-06-18")
	for _, args := range []any{[]any{"f.txt"}, "f.txt", 3} {
		res, e := s.request(t, "tools/call", map[string]any{"name": "hashline_read", "arguments": args})
		if e == nil || e.Code != -32602 {
			t.Errorf("arguments %v: result %s, error %+v; want invalid params", args, res, e)
		}
	}
	// An omitted arguments object is an empty one: the missing path is
	// reported as a result.
	res, e := s.request(t, "tools/call", map[string]any{"name": "hashline_read"})
	if e != nil || !strings.Contains(string(res), `"isError":true`) || !strings.Contains(string(res), "INVALID_ARGUMENT") {
		t.Errorf("no arguments: %s %+v", res, e)
	}
}

// The controls hosts add to every call (Gemini CLI's wait_for_previous)
// are dropped before the command runs; an argument a model makes up, a
// misspelt control among them, is still refused, naming it.
func TestHostControls(t *testing.T) {
	dir, disk := workspaceDir(t, map[string]string{"greet.py": greet})
	cs := connect(t, disk)
	plain := call(t, cs, "hashline_read", map[string]any{"path": "greet.py"})
	for _, v := range []any{true, false, "yes"} {
		r := call(t, cs, "hashline_read", map[string]any{"path": "greet.py", "wait_for_previous": v})
		if r.isError || r.text != plain.text {
			t.Fatalf("a read with wait_for_previous %v: %s", v, r.text)
		}
	}
	edit := call(t, cs, "hashline_edit", map[string]any{"path": "greet.py", "tag": tagOf(t, plain.text), "ops": hiOps, "wait_for_previous": true})
	if b, _ := os.ReadFile(filepath.Join(dir, "greet.py")); edit.isError || string(b) != strings.Replace(greet, "hello", "hi", 1) {
		t.Fatalf("an edit with wait_for_previous: %s; the file holds %q", edit.text, b)
	}
	for _, name := range []string{"wait_for_previou", "waitForPrevious", "lines"} {
		r := call(t, cs, "hashline_read", map[string]any{"path": "greet.py", name: true})
		field, _ := r.result["error"].(map[string]any)["details"].(map[string]any)["field"].(string)
		if r.code() != "INVALID_ARGUMENT" || field != name || !strings.Contains(r.text, "'"+name+"'") {
			t.Errorf("a read with %s: %s (field %q)", name, r.text, field)
		}
	}
}
