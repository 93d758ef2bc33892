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

// Gemini CLI speaks the Gemini API to its model: a generateContent request
// of its own that routes the prompt to a model, then streamGenerateContent
// (server-sent events) per turn. It names the MCP tools mcp_SERVER_TOOL.

// geminiWire is the model's side of the Gemini API, for Gemini CLI.
type geminiWire struct {
	prefix string // mcp_hashline_
}

// functionResponseText is what a functionResponse hands the model: the
// one string its response object holds (output or error), else the
// object as JSON.
func functionResponseText(resp map[string]any) string {
	if len(resp) == 1 {
		for _, v := range resp {
			if s, ok := v.(string); ok {
				return s
			}
		}
	}
	b, _ := json.Marshal(resp)
	return string(b)
}

func (gw geminiWire) decode(r *http.Request, body []byte) (hostRequest, error) {
	var out hostRequest
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, ":generateContent") {
		// Gemini CLI's own question: how complex is the prompt, to pick a
		// model.
		out.aside = func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(geminiCandidate(map[string]any{"text": `{"complexity_reasoning":"a one-line change","complexity_score":10}`}))
		}
		return out, nil
	}
	var req struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				FunctionResponse *struct {
					ID       string         `json:"id"`
					Name     string         `json:"name"`
					Response map[string]any `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct {
				functionDecl
				ParametersJSONSchema map[string]any `json:"parametersJsonSchema"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := decodePost(r, body, ":streamGenerateContent", "Gemini API", &req); err != nil {
		return out, err
	}
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if fr := p.FunctionResponse; fr != nil {
				_, isErr := fr.Response["error"]
				out.Results = append(out.Results, received{CallID: fr.ID, Output: functionResponseText(fr.Response), IsError: isErr})
			}
		}
	}
	for _, tool := range req.Tools {
		for _, f := range tool.FunctionDeclarations {
			o := f.offered(gw.prefix)
			if f.ParametersJSONSchema != nil {
				o.Schema = f.ParametersJSONSchema
			}
			out.Tools = append(out.Tools, o)
		}
	}
	return out, nil
}

// geminiCandidate is a response holding one candidate with one part.
func geminiCandidate(part map[string]any) map[string]any {
	return map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
	}
}

func (gw geminiWire) answer(w http.ResponseWriter, next step, n int) {
	part := map[string]any{"text": next.Message}
	if next.Tool != "" {
		part = map[string]any{"functionCall": map[string]any{"id": fmt.Sprintf("call_%d", n), "name": gw.prefix + next.Tool, "args": next.Args}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "", geminiCandidate(part))
}

// waitForPrevious is what a model does as Gemini CLI's system prompt tells
// it: a call that depends on the ones before it says so.
func waitForPrevious(i int, args map[string]any) { args["wait_for_previous"] = i > 0 }

// TestGeminiCLI runs the real Gemini CLI (gemini -p) with hashline-ls mcp
// configured by the README's .gemini/settings.json in a folder trusted as
// the README says, through the session every agent's model plays, each
// call carrying Gemini CLI's wait_for_previous.
func TestGeminiCLI(t *testing.T) {
	gemini, bin, ws, tmpdir := setUpAgent(t, ".bin/gemini", map[string]string{".gemini/settings.json": readmeBlock(t, "Gemini CLI", "json")})
	// The user's settings: an API key as the way in, and nothing sent
	// anywhere else.
	home := filepath.Join(filepath.Dir(tmpdir), "home")
	user := map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
	}
	b, _ := json.Marshal(user)
	trusted, _ := json.Marshal(map[string]string{ws: "TRUST_FOLDER"})
	for name, text := range map[string][]byte{"settings.json": b, "trustedFolders.json": trusted} {
		if err := os.MkdirAll(filepath.Join(home, ".gemini"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".gemini", name), text, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	model := startAgentModel(t, geminiWire{prefix: "mcp_hashline_"}, playSession(waitForPrevious))
	out := agentRun{name: "gemini -p", path: gemini, dir: ws, bin: bin,
		env:  []string{"GOOGLE_GEMINI_BASE_URL=" + model.URL, "GEMINI_API_KEY=test"},
		args: []string{"-p", "Change the greeting in greet.py from hello to hi.", "--yolo", "--output-format", "stream-json"},
	}.run(t, tmpdir)
	got := checkSession(t, sessionRun{agent: "Gemini CLI", model: model, bin: bin, ws: ws, refusalLimit: 1.7, escapesRefusals: true, checksArguments: true}, 0)

	// Gemini CLI offered wait_for_previous with every tool, and its calls
	// carrying it were served: the read, the edit, and the grep.
	reqs, _, sent := model.session()
	for _, tool := range reqs[0].Tools {
		if props, _ := tool.Schema["properties"].(map[string]any); strings.HasPrefix(tool.Name, "hashline_") && props["wait_for_previous"] == nil {
			t.Errorf("Gemini CLI offered %s without wait_for_previous: %v", tool.Name, tool.Schema)
		}
	}
	for i, s := range sent[:callInvented] {
		if _, ok := s.Args["wait_for_previous"]; !ok {
			t.Errorf("call %d carried no wait_for_previous", i+1)
		}
		if strings.Contains(got[i].Output, "argument wait_for_previous") {
			t.Errorf("call %d was refused for its wait_for_previous: %s", i+1, got[i].Output)
		}
	}
	checkLastWord(t, "gemini -p", out.stdout)
}
