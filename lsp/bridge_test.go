package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"hashline-ls/commands"
	"hashline-ls/endpoint"
	"hashline-ls/internal/testenv"
	"hashline-ls/lsp"
	"hashline-ls/lsp/lsptest"
)

// TestMain lets the test binary stand in for a process of another user:
// run so by TestBridgeRefusesAnotherUser, it dials the socket it is given
// and reports what the server did.
func TestMain(m *testing.M) {
	testenv.Main(m, "HASHLINE_BRIDGE_HELPER_SOCKET", func(sock string) int {
		body := `{"jsonrpc":"2.0","id":1,"method":"hashline/hello","params":{"protocol":1,"roots":["/"]}}`
		return testenv.DialAndReport(sock, fmt.Appendf(nil, "Content-Length: %d\r\n\r\n%s", len(body), body))
	})
}

// endpointInfo is what the initialize result says of the bridge endpoint.
type endpointInfo struct {
	Endpoint *string `json:"endpoint"`
	Problem  string  `json:"endpointProblem"`
}

// initEndpoint initializes e with opts.
func initEndpoint(t *testing.T, e *lsptest.Editor, opts lsptest.Options) endpointInfo {
	t.Helper()
	var res struct {
		Capabilities struct {
			Experimental struct {
				Hashline endpointInfo `json:"hashline"`
			} `json:"experimental"`
		} `json:"capabilities"`
	}
	if err := e.Call("initialize", e.InitParams(opts), &res); err != nil {
		t.Fatal(err)
	}
	e.Notify("initialized", map[string]any{})
	return res.Capabilities.Experimental.Hashline
}

// peer is a raw bridge connection, as hashline-ls mcp opens one.
type peer struct {
	conn jsonrpc2.Conn
}

func dialBridge(t *testing.T, reg *endpoint.Registry) *peer {
	t.Helper()
	list, err := reg.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("published: %+v, %v", list, err)
	}
	uc, err := reg.Dial(context.Background(), list[0])
	if err != nil {
		t.Fatal(err)
	}
	conn := jsonrpc2.NewConn(lsp.NewStream(uc, nil))
	conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "no"))
	})
	t.Cleanup(func() {
		conn.Close()
		<-conn.Done()
	})
	return &peer{conn}
}

func (p *peer) call(method string, params, res any) error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	_, err := p.conn.Call(ctx, method, params, res)
	return err
}

func (p *peer) hello(t *testing.T, roots ...string) (endpoint.Welcome, error) {
	t.Helper()
	var w endpoint.Welcome
	err := p.call(endpoint.MethodHello, endpoint.Hello{Protocol: endpoint.Protocol, Version: commands.Version, PID: os.Getpid(), Roots: roots}, &w)
	return w, err
}

func (p *peer) execute(t *testing.T, command string, args any) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(args)
	var res map[string]any
	if err := p.call(endpoint.MethodExecute, endpoint.Execute{Command: command, Arguments: raw}, &res); err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	return res
}

// closed waits for the server to close the connection.
func (p *peer) closed(t *testing.T) {
	t.Helper()
	select {
	case <-p.conn.Done():
	case <-time.After(callTimeout):
		t.Fatal("the server did not close the connection")
	}
}

func TestBridgeEndpointLifecycle(t *testing.T) {
	opts := lsptest.VSCode()
	opts.SaveDocument, opts.SkipInit = true, true
	e, reg := lsptest.Bridged(t, opts)
	got := ""
	if ep := initEndpoint(t, e, opts).Endpoint; ep != nil {
		got = *ep
	}
	if want := reg.Socket(os.Getpid()); got != want {
		t.Fatalf("initialize says the endpoint is %q, want %q", got, want)
	}
	list, _ := reg.List()
	if len(list) != 1 || list[0].PID != os.Getpid() || !slices.Equal(list[0].Folders, []string{e.Root()}) || list[0].Version != commands.Version {
		t.Fatalf("published %+v", list)
	}

	// A connection for a subfolder: welcomed, with the editor's folders and
	// its offer to save.
	os.MkdirAll(e.Path("sub"), 0o755)
	p := dialBridge(t, reg)
	w, err := p.hello(t, e.Path("sub"))
	if err != nil || w.Protocol != endpoint.Protocol || w.PID != os.Getpid() || !w.Save || !slices.Equal(w.Folders, []string{e.Root()}) {
		t.Fatalf("hello: %+v, %v", w, err)
	}

	// Another folder is added: the entry says so. The first is removed:
	// the connection whose root it held is closed.
	other := t.TempDir()
	e.Notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []map[string]any{{"uri": lsptest.URI(other), "name": "other"}}, "removed": []map[string]any{{"uri": lsptest.URI(e.Root()), "name": "ws"}}}})
	p.closed(t)
	otherReal, _ := filepath.EvalSymlinks(other)
	if list, _ := reg.List(); len(list) != 1 || !slices.Equal(list[0].Folders, []string{otherReal}) {
		t.Fatalf("after the folder change: %+v", list)
	}

	// Shutdown withdraws the entry.
	if err := e.Call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	if list, _ := reg.List(); len(list) != 0 {
		t.Fatalf("after shutdown: %+v", list)
	}
	if _, err := os.Stat(reg.Socket(os.Getpid())); !os.IsNotExist(err) {
		t.Fatalf("the socket outlived shutdown: %v", err)
	}
}

