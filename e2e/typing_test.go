package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hashline-ls/internal/nvimrpc"
	"hashline-ls/internal/testenv"
)

// typingEditor is a real Neovim serving its RPC socket, with the plugin set
// up as a user's init.lua does it and hashline-ls under it, and a terminal
// agent's MCP session bridged to that server: the test types into the
// editor as a person would while the agent reads and edits the same files.
type typingEditor struct {
	t         *testing.T
	nvim      string
	nv        *nvimrpc.Client
	ws        string
	agent     *sdk.ClientSession
	out       *strings.Builder
	mcpErr    *strings.Builder
	serverLog string
	lspLog    string
	tmp       string // the TMPDIR the server publishes its endpoint in
	noPlugin  bool
}

// typingSetup says how a typingEditor starts.
type typingSetup struct {
	files    map[string]string
	open     []string // the files to :edit, in order; the last one is current
	debounce int      // the client's debounce_text_changes in ms; 0: Neovim's default
	// typeAfterEdit is typed at the cursor the moment an edit is applied,
	// when Neovim is in insert mode; typeBeforeEdit as the first edit
	// arrives, before it is applied (see testdata/nvim_typing.lua).
	typeAfterEdit, typeBeforeEdit string
	// noPlugin runs the server with Neovim's own LSP client alone.
	noPlugin bool
}

func startTyping(t *testing.T, nvim string, setup typingSetup) *typingEditor {
	t.Helper()
	bin := buildServer(t)
	plugin, _ := filepath.Abs("../editors/neovim")
	script, _ := filepath.Abs("testdata/nvim_typing.lua")
	base := t.TempDir()
	ws, tmp, xdg := filepath.Join(base, "ws"), filepath.Join(base, "tmp"), filepath.Join(base, "xdg")
	for _, d := range []string{ws, tmp, xdg} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	ws, _ = filepath.EvalSymlinks(ws)
	testenv.WriteFiles(t, ws, setup.files)
	e := &typingEditor{t: t, nvim: nvim, ws: ws, mcpErr: &strings.Builder{},
		serverLog: filepath.Join(base, "server.log"), lspLog: filepath.Join(xdg, "state", "nvim", "lsp.log")}
	sock := filepath.Join(base, "nvim.sock")
	cmd := headlessNvim(nvim, ws, xdg, []string{"--listen", sock, "-u", script}, "TMPDIR="+tmp, "HASHLINE_BIN="+bin, "HASHLINE_ROOT="+ws, "HASHLINE_PLUGIN="+plugin,
		"HASHLINE_LOG="+e.serverLog, "HASHLINE_TYPE_AFTER_EDIT="+setup.typeAfterEdit, "HASHLINE_TYPE_BEFORE_EDIT="+setup.typeBeforeEdit)
	if setup.noPlugin {
		cmd.Env = append(cmd.Env, "HASHLINE_NO_PLUGIN=1")
	}
	e.noPlugin = setup.noPlugin
	e.tmp = tmp
	if setup.debounce > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("HASHLINE_DEBOUNCE=%d", setup.debounce))
	}
	e.out = startKept(t, cmd)
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	nv, err := nvimrpc.Dial(sock, 30*time.Second)
	if err != nil {
		e.fatal("%v", err)
	}
	e.nv = nv
	t.Cleanup(func() { nv.Close() })
	for _, name := range setup.open {
		e.do("edit " + name)
	}
	e.waitAttached(setup.open...)
	e.waitEndpoint()
	e.connectAgent(bin, tmp)
	return e
}

// connectAgent starts hashline-ls mcp in the workspace, as a terminal agent
// does, once the editor's server has published its endpoint.
func (e *typingEditor) connectAgent(bin, tmp string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := connectMCP(ctx, "typing", bin, tmp, e.mcpErr, "--root", e.ws)
	if err != nil {
		e.fatal("connect hashline-ls mcp: %v", err)
	}
	e.agent = cs
	e.t.Cleanup(func() { cs.Close() })
}

