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

// Claude Code speaks Anthropic's Messages API to its model (POST
// /v1/messages, streamed as server-sent events) and names the MCP tools
// mcp__SERVER__TOOL.

// messagesWire is the model's side of the Messages API, for Claude Code.
type messagesWire struct {
	prefix string // mcp__hashline__
}

func (mw messagesWire) decode(r *http.Request, body []byte) (hostRequest, error) {
	var out hostRequest
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := decodePost(r, body, "/v1/messages", "Messages API", &req); err != nil {
		return out, err
	}
	if len(req.Tools) == 0 {
		// Claude Code asks its model for a title or a summary without
		// tools: that is not a step of the session.
		out.aside = func(w http.ResponseWriter) { mw.answer(w, step{Message: "Greeting change"}, 0) }
		return out, nil
	}
	for _, msg := range req.Messages {
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		if msg.Role != "user" || json.Unmarshal(msg.Content, &blocks) != nil {
			continue
		}
		for _, bl := range blocks {
			if bl.Type == "tool_result" {
				out.Results = append(out.Results, received{CallID: bl.ToolUseID, Output: joinedText(bl.Content), IsError: bl.IsError})
			}
		}
	}
	for _, tool := range req.Tools {
		out.Tools = append(out.Tools, offeredTool{Name: strings.TrimPrefix(tool.Name, mw.prefix), Description: tool.Description, Schema: tool.InputSchema})
	}
	return out, nil
}

func (mw messagesWire) answer(w http.ResponseWriter, next step, n int) {
	w.Header().Set("Content-Type", "text/event-stream")
	usage := map[string]any{"input_tokens": 10, "output_tokens": 1}
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "model": "claude-test-model",
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	stop := "end_turn"
	if next.Tool != "" {
		args, _ := json.Marshal(next.Args)
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{
			"type": "tool_use", "id": fmt.Sprintf("toolu_%d", n), "name": mw.prefix + next.Tool, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(args)}})
		stop = "tool_use"
	} else {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": next.Message}})
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// claudeEnv keeps Claude Code to the model server: no telemetry, error
// reports, update checks or other traffic it calls nonessential.
func claudeEnv(model *agentModel) []string {
	return []string{
		"ANTHROPIC_BASE_URL=" + model.URL, "ANTHROPIC_API_KEY=test",
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
}

// TestClaudeCode runs the real Claude Code CLI (claude -p) with
// hashline-ls mcp configured by the README's .mcp.json, through the
// session every agent's model plays.
func TestClaudeCode(t *testing.T) {
	claude, bin, ws, tmpdir := setUpAgent(t, ".bin/claude", map[string]string{".mcp.json": readmeBlock(t, "Claude Code", "json")})
	model := startAgentModel(t, messagesWire{prefix: "mcp__hashline__"}, playSession(nil))
	debugLog := filepath.Join(filepath.Dir(tmpdir), "claude-debug.log")
	out := agentRun{name: "claude -p", path: claude, dir: ws, bin: bin, env: claudeEnv(model),
		args: []string{"-p", "Change the greeting in greet.py from hello to hi.", "--output-format", "stream-json", "--verbose",
			"--allowedTools", "mcp__hashline__*", "--no-session-persistence", "--debug-file", debugLog},
	}.run(t, tmpdir)
	logged, _ := os.ReadFile(debugLog)
	got := checkSession(t, sessionRun{agent: "Claude Code", model: model, bin: bin, ws: ws}, 0)

	// Claude Code flags the refusals as errors, and cut nothing of the
	// server's instructions.
	for i, g := range got {
		if want := errorCodeRe.MatchString(g.Output); g.IsError != want {
			t.Errorf("call %d: is_error %v, want %v", i+1, g.IsError, want)
		}
	}
	if !strings.Contains(string(logged), `MCP server "hashline": Successfully connected`) {
		t.Errorf("Claude Code's debug log does not say it connected to hashline:\n%s", logged)
	}
	for _, line := range strings.Split(string(logged), "\n") {
		if strings.Contains(line, "truncated") {
			t.Errorf("Claude Code's debug log: %s", line)
		}
	}
	checkLastWord(t, "claude -p", out.stdout)
}
