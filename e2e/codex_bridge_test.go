package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
)

const cleanPy = "def greet(name):\n    return f\"hello {name}\"\n\nprint(greet(\"x\"))\n"

var (
	headerOf = func(name string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\[` + regexp.QuoteMeta(name) + `#([0-9A-F]{4})\]$`)
	}
	returnRowRe = regexp.MustCompile(`(?m)^(\d+):    return f"hello \{name\}"$`)
)

// editEach reads dirty.py and edits its return line with the tag and line
// number the read showed, then does the same to clean.py: through the
// editor, the read of dirty.py shows the user's unsaved typing, which
// moved that line down.
func editEach(got []received) step {
	files := []struct{ name, line string }{{"dirty.py", `    return f"hey {name}"`}, {"clean.py", `    return f'hi {name}'`}}
	if len(got) == 2*len(files) {
		return step{Message: "Done: both greetings changed."}
	}
	f := files[len(got)/2]
	if len(got)%2 == 0 {
		return step{Tool: "hashline_read", Args: map[string]any{"path": f.name}}
	}
	text := shownText(got[len(got)-1].Output)
	tag, row := headerOf(f.name).FindStringSubmatch(text), returnRowRe.FindStringSubmatch(text)
	if tag == nil || row == nil {
		return step{Message: "I could not find the tag and the line in the read of " + f.name}
	}
	return step{Tool: "hashline_edit", Args: map[string]any{"path": f.name, "tag": tag[1],
		"ops": fmt.Sprintf("PUT %s.=%s:\n+%s\n", row[1], row[1], f.line)}}
}

// TestCodexNeovimBridge runs the real Codex CLI with hashline-ls mcp as
// its MCP server while a real Neovim 0.12 runs the plugin over the same
// folder, with clean.py open as on disk and dirty.py holding unsaved
// typing. hashline-ls mcp serves through the editor: the read sees the
// typing, both edits land in the buffers, the clean one is saved (through
// Neovim's :write, whose format-on-save changes it, which the tag shows)
// and the dirty one is not, which the model is told.
func TestCodexNeovimBridge(t *testing.T) {
	nvim := testenv.NewestNeovim(t, 0, 12)
	codex := needNPM(t, ".bin/codex")
	bin, ws, tmpdir, ed := bridgedEditor(t, nvim)

	res := runCodex(t, codexRun{codex: codex, bin: bin, ws: ws, tmpdir: tmpdir, think: editEach,
		prompt: "Change the greetings in dirty.py and clean.py."})
	state := ed.finish(t)
	for i, g := range res.got {
		t.Logf("the model received for call %d:\n%s", i+1, g.Output)
	}
	if res.requests != 5 || len(res.got) != 4 || res.lastMessage != "Done: both greetings changed." {
		t.Fatalf("the model was asked %d times, received %d results, and said %q\n%s\nmcp log:\n%s", res.requests, len(res.got), res.lastMessage, res.out, res.mcpLog)
	}
	checkCalls(t, res, []struct{ tool, status string }{{"hashline_read", "completed"}, {"hashline_edit", "completed"},
		{"hashline_read", "completed"}, {"hashline_edit", "completed"}})

	// What the model read and was told, in the result objects Codex shows.
	checkBridged(t, ws, state, [4]string{shownText(res.got[0].Output), shownText(res.got[1].Output), shownText(res.got[2].Output), shownText(res.got[3].Output)})
	if !strings.Contains(res.mcpLog, "serving through the editor") {
		t.Errorf("the MCP server's log does not say it served through the editor:\n%s", res.mcpLog)
	}
}

// checkBridged checks a bridged session of editEach's four calls, given
// the text of each result, and what the editor's buffers and the disk
// hold after it.
func checkBridged(t *testing.T, ws string, state map[string]bufferState, texts [4]string) {
	t.Helper()
	read, dirtyEdit, cleanEdit := texts[0], texts[1], texts[3]
	if !strings.Contains(read, "1:# typed, unsaved\n") || !strings.Contains(read, "3:    return f\"hello {name}\"\n") {
		t.Fatalf("the read of dirty.py does not show the unsaved typing: %q", read)
	}
	if !strings.Contains(dirtyEdit, "+    return f\"hey {name}\"") ||
		!strings.Contains(dirtyEdit, "warning: dirty.py is not saved: its buffer held unsaved changes before this edit") {
		t.Fatalf("the edit of dirty.py, as the model saw it: %q", dirtyEdit)
	}
	cleanWant := strings.Replace(cleanPy, "hello {name}", "hi {name}", 1)
	if !strings.HasPrefix(cleanEdit, "[clean.py#"+string(hashline.TagOf(cleanWant))+"]\n") || strings.Contains(cleanEdit, "is not saved") ||
		!strings.Contains(cleanEdit, "warning: the text that landed differs from the edit at lines 2-2") {
		t.Fatalf("the edit of clean.py, as the model saw it (want the tag of the formatted text, saved): %q", cleanEdit)
	}

	// The buffers hold both edits; clean.py is saved, formatted, and
	// dirty.py is not.
	dirtyWant := "# typed, unsaved\n" + strings.Replace(cleanPy, "hello {name}", "hey {name}", 1)
	if got := state["dirty.py"]; got.Text != dirtyWant || !got.Modified {
		t.Errorf("dirty.py's buffer: %+v, want %q and modified", got, dirtyWant)
	}
	if got := state["clean.py"]; got.Text != cleanWant || got.Modified {
		t.Errorf("clean.py's buffer: %+v, want %q and saved", got, cleanWant)
	}
	for name, want := range map[string]string{"dirty.py": cleanPy, "clean.py": cleanWant} {
		if b, _ := os.ReadFile(filepath.Join(ws, name)); string(b) != want {
			t.Errorf("%s on disk: %q, want %q", name, b, want)
		}
	}
}

// bridgedEditor starts nvim with the plugin over a fresh folder holding
// clean.py and dirty.py, as editEach expects them, and waits until its
// server is published in tmpdir, the TMPDIR to give hashline-ls mcp.
func bridgedEditor(t *testing.T, nvim string) (bin, ws, tmpdir string, ed *editorRun) {
	t.Helper()
	bin = buildServer(t)
	plugin, _ := filepath.Abs("../editors/neovim")
	testdata, _ := filepath.Abs("testdata/nvim_plugin")
	script, _ := filepath.Abs("testdata/codex_bridge.lua")
	base := t.TempDir()
	ws = filepath.Join(base, "ws")
	tmpdir = filepath.Join(base, "tmp")
	for _, d := range []string{ws, tmpdir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range map[string]string{"clean.py": cleanPy, "dirty.py": cleanPy} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, _ = filepath.EvalSymlinks(ws)
	ed = startEditor(t, nvim, script, map[string]string{
		"HASHLINE_BIN": bin, "HASHLINE_ROOT": ws, "HASHLINE_PLUGIN": plugin, "HASHLINE_TESTDATA": testdata, "TMPDIR": tmpdir,
	}, base)
	info := ed.ready(t)
	t.Logf(":HashlineInfo in Neovim:\n%s", info)
	status, err := exec.Command("env", "TMPDIR="+tmpdir, bin, "mcp", "--status", "--root", ws).CombinedOutput()
	if err != nil || !strings.Contains(string(status), "serving: editor pid ") || !strings.Contains(string(status), "saves: yes") {
		ed.report(t, "hashline-ls mcp --status: %v\n%s", err, status)
	}
	t.Logf("hashline-ls mcp --status:\n%s", status)
	return bin, ws, tmpdir, ed
}

// TestNeovimBridge is TestCodexNeovimBridge's session in Debian's Neovim
// (0.7), with the MCP Go SDK's client over stdio in Codex's place: the
// plugin's save request on the oldest Neovim it supports.
func TestNeovimBridge(t *testing.T) {
	nvim := testenv.Editor(t, "nvim")
	bin, ws, tmpdir, ed := bridgedEditor(t, nvim)
	var stderr strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := connectMCP(ctx, "e2e", bin, tmpdir, &stderr, "--root", ws)
	if err != nil {
		ed.report(t, "connect: %v\n%s", err, stderr.String())
	}
	var got []received
	var texts [4]string
	for i := 0; ; i++ {
		next := editEach(got)
		if next.Tool == "" {
			if i != 4 {
				ed.report(t, "after %d calls: %s", i, next.Message)
			}
			break
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: next.Tool, Arguments: next.Args})
		if err != nil || res.IsError || len(res.Content) != 1 {
			ed.report(t, "%s %v: %v %+v\n%s", next.Tool, next.Args, err, res, stderr.String())
		}
		texts[i] = res.Content[0].(*sdk.TextContent).Text
		// editEach reads what Codex shows: its header, then the text.
		got = append(got, received{Output: "Output:\n" + texts[i]})
	}
	cs.Close()
	state := ed.finish(t)
	checkBridged(t, ws, state, texts)
	if !strings.Contains(stderr.String(), "serving through the editor") {
		t.Errorf("hashline-ls mcp did not serve through the editor:\n%s", stderr.String())
	}
}

// editorRun is a Neovim running a script that waits for the test.
type editorRun struct {
	cmd                                     *exec.Cmd
	out                                     *strings.Builder
	exited                                  chan error
	readyFile, doneFile, stateFile, results string
	serverLog, lspLog                       string
}

type bufferState struct {
	Text     string `json:"text"`
	Modified bool   `json:"modified"`
}

func startEditor(t *testing.T, nvim, script string, env map[string]string, base string) *editorRun {
	t.Helper()
	e := &editorRun{exited: make(chan error, 1),
		readyFile: filepath.Join(base, "ready"), doneFile: filepath.Join(base, "done"), stateFile: filepath.Join(base, "state.json"),
		results: filepath.Join(base, "results.txt"), serverLog: filepath.Join(base, "server.log"),
		lspLog: filepath.Join(base, "xdg", "state", "nvim", "lsp.log")}
	xdg := filepath.Join(base, "xdg")
	e.cmd = headlessNvim(nvim, env["HASHLINE_ROOT"], xdg, []string{"-u", script}, "HASHLINE_READY="+e.readyFile, "HASHLINE_DONE="+e.doneFile, "HASHLINE_STATE="+e.stateFile,
		"HASHLINE_RESULTS="+e.results, "HASHLINE_LOG="+e.serverLog)
	for k, v := range env {
		e.cmd.Env = append(e.cmd.Env, k+"="+v)
	}
	e.out = startKept(t, e.cmd)
	go func() { e.exited <- e.cmd.Wait() }()
	t.Cleanup(func() {
		if e.cmd.ProcessState == nil {
			_ = e.cmd.Process.Kill()
			<-e.exited
		}
	})
	return e
}

// report fails the test with everything the editor left.
func (e *editorRun) report(t *testing.T, format string, args ...any) {
	t.Helper()
	results, _ := os.ReadFile(e.results)
	slog, _ := os.ReadFile(e.serverLog)
	clog, _ := os.ReadFile(e.lspLog)
	t.Fatalf(format+"\nresults:\n%s\nnvim output:\n%s\nserver log:\n%s\nNeovim's LSP log:\n%s", append(args, results, e.out.String(), slog, clog)...)
}

// ready waits until the script is serving and returns what it wrote.
func (e *editorRun) ready(t *testing.T) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if b, err := os.ReadFile(e.readyFile); err == nil {
			return string(b)
		}
		select {
		case err := <-e.exited:
			e.exited <- err
			e.report(t, "Neovim exited before it was ready: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			e.report(t, "Neovim was not ready within 60 s")
		}
	}
}

// finish tells the script the test is done, waits for it, and returns
// what its buffers held.
func (e *editorRun) finish(t *testing.T) map[string]bufferState {
	t.Helper()
	if err := os.WriteFile(e.doneFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-e.exited:
		if err != nil {
			e.report(t, "nvim: %v", err)
		}
	case <-time.After(60 * time.Second):
		e.report(t, "Neovim did not finish within 60 s")
	}
	results, _ := os.ReadFile(e.results)
	if m := summaryRe.FindStringSubmatch(string(results)); m == nil || m[2] != "0" || m[1] == "0" {
		e.report(t, "the editor's checks failed")
	}
	var state map[string]bufferState
	b, err := os.ReadFile(e.stateFile)
	if err == nil {
		err = json.Unmarshal(b, &state)
	}
	if err != nil {
		e.report(t, "the editor's state: %v", err)
	}
	return state
}
