package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// A model for Codex, played by a server this test runs on 127.0.0.1. It
// speaks the part of the Responses API Codex uses (POST /v1/responses,
// answered as server-sent events) and decides each step from what it was
// sent back, as a model would: it reads only what Codex shows it.

// received is one tool result as the model got it from Codex.
type received struct {
	CallID string
	Output string
}

// step is the model's next move: a call of one of the MCP server's tools,
// or, when Tool is empty, a final message.
type step struct {
	Tool    string
	Args    map[string]any
	Message string
}

// brain decides the next step from every tool result received so far.
type brain func(got []received) step

type modelServer struct {
	t         *testing.T
	namespace string // the namespace Codex puts the MCP tools under
	think     brain

	mu       sync.Mutex // guards the fields below
	requests int
	got      []received
	offered  []json.RawMessage // the tools of the last request, as sent
}

func startModel(t *testing.T, namespace string, think brain) (*modelServer, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	m := &modelServer{t: t, namespace: namespace, think: think}
	srv := &http.Server{Handler: m}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return m, "http://" + ln.Addr().String() + "/v1"
}

func (m *modelServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Input []struct {
			Type   string          `json:"type"`
			CallID string          `json:"call_id"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var got []received
	for _, it := range req.Input {
		if it.Type == "function_call_output" {
			got = append(got, received{it.CallID, outputText(it.Output)})
		}
	}
	m.mu.Lock()
	m.requests++
	n := m.requests
	m.got = got
	m.offered = req.Tools
	m.mu.Unlock()
	next := m.think(got)

	var item map[string]any
	if next.Tool != "" {
		args, _ := json.Marshal(next.Args)
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", n), "call_id": fmt.Sprintf("call_%d", n),
			"namespace": m.namespace, "name": next.Tool, "arguments": string(args), "status": "completed"}
	} else {
		item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", n), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": next.Message, "annotations": []any{}}}}
	}
	resp := map[string]any{"id": fmt.Sprintf("resp_%d", n), "object": "response", "status": "in_progress", "output": []any{}}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(typ string, data map[string]any) {
		data["type"] = typ
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, b)
	}
	send("response.created", map[string]any{"response": resp})
	send("response.output_item.added", map[string]any{"output_index": 0, "item": item})
	send("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	resp["status"] = "completed"
	resp["output"] = []any{item}
	resp["usage"] = map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15,
		"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	send("response.completed", map[string]any{"response": resp})
}

// outputText is a function_call_output's output: a string, or content
// items whose text is joined.
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var items []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &items)
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it.Text)
	}
	return b.String()
}

// shownText is the rendered text of a hashline result as a model reads it
// in what Codex sent: Codex shows "Wall time: ...\nOutput:\n" and then the
// result's structuredContent as JSON, whose text field is the rendering.
// It returns "" when the rendered text is not there.
func shownText(output string) string {
	_, body, ok := strings.Cut(output, "Output:\n")
	if !ok {
		return ""
	}
	var res struct {
		Text string `json:"text"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(body)), &res) != nil {
		return ""
	}
	return res.Text
}

// outbound records connections that would leave this machine: Codex is
// pointed at it as its proxy, so anything but the model server goes to
// 127.0.0.1 and no further.
type outbound struct {
	mu    sync.Mutex // guards tried
	tried []string
}

func startOutbound(t *testing.T) (*outbound, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o := &outbound{}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetReadDeadline(time.Now().Add(5 * time.Second))
				line, _ := bufio.NewReader(c).ReadString('\n')
				o.mu.Lock()
				o.tried = append(o.tried, strings.TrimSpace(line))
				o.mu.Unlock()
				io.WriteString(c, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			}()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return o, "http://" + ln.Addr().String()
}

var tagLineRe = regexp.MustCompile(`(?m)^\[greet\.py#([0-9A-F]{4})\]$`)
var helloRowRe = regexp.MustCompile(`(?m)^(\d+):    return f"hello \{name\}"$`)