func TestBridgeEndpointGoesWithTheEditor(t *testing.T) {
	e, reg := lsptest.Bridged(t, lsptest.VSCode())
	p := dialBridge(t, reg)
	if _, err := p.hello(t, e.Root()); err != nil {
		t.Fatal(err)
	}
	e.Disconnect()
	e.WaitServe()
	p.closed(t)
	if list, _ := reg.List(); len(list) != 0 {
		t.Fatalf("the entry outlived the editor: %+v", list)
	}
}

func TestBridgeHello(t *testing.T) {
	e, reg := lsptest.Bridged(t, lsptest.VSCode())
	outside := t.TempDir()
	for _, tc := range []struct {
		name  string
		hello any
		says  string
	}{
		{"a root outside the folders", endpoint.Hello{Protocol: endpoint.Protocol, Roots: []string{e.Root(), outside}}, "is not inside this editor's workspace folders"},
		{"another protocol", endpoint.Hello{Protocol: 2, Roots: []string{e.Root()}}, "speaks bridge protocol 1, not 2"},
		{"no roots", endpoint.Hello{Protocol: endpoint.Protocol}, "hello roots []"},
		{"params that are not an object", []int{1}, "hello params"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := dialBridge(t, reg)
			err := p.call(endpoint.MethodHello, tc.hello, nil)
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("hello: %v, want an error saying %q", err, tc.says)
			}
			p.closed(t)
		})
	}
	t.Run("execute before hello", func(t *testing.T) {
		p := dialBridge(t, reg)
		if err := p.call(endpoint.MethodExecute, endpoint.Execute{Command: commands.CmdRead}, nil); err == nil || !strings.Contains(err.Error(), "send hashline/hello first") {
			t.Fatalf("execute: %v", err)
		}
	})
	t.Run("hello twice", func(t *testing.T) {
		p := dialBridge(t, reg)
		if _, err := p.hello(t, e.Root()); err != nil {
			t.Fatal(err)
		}
		if _, err := p.hello(t, e.Root()); err == nil || !strings.Contains(err.Error(), "hello comes once") {
			t.Fatalf("second hello: %v", err)
		}
	})
}

func TestBridgeExecute(t *testing.T) {
	e, reg := lsptest.Bridged(t, lsptest.VSCode())
	e.WriteFile("sub/a.txt", "alpha\n")
	e.WriteFile("b.txt", "beta\n")
	e.Open("sub/a.txt", 1)
	e.Type("sub/a.txt", "alpha", "ALPHA")
	e.Sync()
	p := dialBridge(t, reg)
	if _, err := p.hello(t, e.Path("sub")); err != nil {
		t.Fatal(err)
	}

	// The buffer, under a header relative to the connection's root.
	r := p.execute(t, commands.CmdRead, map[string]any{"path": "a.txt"})
	if r["ok"] != true || r["content"] != "[a.txt#"+tagOf("ALPHA\n")+"]\n1:ALPHA\n" || r["text"] != r["content"] {
		t.Fatalf("read: %v", r)
	}
	// The server confines to the connection's roots on its own, though
	// its workspace folder holds the file.
	for _, path := range []string{"../b.txt", e.Path("b.txt")} {
		r = p.execute(t, commands.CmdRead, map[string]any{"path": path})
		if r["ok"] != false || r["error"].(map[string]any)["code"] != "PATH_OUTSIDE_WORKSPACE" {
			t.Fatalf("read %s: %v", path, r)
		}
	}
	// The connection is the session: a session argument is refused.
	r = p.execute(t, commands.CmdRead, map[string]any{"path": "a.txt", "session": "default"})
	if r["ok"] != false || !strings.HasPrefix(r["text"].(string), "INVALID_ARGUMENT: argument session: hashline.read takes no session over the bridge") {
		t.Fatalf("a session argument: %v", r)
	}
	// Its session is not the editor's: a tag read there is unknown here.
	tag := e.Read("b.txt").Tag
	p2 := dialBridge(t, reg)
	if _, err := p2.hello(t, e.Root()); err != nil {
		t.Fatal(err)
	}
	r = p2.execute(t, commands.CmdEdit, map[string]any{"path": "b.txt", "tag": tag, "ops": "CUT 1.=1"})
	if r["ok"] != false || r["error"].(map[string]any)["code"] != "EDIT_TAG_UNKNOWN" {
		t.Fatalf("an edit with the editor's session's tag: %v", r)
	}
	var perr *jsonrpc2.Error
	if err := p.call(endpoint.MethodExecute, endpoint.Execute{Command: "hashline.nope", Arguments: json.RawMessage(`{}`)}, nil); !errors.As(err, &perr) || perr.Code != jsonrpc2.InvalidParams {
		t.Fatalf("an unknown command: %v", err)
	}
	if err := p.call("hashline/other", nil, nil); !errors.As(err, &perr) || perr.Code != jsonrpc2.MethodNotFound {
		t.Fatalf("an unknown method: %v", err)
	}
}

