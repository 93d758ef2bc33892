package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hashline-ls/internal/testenv"
)

// vendoredPlugins unpacks the named Neovim plugins of
// ../shared/vendor/neovim-plugins (NAME.tar.gz, a folder NAME inside) into
// a temporary folder and returns each one's folder, by name. A missing
// tarball skips the test, or fails it where the editors are required.
func vendoredPlugins(t *testing.T, names ...string) map[string]string {
	t.Helper()
	vendor := testenv.Vendored(t, "neovim-plugins")
	dir := t.TempDir()
	out := map[string]string{}
	for _, name := range names {
		tarball := filepath.Join(vendor, name+".tar.gz")
		if _, err := os.Stat(tarball); err != nil {
			testenv.NotInstalled(t, name, "put its tarball at "+tarball+" (see ../shared/vendor/neovim-plugins/README.md)")
		}
		if b, err := exec.Command("tar", "-xzf", tarball, "-C", dir).CombinedOutput(); err != nil {
			t.Fatalf("unpacking %s: %v\n%s", tarball, err, b)
		}
		out[name] = filepath.Join(dir, name)
	}
	return out
}

// neovim011 is the first Neovim build that is 0.11 or later, which
// codecompanion and avante need; with none, the test is skipped (failed
// where the editors are required).
func neovim011(t *testing.T) string {
	t.Helper()
	var absent testenv.Neovim
	for _, nv := range testenv.Neovims(t) {
		if nv.Path != "" && nv.AtLeast(0, 11) {
			return nv.Path
		}
		if nv.Path == "" {
			absent = nv
		}
	}
	if absent.Name != "" {
		return absent.Use(t)
	}
	testenv.NotInstalled(t, "Neovim 0.11 or later", "run e2e/scripts/install-neovim.sh")
	return ""
}

// describeTools is the tool definitions the binary describes, by name.
func describeTools(t *testing.T, bin string) (map[string]map[string]any, string) {
	t.Helper()
	out, err := exec.Command(bin, "describe", "--json").Output()
	if err != nil {
		t.Fatalf("describe: %v", err)
	}
	var d struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		} `json:"tools"`
		Guidance string `json:"guidance"`
	}
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	tools := map[string]map[string]any{}
	for _, tool := range d.Tools {
		tools[tool.Name] = tool.InputSchema
	}
	return tools, d.Guidance
}

const greetHi = "PUT 2.=2:\n+    return f\"hi {name}\""

// TestCodeCompanionChat runs a real codecompanion.nvim chat in Neovim 0.11+
// with the hashline tools (testdata/nvim_plugin/codecompanion.lua), against
// a model this test plays on 127.0.0.1: it reads greet.py, then edits it
// with the read's tag. In the second chat the user changes the line between
// the read and the edit, and the edit is refused.
func TestCodeCompanionChat(t *testing.T) {
	nvim := neovim011(t)
	plugins := vendoredPlugins(t, "codecompanion.nvim", "plenary.nvim")
	if _, err := exec.LookPath("curl"); err != nil {
		testenv.NotInstalled(t, "curl (plenary's HTTP client runs it)", "install Debian's curl")
	}
	bin := buildServer(t)
	model := newChatModel(t, func(req chatRequest) modelTurn {
		last, first := req.last()
		stale := strings.Contains(first, "(stale)")
		out := strings.TrimSpace(last.text())
		read := strings.HasPrefix(out, "[greet.py#") && !strings.Contains(out, "\n--- a/")
		switch {
		case last.Role == "user":
			return modelTurn{Tool: "hashline_read", Args: map[string]any{"path": "greet.py"}}
		case last.Role == "tool" && read:
			return modelTurn{Tool: "hashline_edit", Args: map[string]any{"path": "greet.py", "tag": tagIn(out), "ops": greetHi}}
		case stale:
			return modelTurn{Text: "I will read the file again."}
		default:
			return modelTurn{Text: "The greeting now says hi."}
		}
	})
	runPluginScript(t, nvim, bin, "codecompanion.lua", nil,
		"HASHLINE_CODECOMPANION="+plugins["codecompanion.nvim"], "HASHLINE_PLENARY="+plugins["plenary.nvim"],
		"HASHLINE_MODEL_URL="+model.URL, "no_proxy=127.0.0.1", "NO_PROXY=127.0.0.1")

	reqs := model.Requests()
	if len(reqs) != 6 {
		t.Fatalf("the model got %d requests, want 6: read, edit, answer in each chat", len(reqs))
	}
	want, guidance := describeTools(t, bin)
	for i, req := range reqs {
		got := map[string]map[string]any{}
		for _, tool := range req.Tools {
			if strings.HasPrefix(tool.Function.Name, "hashline_") {
				got[tool.Function.Name] = tool.Function.Parameters
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("request %d: the model was sent these hashline tools:\n%v\nwant describe's:\n%v", i+1, got, want)
		}
	}
	system := false
	for _, msg := range reqs[0].Messages {
		system = system || msg.Role == "system" && strings.Contains(msg.text(), guidance)
	}
	if !system {
		t.Errorf("the model was not given the edit language's guide")
	}
	// What the model read back: the server's text of each result.
	outs := reqs[2].toolOutputs()
	if len(outs) != 2 || !strings.HasPrefix(outs[0], "[greet.py#") || !strings.Contains(outs[0], "\n1:def greet(name):\n2:    return f\"hello {name}\"") ||
		!strings.Contains(outs[1], `+    return f"hi {name}"`) || tagIn(outs[1]) == tagIn(outs[0]) {
		t.Errorf("the first chat's tool outputs, as the model got them:\n%q", outs)
	}
	stale := reqs[5].toolOutputs()
	if len(stale) != 2 || !strings.HasPrefix(stale[1], "EDIT_TAG_MISMATCH") || !strings.Contains(stale[1], `2:    return f"howdy {name}"`) {
		t.Errorf("the refused edit's tool output, as the model got it:\n%q", stale)
	}
}

// TestAvanteTools runs the hashline tools in the real avante.nvim in
// Neovim 0.11+ (testdata/nvim_plugin/avante.lua): its get_tools, what its
// OpenAI provider and prompts make of them, and its process_tool_use.
func TestAvanteTools(t *testing.T) {
	nvim := neovim011(t)
	// avante's tools need plenary too.
	plugins := vendoredPlugins(t, "avante.nvim", "nui.nvim", "plenary.nvim")
	runPluginScript(t, nvim, buildServer(t), "avante.lua", nil,
		"HASHLINE_AVANTE="+plugins["avante.nvim"], "HASHLINE_NUI="+plugins["nui.nvim"], "HASHLINE_PLENARY="+plugins["plenary.nvim"])
}