// readThenEdit reads greet.py, changes its return line using only the tag
// and line number the read's rendered text shows, then sends the same edit
// with the same tag again, which is stale by then. Last come two calls
// that break what Codex leaves out of the schemas it forwards (a tag's
// pattern, an offset's minimum), and it stops.
func readThenEdit(got []received) step {
	switch len(got) {
	case 0:
		return step{Tool: "hashline_read", Args: map[string]any{"path": "greet.py"}}
	case 1:
		text := shownText(got[0].Output)
		tag, row := tagLineRe.FindStringSubmatch(text), helloRowRe.FindStringSubmatch(text)
		if tag == nil || row == nil {
			return step{Message: "I could not find the tag and the line in the read's text."}
		}
		return step{Tool: "hashline_edit", Args: map[string]any{"path": "greet.py", "tag": tag[1],
			"ops": fmt.Sprintf("PUT %s.=%s:\n+    return f\"hi {name}\"\n", row[1], row[1])}}
	case 2:
		text := shownText(got[0].Output)
		tag, row := tagLineRe.FindStringSubmatch(text), helloRowRe.FindStringSubmatch(text)
		return step{Tool: "hashline_edit", Args: map[string]any{"path": "greet.py", "tag": tag[1],
			"ops": fmt.Sprintf("PUT %s.=%s:\n+    return f\"hey {name}\"\n", row[1], row[1])}}
	case 3:
		return step{Tool: "hashline_edit", Args: map[string]any{"path": "greet.py", "tag": "g00d", "ops": "CUT 3.=3"}}
	case 4:
		return step{Tool: "hashline_read", Args: map[string]any{"path": "greet.py", "offset": 0}}
	}
	return step{Message: "Done: greet.py now says hi."}
}

