package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"hashline-ls/commands"
	"hashline-ls/internal/testenv"
)

// npmModules is where e2e/scripts/install-mcp-clients.sh installs the
// third-party MCP clients.
func npmModules(t *testing.T) string {
	t.Helper()
	dir := absPath(t, ".cache/npm/node_modules")
	return dir
}

// needNPM returns the path of an installed npm package's file, skipping
// the test when it is missing (failing it in CI).
func needNPM(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join(npmModules(t), rel)
	if _, err := os.Stat(p); err != nil {
		testenv.NotInstalled(t, rel, "run bash e2e/scripts/install-mcp-clients.sh")
	}
	if _, err := exec.LookPath("node"); err != nil {
		testenv.NotInstalled(t, "node", "install Node 20")
	}
	return p
}

// writeFiles makes a workspace holding files and returns its canonical path.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	testenv.WriteFiles(t, dir, files)
	return dir
}

// shellVerb runs a hashline-ls shell verb in dir and returns what it
// prints on stdout.
func shellVerb(t *testing.T, bin, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hashline-ls %v: %v", args, err)
	}
	return string(out)
}

const greetPy = "def greet(name):\n    return f\"hello {name}\"\n\nprint(greet(\"x\"))\n"

// TestMCPTypeScriptSDK drives hashline-ls mcp with the official TypeScript
// SDK's client over stdio: the tools are listed, a read's text carries the
// tag, an edit with it lands on disk, and the same tag again is refused.
func TestMCPTypeScriptSDK(t *testing.T) {
	needNPM(t, "@modelcontextprotocol/sdk/package.json")
	bin := buildServer(t)
	ws := writeFiles(t, map[string]string{"greet.py": greetPy})
	wantRead := shellVerb(t, bin, ws, "read", "greet.py")

	checkTSSession(t, runTSClient(t, bin, nil, nil, ws), ws, wantRead)
}

// tsCall is one tool call's result as the TypeScript client reports it.
type tsCall struct {
	IsError    bool           `json:"isError"`
	Blocks     int            `json:"blocks"`
	Text       string         `json:"text"`
	Structured map[string]any `json:"structured"`
}

// tsReport is what testdata/mcp_ts_client.cjs saw of a session.
type tsReport struct {
	ProtocolVersion string `json:"protocolVersion"`
	Server          struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"server"`
	Instructions string `json:"instructions"`
	Tools        []struct {
		Name         string `json:"name"`
		ReadOnlyHint bool   `json:"readOnlyHint"`
	} `json:"tools"`
	Read, Edit, Stale tsCall
}

// runTSClient runs the TypeScript SDK's client against the server that
// command (then args, then "mcp --root ws --no-editor") starts, with env
// added to the client's environment, and returns what it reports.
func runTSClient(t *testing.T, command string, args, env []string, ws string) tsReport {
	t.Helper()
	script, _ := filepath.Abs("testdata/mcp_ts_client.cjs")
	cmd := exec.Command("node", script)
	cmd.Env = append(os.Environ(), "HASHLINE_BIN="+command, "HASHLINE_ROOT="+ws, "NODE_PATH="+npmModules(t))
	if args != nil {
		b, _ := json.Marshal(args)
		cmd.Env = append(cmd.Env, "HASHLINE_ARGS="+string(b))
	}
	cmd.Env = append(cmd.Env, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	t.Logf("TypeScript SDK session in %v", time.Since(start).Round(time.Millisecond))
	var report tsReport
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	return report
}

// checkTSSession judges a session of mcp_ts_client.cjs on greet.py in ws:
// the five tools, the read's text as the shell verb prints it, the edit on
// disk, and the stale edit refused with the live tag.
func checkTSSession(t *testing.T, report tsReport, ws, wantRead string) {
	t.Helper()
	t.Logf("negotiated %s with %s %s", report.ProtocolVersion, report.Server.Name, report.Server.Version)
	if report.Server.Name != "hashline-ls" || report.Server.Version != commands.Version || report.Instructions != commands.Guidance() || report.ProtocolVersion == "" {
		t.Fatalf("initialize: %+v", report.Server)
	}
	var names []string
	for _, tool := range report.Tools {
		names = append(names, tool.Name)
		if ro := tool.Name == "hashline_read" || tool.Name == "hashline_grep"; tool.ReadOnlyHint != ro {
			t.Errorf("%s: readOnlyHint %v", tool.Name, tool.ReadOnlyHint)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"hashline_edit", "hashline_grep", "hashline_patch", "hashline_read", "hashline_write"}) {
		t.Fatalf("tools: %v", names)
	}
	for name, c := range map[string]tsCall{"read": report.Read, "edit": report.Edit, "stale": report.Stale} {
		// One text block and nothing else: no structuredContent, which
		// hosts would show the model in place of the text.
		if c.Blocks != 1 || c.Text == "" || c.Structured != nil || c.IsError != errorCodeRe.MatchString(c.Text) {
			t.Errorf("%s: %d blocks, isError %v, text %q, structured %v", name, c.Blocks, c.IsError, c.Text, c.Structured)
		}
	}
	if report.Read.Text != wantRead {
		t.Errorf("read text\n%q\nthe shell verb prints\n%q", report.Read.Text, wantRead)
	}
	want := strings.Replace(greetPy, "hello {name}", "hi {name}", 1)
	if b, _ := os.ReadFile(filepath.Join(ws, "greet.py")); string(b) != want {
		t.Fatalf("greet.py holds %q, want %q", b, want)
	}
	newTag := regexp.MustCompile(`^\[greet\.py#([0-9A-F]{4})\]\n`).FindStringSubmatch(report.Edit.Text)
	if report.Edit.IsError || newTag == nil {
		t.Fatalf("edit: %+v", report.Edit)
	}
	if !report.Stale.IsError || !strings.HasPrefix(report.Stale.Text, "EDIT_TAG_MISMATCH: ") || !strings.Contains(report.Stale.Text, "live tag: "+newTag[1]) {
		t.Fatalf("stale edit: %+v", report.Stale)
	}
	t.Logf("stale edit answered:\n%s", report.Stale.Text)
}
