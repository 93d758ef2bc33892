package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Codex speaks the Responses API to its model (POST /v1/responses,
// answered as server-sent events) and offers the MCP server's tools in one
// namespace tool.

// responsesWire is the model's side of the Responses API, for Codex.
type responsesWire struct {
	namespace string // the namespace Codex puts the MCP tools under
}

func (rw responsesWire) decode(r *http.Request, body []byte) (hostRequest, error) {
	var out hostRequest
	var req struct {
		Input []struct {
			Type   string          `json:"type"`
			CallID string          `json:"call_id"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
		Tools []struct {
			Type  string         `json:"type"`
			Name  string         `json:"name"`
			Tools []functionDecl `json:"tools"`
		} `json:"tools"`
	}
	if err := decodePost(r, body, "/responses", "Responses API", &req); err != nil {
		return out, err
	}
	for _, it := range req.Input {
		if it.Type == "function_call_output" {
			out.Results = append(out.Results, received{CallID: it.CallID, Output: joinedText(it.Output)})
		}
	}
	for _, tool := range req.Tools {
		if tool.Type == "namespace" && tool.Name == rw.namespace {
			for _, f := range tool.Tools {
				out.Tools = append(out.Tools, f.offered(""))
			}
		}
	}
	return out, nil
}

func (rw responsesWire) answer(w http.ResponseWriter, next step, n int) {
	var item map[string]any
	if next.Tool != "" {
		args, _ := json.Marshal(next.Args)
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", n), "call_id": fmt.Sprintf("call_%d", n),
			"namespace": rw.namespace, "name": next.Tool, "arguments": string(args), "status": "completed"}
	} else {
		item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", n), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": next.Message, "annotations": []any{}}}}
	}
	resp := map[string]any{"id": fmt.Sprintf("resp_%d", n), "object": "response", "status": "in_progress", "output": []any{}}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(typ string, data map[string]any) {
		data["type"] = typ
		sse(w, typ, data)
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

// joinedText is a tool result as the hosts' wires carry it (a Messages
// content field, a function_call_output's output): a string, or blocks
// whose text is joined.
func joinedText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.Text)
	}
	return b.String()
}

// shownText is the rendered text of a hashline result in what Codex sent
// the model: "Wall time: ...\nOutput:" and a newline (none for an error),
// then the result's text.
func shownText(output string) string {
	_, body, _ := strings.Cut(output, "Output:")
	return strings.TrimPrefix(body, "\n")
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
	mcpArgs        []string // after mcp --log-file FILE
	tmpdir         string   // Codex's TMPDIR, which it passes to the MCP server
	think          brain
	prompt         string
}

// codexResult is what a run left: the model server, Codex's events, its
// last message and the MCP server's log.
type codexResult struct {
	model       *agentModel
	got         []received
	requests    int
	calls       []codexEvent // the mcp_tool_call items completed, in order
	out         string       // codex exec --json's stdout
	lastMessage string
	mcpLog      string
}

func runCodex(t *testing.T, r codexRun) codexResult {
	t.Helper()
	model := startAgentModel(t, responsesWire{namespace: "mcp__hashline"}, r.think)
	codexHome := filepath.Join(filepath.Dir(r.tmpdir), "codex-home")
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		t.Fatal(err)
	}
	mcpLog := filepath.Join(codexHome, "mcp.log")
	// The README's lines, and what a run without a terminal needs: the
	// run fails when the server does not start.
	args, _ := json.Marshal(append([]string{"mcp", "--log-file", mcpLog}, r.mcpArgs...))
	config := fmt.Sprintf(`model = "hashline-test-model"
model_provider = "hashline-test"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false
# Codex cuts the middle out of a longer tool result (the README says so).
tool_output_token_limit = 25000

[analytics]
enabled = false

[model_providers.hashline-test]
name = "hashline test model"
base_url = "%s/v1"
wire_api = "responses"
env_key = "HASHLINE_TEST_MODEL_KEY"

[mcp_servers.hashline]
command = "hashline-ls"
args = %s
required = true
startup_timeout_sec = 30
tool_timeout_sec = 60
`, model.URL, args)
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	lastMessage := filepath.Join(codexHome, "last-message.txt")
	out := agentRun{name: "codex exec", path: r.codex, dir: r.ws, bin: r.bin,
		args: []string{"exec", "--strict-config", "--skip-git-repo-check", "--ephemeral", "--json",
			"--dangerously-bypass-approvals-and-sandbox", "-C", r.ws, "-o", lastMessage, r.prompt},
		env: []string{"CODEX_HOME=" + codexHome, "HASHLINE_TEST_MODEL_KEY=test"},
	}.run(t, r.tmpdir)
	logged, _ := os.ReadFile(mcpLog)
	res := codexResult{model: model, out: out.stdout, mcpLog: string(logged)}
	reqs, _, _ := model.session()
	res.requests = len(reqs)
	if len(reqs) > 0 {
		res.got = reqs[len(reqs)-1].Results
	}
	for _, line := range strings.Split(out.stdout, "\n") {
		var ev codexEvent
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "item.completed" && ev.Item.Type == "mcp_tool_call" {
			res.calls = append(res.calls, ev)
		}
	}
	b, _ := os.ReadFile(lastMessage)
	res.lastMessage = strings.TrimSpace(string(b))
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

// codexExtras break what Codex leaves out of the schemas it forwards (a
// tag's pattern, an offset's minimum).
var codexExtras = []step{
	{Tool: "hashline_edit", Args: map[string]any{"path": "greet.py", "tag": "g00d", "ops": "CUT 3.=3"}},
	{Tool: "hashline_read", Args: map[string]any{"path": "greet.py", "offset": 0}},
}

// TestCodexDisk runs the real Codex CLI, configured as the README says,
// with hashline-ls mcp as its MCP server and no editor, through the
// session every agent's model plays (playSession), then two calls that
// break what Codex drops from the schemas.
func TestCodexDisk(t *testing.T) {
	codex, bin, ws, tmpdir := setUpAgent(t, ".bin/codex", nil)
	res := runCodex(t, codexRun{codex: codex, bin: bin, ws: ws, tmpdir: tmpdir,
		think: playSession(nil, codexExtras...), prompt: "Change the greeting in greet.py from hello to hi."})
	got := checkSession(t, sessionRun{agent: "Codex", model: res.model, bin: bin, ws: ws}, len(codexExtras))

	// Codex forwarded the schemas without pattern and minimum; the server
	// refused what those would have stopped.
	reqs, _, _ := res.model.session()
	for _, tool := range reqs[0].Tools {
		b, _ := json.Marshal(tool.Schema)
		for _, kept := range []string{`"pattern":"^[0-9A-Fa-f]{4}$"`, `"minimum":1`} {
			if strings.Contains(string(b), kept) {
				t.Logf("the schema of %s as Codex forwarded it keeps %s", tool.Name, kept)
			}
		}
	}
	if text := shownText(got[sessionCalls].Output); !strings.HasPrefix(text, "EDIT_TAG_REQUIRED: ") {
		t.Errorf("an edit with tag g00d, as the model saw it: %q", text)
	}
	if text := shownText(got[sessionCalls+1].Output); !strings.HasPrefix(text, "INVALID_ARGUMENT: argument offset: minimum: got 0, want 1") {
		t.Errorf("a read from offset 0, as the model saw it: %q", text)
	}

	// Codex's own account: the MCP calls to hashline, the refused ones
	// failed, and the model's last word.
	checkCalls(t, res, []struct{ tool, status string }{{"hashline_read", "completed"}, {"hashline_read", "completed"},
		{"hashline_edit", "completed"}, {"hashline_edit", "failed"}, {"hashline_grep", "completed"}, {"hashline_read", "failed"},
		{"hashline_edit", "failed"}, {"hashline_read", "failed"}})
	if res.lastMessage != lastWord {
		t.Errorf("last message %q", res.lastMessage)
	}
}