// codexEvent is one line of codex exec --json.
type codexEvent struct {
	Type string `json:"type"`
	Item struct {
		Type   string          `json:"type"`
		Server string          `json:"server"`
		Tool   string          `json:"tool"`
		Status string          `json:"status"`
		Text   string          `json:"text"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	} `json:"item"`
}

// codexRun is one codex exec run with hashline-ls mcp as its MCP server
// and a model played by think.
type codexRun struct {
	codex, bin, ws string
	mcpArgs        []string // after mcp --root ws --log-file FILE
	tmpdir         string   // Codex's TMPDIR, which it passes to the MCP server
	think          brain
	prompt         string
}

// codexResult is what a run left: what the model was sent, Codex's events,
// its last message and the MCP server's log.
type codexResult struct {
	got         []received
	offered     []json.RawMessage
	requests    int
	calls       []codexEvent // the mcp_tool_call items completed, in order
	out         string       // codex exec --json's stdout
	lastMessage string
	mcpLog      string
}

func runCodex(t *testing.T, r codexRun) codexResult {
	t.Helper()
	model, baseURL := startModel(t, "mcp__hashline", r.think)
	proxy, proxyURL := startOutbound(t)
	home := t.TempDir()
	codexHome := filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		t.Fatal(err)
	}
	mcpLog := filepath.Join(home, "mcp.log")
	args, _ := json.Marshal(append([]string{"mcp", "--root", r.ws, "--log-file", mcpLog}, r.mcpArgs...))
	config := fmt.Sprintf(`model = "hashline-test-model"
model_provider = "hashline-test"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.hashline-test]
name = "hashline test model"
base_url = %q
wire_api = "responses"
env_key = "HASHLINE_TEST_MODEL_KEY"

[mcp_servers.hashline]
command = %q
args = %s
required = true
startup_timeout_sec = 30
tool_timeout_sec = 60
`, baseURL, r.bin, args)
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	lastMessage := filepath.Join(home, "last-message.txt")
	cmd := exec.Command(r.codex, "exec", "--strict-config", "--skip-git-repo-check", "--ephemeral", "--json",
		"--dangerously-bypass-approvals-and-sandbox", "-C", r.ws, "-o", lastMessage, r.prompt)
	cmd.Env = []string{
		"HOME=" + home, "CODEX_HOME=" + codexHome, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + r.tmpdir,
		"HASHLINE_TEST_MODEL_KEY=test", "LANG=C.UTF-8",
		// Everything but the model server goes to the recorder on 127.0.0.1.
		"HTTPS_PROXY=" + proxyURL, "HTTP_PROXY=" + proxyURL, "ALL_PROXY=" + proxyURL,
		"https_proxy=" + proxyURL, "http_proxy=" + proxyURL, "all_proxy=" + proxyURL,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
	cmd.Stdin = nil
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	elapsed := time.Since(start)
	logged, _ := os.ReadFile(mcpLog)
	if err != nil {
		t.Fatalf("codex exec: %v\nstdout:\n%s\nstderr:\n%s\nmcp log:\n%s", err, out, stderr.String(), logged)
	}
	t.Logf("codex exec ran in %v", elapsed.Round(time.Millisecond))
	res := codexResult{out: string(out), mcpLog: string(logged)}
	model.mu.Lock()
	res.got, res.offered, res.requests = model.got, model.offered, model.requests
	model.mu.Unlock()
	for _, line := range strings.Split(string(out), "\n") {
		var ev codexEvent
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "item.completed" && ev.Item.Type == "mcp_tool_call" {
			res.calls = append(res.calls, ev)
		}
	}
	b, _ := os.ReadFile(lastMessage)
	res.lastMessage = strings.TrimSpace(string(b))
	proxy.mu.Lock()
	if len(proxy.tried) > 0 {
		t.Logf("connections Codex tried beyond the model server (kept on 127.0.0.1, refused): %q", proxy.tried)
	}
	proxy.mu.Unlock()
	return res
}

// checkCalls compares Codex's own account of the MCP calls with want,
// tool and status each.
func checkCalls(t *testing.T, res codexResult, want []struct{ tool, status string }) {
	t.Helper()
	if len(res.calls) != len(want) {
		t.Fatalf("codex reports %d MCP calls, want %d:\n%s", len(res.calls), len(want), res.out)
	}
	for i, c := range res.calls {
		if c.Item.Server != "hashline" || c.Item.Tool != want[i].tool || c.Item.Status != want[i].status {
			t.Errorf("call %d: %s/%s %s, want hashline/%s %s", i+1, c.Item.Server, c.Item.Tool, c.Item.Status, want[i].tool, want[i].status)
		}
	}
}

// TestCodexDisk runs the real Codex CLI with hashline-ls mcp as its MCP
// server and no editor: the model reads greet.py, edits it with the tag
// from the read's rendered text, and the file on disk changes exactly; the
// same tag once more is refused, and the model is shown why.
func TestCodexDisk(t *testing.T) {
	codex := needNPM(t, ".bin/codex")
	bin := buildServer(t)
	ws := writeFiles(t, map[string]string{"greet.py": greetPy})
	wantRead := shellVerb(t, bin, ws, "read", "greet.py")

	res := runCodex(t, codexRun{codex: codex, bin: bin, ws: ws, mcpArgs: []string{"--no-editor"}, tmpdir: t.TempDir(),
		think: readThenEdit, prompt: "Change the greeting in greet.py from hello to hi."})
	got := res.got

	// What the model was offered: the MCP tools under one namespace.
	for _, tool := range res.offered {
		if strings.Contains(string(tool), "mcp__hashline") {
			t.Logf("tools offered to the model under mcp__hashline:\n%s", tool)
			for _, kept := range []string{`"pattern":"^[0-9A-Fa-f]{4}$"`, `"minimum":1`} {
				t.Logf("the schemas Codex forwarded keep %s: %v", kept, strings.Contains(string(tool), kept))
			}
		}
	}
	if res.requests != 6 || len(got) != 5 {
		t.Fatalf("the model was asked %d times and received %d results, want 6 and 5\nstdout:\n%s", res.requests, len(got), res.out)
	}
	for i, g := range got {
		t.Logf("the model received for call %d:\n%s", i+1, g.Output)
	}

	// The rendered text reached the model, inside the result object Codex
	// shows: the read's is what the shell verb prints.
	if text := shownText(got[0].Output); text != wantRead {
		t.Fatalf("the model was shown the read's text\n%q\nthe shell verb prints\n%q", text, wantRead)
	}
	editText := shownText(got[1].Output)
	newTag := tagLineRe.FindStringSubmatch(editText)
	if newTag == nil || !strings.Contains(editText, "+    return f\"hi {name}\"") {
		t.Fatalf("the edit's text as the model saw it: %q", editText)
	}
	staleText := shownText(got[2].Output)
	if !strings.HasPrefix(staleText, "EDIT_TAG_MISMATCH: ") || !strings.Contains(staleText, "live tag: "+newTag[1]) {
		t.Fatalf("the stale edit's text as the model saw it: %q", staleText)
	}

	// Codex forwarded the schemas without pattern and minimum; the server
	// refused what those would have stopped.
	if text := shownText(got[3].Output); !strings.HasPrefix(text, "EDIT_TAG_REQUIRED: ") {
		t.Fatalf("an edit with tag g00d, as the model saw it: %q", text)
	}
	if text := shownText(got[4].Output); !strings.HasPrefix(text, "INVALID_ARGUMENT: argument offset: minimum: got 0, want 1") {
		t.Fatalf("a read from offset 0, as the model saw it: %q", text)
	}

	// The file on disk changed exactly, once.
	want := strings.Replace(greetPy, "hello {name}", "hi {name}", 1)
	if b, _ := os.ReadFile(filepath.Join(ws, "greet.py")); string(b) != want {
		t.Fatalf("greet.py holds %q, want %q", b, want)
	}

	// Codex's own account: the MCP calls to hashline, the refused ones
	// failed, and the model's last word.
	checkCalls(t, res, []struct{ tool, status string }{{"hashline_read", "completed"}, {"hashline_edit", "completed"},
		{"hashline_edit", "failed"}, {"hashline_edit", "failed"}, {"hashline_read", "failed"}})
	if res.lastMessage != "Done: greet.py now says hi." {
		t.Errorf("last message %q", res.lastMessage)
	}
}