// A bridged edit of a clean buffer is saved; the editor's own assistants'
// edits are not, whatever the editor offers.
func TestBridgeOnlyBridgedCallsSave(t *testing.T) {
	opts := lsptest.VSCode()
	opts.SaveDocument = true
	e, reg := lsptest.Bridged(t, opts)
	e.WriteFile("a.txt", "one\n")
	e.WriteFile("b.txt", "two\n")
	e.Open("a.txt", 1)
	e.Open("b.txt", 1)
	e.Edit("a.txt", e.Read("a.txt").Tag, "PUT 1.=1:\n+ONE")
	if len(e.Saves()) != 0 || e.DiskText("a.txt") != "one\n" {
		t.Fatalf("the editor's own edit was saved: %q", e.Saves())
	}
	p := dialBridge(t, reg)
	if _, err := p.hello(t, e.Root()); err != nil {
		t.Fatal(err)
	}
	r := p.execute(t, commands.CmdRead, map[string]any{"path": "b.txt"})
	r = p.execute(t, commands.CmdEdit, map[string]any{"path": "b.txt", "tag": r["tag"], "ops": "PUT 1.=1:\n+TWO"})
	if r["ok"] != true || len(e.Saves()) != 1 || e.DiskText("b.txt") != "TWO\n" {
		t.Fatalf("bridged edit: %v; saves %q; disk %q", r, e.Saves(), e.DiskText("b.txt"))
	}
}

// An endpoint that cannot be published leaves the editor working, and
// initialize says why.
func TestBridgeEndpointNotPublished(t *testing.T) {
	dir, err := os.MkdirTemp("", "hll")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	long := filepath.Join(dir, strings.Repeat("x", 100))
	reg, err := endpoint.OpenDir(long, os.Getuid())
	if err != nil {
		t.Fatal(err)
	}
	opts := lsptest.VSCode()
	opts.Endpoints, opts.SkipInit = reg, true
	e := lsptest.New(t, opts)
	h := initEndpoint(t, e, opts)
	if h.Endpoint != nil || !strings.Contains(h.Problem, "over the 103 a Unix socket allows: set TMPDIR to a shorter folder") {
		t.Fatalf("initialize: %+v", h)
	}
	e.WriteFile("a.txt", "a\n")
	if r := e.Read("a.txt"); r.Tag != tagOf("a\n") {
		t.Fatalf("read: %+v", r)
	}
}

func TestBridgeRefusesAnotherUser(t *testing.T) {
	e, reg := lsptest.Bridged(t, lsptest.VSCode())
	sock := reg.Socket(os.Getpid())
	// Let the other user reach the socket, so that the credential check,
	// not the folder's mode, is what refuses it.
	for _, p := range []string{filepath.Dir(reg.Dir()), reg.Dir()} {
		os.Chmod(p, 0o711)
	}
	os.Chmod(sock, 0o777)
	cmd := testenv.AsOtherUser(t, filepath.Dir(reg.Dir()), "the refusal itself is endpoint's TestAllow", "HASHLINE_BRIDGE_HELPER_SOCKET="+sock)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "closed by the server" {
		t.Fatalf("uid 65534's hello: %q, want the connection closed with nothing sent", got)
	}
	// The endpoint goes on serving this user.
	os.Chmod(reg.Dir(), 0o700)
	p := dialBridge(t, reg)
	if _, err := p.hello(t, e.Root()); err != nil {
		t.Fatal(err)
	}
}