// fatal fails the test with what the editor, its server and the MCP
// process left.
func (e *typingEditor) fatal(format string, args ...any) {
	e.t.Helper()
	slog, _ := os.ReadFile(e.serverLog)
	clog, _ := os.ReadFile(e.lspLog)
	e.t.Fatalf(format+"\nnvim output:\n%s\nserver log (tail):\n%s\nNeovim's LSP log (tail):\n%s\nmcp stderr:\n%s",
		append(args, e.out.String(), tail(string(slog), 60), tail(string(clog), 30), e.mcpErr.String())...)
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// do runs an Ex command in the editor.
func (e *typingEditor) do(cmd string) {
	e.t.Helper()
	if err := e.nv.Command(cmd); err != nil {
		e.fatal("%s: %v", cmd, err)
	}
}

// typeKeys types keys and waits until Neovim has taken them in.
func (e *typingEditor) typeKeys(keys string) {
	e.t.Helper()
	if err := e.nv.Type(keys); err != nil {
		e.fatal("typing %q: %v", keys, err)
	}
}

// lua runs a Lua chunk in the editor.
func (e *typingEditor) lua(code string, args ...any) any {
	e.t.Helper()
	v, err := e.nv.Lua(code, args...)
	if err != nil {
		e.fatal("lua %q: %v", code, err)
	}
	return v
}

// until polls a Lua predicate for up to 30 s.
func (e *typingEditor) until(what, code string, args ...any) {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if v, _ := e.lua(code, args...).(bool); v {
			return
		}
		if time.Now().After(deadline) {
			e.fatal("waited 30 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (e *typingEditor) waitAttached(names ...string) {
	e.t.Helper()
	for _, name := range names {
		e.until(name+" to be attached", `
			local b = vim.fn.bufnr(...)
			if b <= 0 then return false end
			local list = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = b }) or vim.lsp.buf_get_clients(b)
			for _, c in pairs(list) do
				if c.initialized then return true end
			end
			return false`, filepath.Join(e.ws, name))
	}
}

// waitEndpoint waits until the server has published its bridge endpoint.
func (e *typingEditor) waitEndpoint() {
	e.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m, _ := filepath.Glob(filepath.Join(e.tmp, "hashline-*", "*.sock")); len(m) > 0 {
			return
		}
		if time.Now().After(deadline) {
			e.fatal("waited 30 s for the server's bridge endpoint")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// buffer is what the editor holds for name: its lines, and whether it is
// modified; loaded is false when no buffer holds the file.
type buffer struct {
	lines    []string
	modified bool
	loaded   bool
}

func (b buffer) text() string {
	if len(b.lines) == 0 {
		return ""
	}
	return strings.Join(b.lines, "\n") + "\n"
}

func (e *typingEditor) buffer(name string) buffer {
	e.t.Helper()
	v := e.lua(`
		local b = vim.fn.bufnr(...)
		if b <= 0 or not vim.api.nvim_buf_is_loaded(b) then return {} end
		return { lines = vim.api.nvim_buf_get_lines(b, 0, -1, false), modified = vim.bo[b].modified }`, filepath.Join(e.ws, name))
	m, _ := v.(map[string]any)
	var b buffer
	if list, ok := m["lines"].([]any); ok {
		b.loaded = true
		for _, l := range list {
			s, _ := l.(string)
			b.lines = append(b.lines, s)
		}
	}
	b.modified, _ = m["modified"].(bool)
	return b
}

func (e *typingEditor) disk(name string) string {
	b, _ := os.ReadFile(filepath.Join(e.ws, name))
	return string(b)
}

// call is one tool call as the agent's model receives it.
type call struct {
	text  string
	isErr bool
	took  time.Duration
}

func (e *typingEditor) call(tool string, args map[string]any) call {
	e.t.Helper()
	c, err := e.tryCall(tool, args)
	if err != nil {
		e.fatal("%v", err)
	}
	return c
}

// tryCall is call for a goroutine other than the test's.
func (e *typingEditor) tryCall(tool string, args map[string]any) (call, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	res, err := e.agent.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil || len(res.Content) == 0 {
		return call{}, fmt.Errorf("%s %v: %v %+v", tool, args, err, res)
	}
	text, _ := res.Content[0].(*sdk.TextContent)
	if text == nil {
		return call{}, fmt.Errorf("%s: no text block: %+v", tool, res.Content)
	}
	return call{text: text.Text, isErr: res.IsError, took: time.Since(start)}, nil
}

var tagRe = regexp.MustCompile(`(?m)^\[[^\]#]+#([0-9A-F]{4})\]`)

// tag is the tag of the first header in a result's text.
func (c call) tag() string {
	if m := tagRe.FindStringSubmatch(c.text); m != nil {
		return m[1]
	}
	return ""
}

// read reads name through the agent and returns the result, with its tag.
func (e *typingEditor) read(name string) call {
	e.t.Helper()
	r := e.call("hashline_read", map[string]any{"path": name})
	if r.isErr || r.tag() == "" {
		e.fatal("read %s: %s", name, r.text)
	}
	return r
}

func (e *typingEditor) edit(name, tag, ops string) call {
	e.t.Helper()
	return e.call("hashline_edit", map[string]any{"path": name, "tag": tag, "ops": ops})
}

// readLines are the lines a read shows, without numbers.
func readLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.IndexByte(l, ':'); i > 0 && strings.Trim(l[:i], "0123456789") == "" {
			out = append(out, l[i+1:])
		}
	}
	return out
}

// numbered is a file of n lines "line_N = N".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line_%d = %d\n", i, i)
	}
	return b.String()
}

// eachNeovim runs f once per Neovim build the plugin's tests run in.
func eachNeovim(t *testing.T, f func(t *testing.T, nvim string)) {
	for _, nv := range testenv.Neovims(t) {
		t.Run(nv.Name, func(t *testing.T) { f(t, nv.Use(t)) })
	}
}
