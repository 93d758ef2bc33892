package e2e

import (
	"encoding/json"
	"net/http"
	"testing"

	"hashline-ls/internal/testenv"
)

// opencode speaks OpenAI's chat completions to a provider configured as
// OpenAI-compatible (POST /v1/chat/completions, streamed), and names the
// MCP tools SERVER_TOOL.

// chatWire is the model's side of chat completions, for opencode.
type chatWire struct {
	prefix string // hashline_
}

func (cw chatWire) decode(r *http.Request, body []byte) (hostRequest, error) {
	var out hostRequest
	var req chatRequest
	if err := decodePost(r, body, "/chat/completions", "chat completions", &req); err != nil {
		return out, err
	}
	if len(req.Tools) == 0 {
		// opencode asks for the session's title without tools first.
		out.aside = func(w http.ResponseWriter) { writeChat(w, req.Stream, modelTurn{Text: "Greeting change"}, 0) }
		return out, nil
	}
	for _, msg := range req.Messages {
		if msg.Role == "tool" {
			out.Results = append(out.Results, received{CallID: msg.ToolCallID, Output: msg.text()})
		}
	}
	for _, tool := range req.Tools {
		out.Tools = append(out.Tools, tool.Function.offered(cw.prefix))
	}
	return out, nil
}

func (cw chatWire) answer(w http.ResponseWriter, next step, n int) {
	turn := modelTurn{Text: next.Message}
	if next.Tool != "" {
		turn = modelTurn{Tool: cw.prefix + next.Tool, Args: next.Args}
	}
	writeChat(w, true, turn, n)
}

// opencodeEnv keeps opencode to the model server: no models list from its
// site, no update, share, LSP download or default plugins, and none of
// Claude Code's files or other skills.
var opencodeEnv = []string{
	"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_SHARE=1",
	"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_DISABLE_CLAUDE_CODE=1",
	"OPENCODE_DISABLE_EXTERNAL_SKILLS=1",
}

// TestOpencode runs the real opencode CLI (opencode run) with hashline-ls
// mcp configured by the README's opencode.json mcp entry, through the
// session every agent's model plays.
func TestOpencode(t *testing.T) {
	opencode, bin, ws, tmpdir := setUpAgent(t, ".bin/opencode", nil)
	model := startAgentModel(t, chatWire{prefix: "hashline_"}, playSession(nil))

	// The README's opencode.json, with the test's model as the provider.
	var config map[string]any
	if err := json.Unmarshal([]byte(readmeBlock(t, "opencode", "json")), &config); err != nil {
		t.Fatal(err)
	}
	config["provider"] = map[string]any{"hashline-test": map[string]any{
		"npm": "@ai-sdk/openai-compatible", "name": "hashline test model",
		"options": map[string]any{"baseURL": model.URL + "/v1", "apiKey": "test"},
		"models":  map[string]any{"test-model": map[string]any{"name": "test model"}},
	}}
	config["enabled_providers"] = []string{"hashline-test"}
	config["model"], config["small_model"] = "hashline-test/test-model", "hashline-test/test-model"
	b, _ := json.MarshalIndent(config, "", "  ")
	testenv.WriteFiles(t, ws, map[string]string{"opencode.json": string(b)})
	out := agentRun{name: "opencode run", path: opencode, dir: ws, bin: bin,
		// opencode takes its project folder from $PWD.
		env:  append([]string{"PWD=" + ws}, opencodeEnv...),
		args: []string{"run", "--pure", "--format", "json", "--auto", "Change the greeting in greet.py from hello to hi."},
	}.run(t, tmpdir)
	checkSession(t, sessionRun{agent: "opencode", model: model, bin: bin, ws: ws}, 0)
	checkLastWord(t, "opencode run", out.stdout)
}
