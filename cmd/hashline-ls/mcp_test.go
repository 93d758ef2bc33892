package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hashline-ls/commands"
	"hashline-ls/endpoint"
	"hashline-ls/internal/testenv"
	"hashline-ls/lsp/lsptest"
)

// mcpClient runs the mcp verb in process with args and connects the SDK's
// client to its stdin and stdout.
func mcpClient(t *testing.T, args ...string) *sdk.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	exit := make(chan int, 1)
	go func() {
		code := run(append([]string{"mcp"}, args...), inR, outW, &stderr)
		outW.Close()
		exit <- code
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() {
		cs.Close()
		if code := <-exit; code != 0 {
			t.Errorf("mcp exited %d\n%s", code, stderr.String())
		}
	})
	return cs
}

func textOf(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d content blocks", len(res.Content))
	}
	return res.Content[0].(*sdk.TextContent).Text
}

// What the MCP tools answer is what the shell verbs print, byte for byte.
func TestMCPTextIsTheVerbsText(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.txt": "alpha\nbeta\ngamma\n", "sub/b.go": "package b\n\nvar beta = 1\n"}
	testenv.WriteFiles(t, dir, files)
	cs := mcpClient(t, "--root", dir, "--no-editor")
	for _, tc := range []struct {
		tool string
		args map[string]any
		argv []string
		fail bool
	}{
		{"hashline_read", map[string]any{"path": "a.txt"}, []string{"read", "a.txt"}, false},
		{"hashline_read", map[string]any{"path": "a.txt", "offset": 2, "limit": 1}, []string{"read", "a.txt", "--offset", "2", "--limit", "1"}, false},
		{"hashline_read", map[string]any{"path": "sub/b.go", "anchors": "line"}, []string{"read", "sub/b.go", "--anchors", "line"}, false},
		{"hashline_grep", map[string]any{"pattern": "beta"}, []string{"grep", "beta"}, false},
		{"hashline_grep", map[string]any{"pattern": "beta", "mode": "count"}, []string{"grep", "beta", "--mode", "count"}, false},
		{"hashline_read", map[string]any{"path": "sub/b.go", "view": "outline"}, []string{"read", "sub/b.go", "--outline"}, false},
		{"hashline_read", map[string]any{"path": "sub/b.go", "symbol": "beta"}, []string{"read", "sub/b.go", "--symbol", "beta"}, false},
		{"hashline_read", map[string]any{"path": "sub/b.go", "symbol": "bta"}, []string{"read", "sub/b.go", "--symbol", "bta"}, true},
		{"hashline_read", map[string]any{"path": "a.txt", "view": "outline"}, []string{"read", "a.txt", "--outline"}, true},
		{"hashline_grep", map[string]any{"pattern": "^beta$", "mode": "symbols"}, []string{"grep", "^beta$", "--mode", "symbols"}, false},
		{"hashline_read", map[string]any{"path": "a.txt", "offset": 9}, []string{"read", "a.txt", "--offset", "9"}, true},
		{"hashline_read", map[string]any{"path": "missing.txt"}, []string{"read", "missing.txt"}, true},
	} {
		t.Run(strings.Join(tc.argv, " "), func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := verb(t, dir, "", tc.argv...)
			want := stdout
			if tc.fail {
				want = stderr
			}
			if res.IsError != tc.fail || (code != 0) != tc.fail {
				t.Fatalf("isError %v, verb exit %d", res.IsError, code)
			}
			if got := textOf(t, res); got != want {
				t.Fatalf("MCP text\n%q\nverb prints\n%q", got, want)
			}
		})
	}
}

func TestMCPStatus(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("LOCALAPPDATA", tmp)
	ws := t.TempDir()
	sub := filepath.Join(ws, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	status := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := run(append([]string{"mcp", "--status"}, args...), strings.NewReader(""), &out, &errb)
		return out.String(), errb.String(), code
	}
	folder, err := endpoint.UserFolder()
	if err != nil {
		t.Fatal(err)
	}

	out, _, code := status("--root", sub)
	want := fmt.Sprintf("roots: %s\neditors: %s\nserving: disk (no editor running hashline-ls holds %s in a workspace folder: open it in one, or work on the disk)\n", sub, folder, sub)
	if code != 0 || out != want {
		t.Fatalf("no editor: %d\n%s\nwant\n%s", code, out, want)
	}

	// An editor (the fake one, in this process) holds the folder above.
	reg, err := endpoint.Open()
	if err != nil {
		t.Fatal(err)
	}
	opts := lsptest.VSCode()
	opts.Endpoints, opts.SaveDocument = reg, true
	e := lsptest.New(t, opts)
	ws = e.Root()
	sub = e.Path("sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, code = status("--root", sub)
	wantTail := fmt.Sprintf(", workspace folder %s\nendpoint: %s (hashline-ls %s, bridge protocol 1)\nsaves: yes: the editor saves a bridged edit of a buffer without unsaved changes\n",
		ws, reg.Socket(os.Getpid()), commands.Version)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("serving: editor pid %d (hashline-ls %s, started ", os.Getpid(), commands.Version)) ||
		!strings.HasSuffix(out, wantTail) {
		t.Fatalf("an editor holds it: %d\n%s\nwant it to end with\n%s", code, out, wantTail)
	}
	out, _, code = status("--root", sub, "--no-editor")
	if code != 0 || !strings.HasSuffix(out, "serving: disk (--no-editor)\n") {
		t.Fatalf("--no-editor: %d\n%s", code, out)
	}
	_, errs, code := status("--root", sub, "--editor", "999999999")
	if code != 1 || !strings.Contains(errs, "ENDPOINT_NO_EDITOR: no editor with pid 999999999 runs hashline-ls") {
		t.Fatalf("--editor of no editor: %d %q", code, errs)
	}

	// An unsafe folder is not used: the disk serves, and says why.
	if runtime.GOOS == "windows" {
		t.Log("a folder is unsafe on Windows by its DACL, not its mode: endpoint's TestFolderRulesWindows covers it")
		return
	}
	if err := os.Chmod(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	out, _, code = status("--root", sub)
	if code != 0 || !strings.Contains(out, "serving: disk (ENDPOINT_FOLDER_UNSAFE: the endpoint folder "+folder+" has mode 0755") {
		t.Fatalf("unsafe folder: %d\n%s", code, out)
	}
	os.Chmod(folder, 0o700)
}

func TestMCPBadArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--root", filepath.Join(t.TempDir(), "missing")}, "INVALID_ARGUMENT: --root: "},
		{[]string{"extra"}, `INVALID_ARGUMENT: unexpected argument "extra"`},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"mcp"}, tc.args...), strings.NewReader(""), &out, &errb)
		if code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), tc.says) {
			t.Errorf("mcp %v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", tc.args, code, out.String(), errb.String(), tc.says)
		}
	}
}
