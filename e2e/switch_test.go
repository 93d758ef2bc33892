package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hashline-ls/internal/testenv"
)

// TestEditorStartsLater starts hashline-ls mcp with no editor running,
// then a real Neovim with the plugin over the same folder, then ends it:
// the call after the editor started is served by it, and says so once; a
// tag read on the disk still edits the file the editor holds unchanged
// and is refused, with the live tag, on the one with unsaved typing; the
// call after the editor went is served by the disk, and says so once.
func TestEditorStartsLater(t *testing.T) {
	nvim := testenv.Editor(t, "nvim")
	bin := buildServer(t)
	plugin, _ := filepath.Abs("../editors/neovim")
	testdata, _ := filepath.Abs("testdata/nvim_plugin")
	script, _ := filepath.Abs("testdata/codex_bridge.lua")
	base := t.TempDir()
	ws, tmpdir := filepath.Join(base, "ws"), filepath.Join(base, "tmp")
	for _, d := range []string{ws, tmpdir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"clean.py", "dirty.py"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(cleanPy), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, _ = filepath.EvalSymlinks(ws)

	var stderr strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cs, err := connectMCP(ctx, "e2e", bin, tmpdir, &stderr, "--root", ws)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	callText := func(tool string, args map[string]any) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
		if err != nil || len(res.Content) != 1 {
			t.Fatalf("%s %v: %v %+v\n%s", tool, args, err, res, stderr.String())
		}
		return res.Content[0].(*sdk.TextContent).Text, res.IsError
	}
	const started, gone = "from this call on, this session is served by the editor", "went away: from this call on, this session works on the disk"

	// On the disk: both files as saved.
	dirtyRead, _ := callText("hashline_read", map[string]any{"path": "dirty.py"})
	cleanRead, _ := callText("hashline_read", map[string]any{"path": "clean.py"})
	if strings.Contains(dirtyRead, "typed") || strings.Contains(dirtyRead+cleanRead, "editor") {
		t.Fatalf("before the editor started:\n%s\n%s", dirtyRead, cleanRead)
	}

	ed := startEditor(t, nvim, script, map[string]string{
		"HASHLINE_BIN": bin, "HASHLINE_ROOT": ws, "HASHLINE_PLUGIN": plugin, "HASHLINE_TESTDATA": testdata, "TMPDIR": tmpdir,
	}, base)
	ed.ready(t)

	// The editor serves the next call, which says so: clean.py's disk tag
	// is valid there, whose text is the same; dirty.py's is not.
	edit := func(name, read, line string) (string, bool) {
		tag, row := headerOf(name).FindStringSubmatch(read), returnRowRe.FindStringSubmatch(read)
		if tag == nil || row == nil {
			t.Fatalf("no tag or return line in %q", read)
		}
		return callText("hashline_edit", map[string]any{"path": name, "tag": tag[1], "ops": "PUT " + row[1] + ".=" + row[1] + ":\n+" + line + "\n"})
	}
	cleanEdit, refused := edit("clean.py", cleanRead, `    return f"hi {name}"`)
	if refused || !strings.Contains(cleanEdit, started) {
		ed.report(t, "the edit of clean.py after the editor started, with the tag read on the disk: %s\nmcp stderr:\n%s", cleanEdit, stderr.String())
	}
	t.Logf("the first call after the editor started answered:\n%s", cleanEdit)
	dirtyEdit, refused := edit("dirty.py", dirtyRead, `    return f"hey {name}"`)
	if !refused || !strings.HasPrefix(dirtyEdit, "EDIT_TAG_UNKNOWN: ") || !strings.Contains(dirtyEdit, "live tag: ") || strings.Contains(dirtyEdit, started) {
		ed.report(t, "the edit of dirty.py with the tag read on the disk, where the editor holds unsaved typing: %s", dirtyEdit)
	}
	t.Logf("the edit of dirty.py with its disk tag answered:\n%s", dirtyEdit)
	typed, _ := callText("hashline_read", map[string]any{"path": "dirty.py"})
	if !strings.Contains(typed, "1:# typed, unsaved\n") || strings.Contains(typed, started) {
		ed.report(t, "the read of dirty.py through the editor: %s", typed)
	}

	// The editor goes; the disk serves the next call, which says so.
	state := ed.finish(t)
	if got := state["clean.py"]; got.Text != strings.Replace(cleanPy, "hello", "hi", 1) || got.Modified {
		t.Errorf("clean.py's buffer when the editor ended: %+v", got)
	}
	after, _ := callText("hashline_read", map[string]any{"path": "clean.py"})
	if !strings.Contains(after, gone) || !strings.Contains(after, "2:    return f\"hi {name}\"\n") {
		t.Fatalf("the first call after the editor went: %s\nmcp stderr:\n%s", after, stderr.String())
	}
	again, _ := callText("hashline_read", map[string]any{"path": "dirty.py"})
	if strings.Contains(again, "editor") || strings.Contains(again, "typed") {
		t.Fatalf("the second call after the editor went: %s", again)
	}
	t.Logf("the first call after the editor went answered:\n%s", after)
}
