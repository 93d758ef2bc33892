package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/lsp/lsptest"
)

// outsideDir is a folder outside the editor's workspace, symlinks resolved.
func outsideDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// outsideFile is a file name holding text in a fresh folder outside the
// workspace: the folder and the file's path.
func outsideFile(t *testing.T, name, text string) (dir, path string) {
	t.Helper()
	dir = outsideDir(t)
	path = filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	return names
}

// Every way of naming a file outside the workspace is refused before
// anything is read or written.
func TestPathsOutsideWorkspace(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	out, secret := outsideFile(t, "secret.txt", "secret\n")
	if err := os.Symlink(out, e.Path("link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, e.Path("filelink")); err != nil {
		t.Fatal(err)
	}
	up, err := filepath.Rel(e.Root(), secret)
	if err != nil {
		t.Fatal(err)
	}
	upNew, _ := filepath.Rel(e.Root(), filepath.Join(out, "new.txt"))

	existing := []string{up, secret, lsptest.URI(secret), "link/secret.txt", "filelink", "sub/../" + up}
	fresh := []string{upNew, filepath.Join(out, "new.txt"), lsptest.URI(filepath.Join(out, "new.txt")), "link/new.txt"}
	tag := tagOf("secret\n")
	for _, p := range existing {
		e.Fail(commands.CmdRead, map[string]any{"path": p}, hashline.CodePathOutsideWorkspace)
		e.Fail(commands.CmdEdit, map[string]any{"path": p, "tag": tag, "ops": "PUT 1.=1:\n+pwned"}, hashline.CodePathOutsideWorkspace)
		e.Fail(commands.CmdWrite, map[string]any{"path": p, "content": "pwned\n"}, hashline.CodePathOutsideWorkspace)
		e.Fail(commands.CmdGrep, map[string]any{"pattern": "secret", "path": p}, hashline.CodePathOutsideWorkspace)
	}
	for _, p := range fresh {
		e.Fail(commands.CmdWrite, map[string]any{"path": p, "content": "pwned\n"}, hashline.CodePathOutsideWorkspace)
	}
	// MV may not carry a workspace file out either.
	e.WriteFile("in.txt", "inside\n")
	r := e.Read("in.txt")
	e.Fail(commands.CmdEdit, map[string]any{"path": "in.txt", "tag": r.Tag, "ops": "MV " + upNew}, hashline.CodePathOutsideWorkspace)
	e.Fail(commands.CmdEdit, map[string]any{"path": "in.txt", "tag": r.Tag, "ops": "MV link/new.txt"}, hashline.CodePathOutsideWorkspace)

	if b, err := os.ReadFile(secret); err != nil || string(b) != "secret\n" {
		t.Fatalf("outside file = %q, %v; want it untouched", b, err)
	}
	if names := dirNames(t, out); !slices.Equal(names, []string{"secret.txt"}) {
		t.Fatalf("outside folder holds %v, want only secret.txt", names)
	}
	if e.DiskText("in.txt") != "inside\n" || len(e.Applies()) != 0 {
		t.Fatalf("a refused call changed something")
	}
	// A workspace-wide grep does not follow the links out.
	g := e.OK(commands.CmdGrep, map[string]any{"pattern": "secret"})
	if len(g.Matches) != 0 {
		t.Fatalf("grep of the workspace found %+v through a link", g.Matches)
	}
}

// grep searches what the editor holds, unsaved text included, and reports
// progress under the client's token, or under one it asks the client to
// create.
func TestGrepOpenBufferAndProgress(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	e.WriteFile("g1.txt", "needle on disk\n")
	e.WriteFile("g2.txt", "nothing\n")
	e.Open("g2.txt", 1)
	e.Type("g2.txt", "nothing", "needle typed")

	res, err := e.ExecParams(map[string]any{"command": commands.CmdGrep, "arguments": []any{map[string]any{"pattern": "needle"}}, "workDoneToken": "tok-1"})
	if err != nil || !res.OK {
		t.Fatalf("grep: %v %s", err, res.Raw)
	}
	want := []commands.GrepMatch{{Path: "g1.txt", Line: 1, Text: "needle on disk"}, {Path: "g2.txt", Line: 1, Text: "needle typed"}}
	if !slices.Equal(res.Matches, want) {
		t.Fatalf("matches = %+v, want %+v", res.Matches, want)
	}
	if res.Tags["g2.txt"] != tagOf("needle typed\n") || res.Tags["g1.txt"] != tagOf("needle on disk\n") {
		t.Fatalf("tags = %v, want the buffer's for g2.txt", res.Tags)
	}
	// The grep counts as a read of the lines it showed: an edit with its
	// tag lands in the buffer.
	ed := e.Edit("g2.txt", res.Tags["g2.txt"], "PUT 1.=1:\n+needle edited")
	if e.BufferText("g2.txt") != "needle edited\n" || ed.Tag != tagOf("needle edited\n") {
		t.Fatalf("edit after grep: buffer %q result %s", e.BufferText("g2.txt"), ed.Raw)
	}

	kinds := progressKinds(t, e, `"tok-1"`)
	if len(kinds) < 2 || kinds[0] != "begin" || kinds[len(kinds)-1] != "end" {
		t.Fatalf("progress under tok-1 = %v, want begin ... end", kinds)
	}
	if created := len(e.CreatedTokens()); created != 0 {
		t.Fatalf("the server created %d tokens although the client sent one", created)
	}

	// Without a token, the server asks for one.
	if _, err := e.Exec(commands.CmdGrep, map[string]any{"pattern": "needle"}); err != nil {
		t.Fatal(err)
	}
	tokens := e.CreatedTokens()
	if len(tokens) != 1 {
		t.Fatalf("tokens created = %s, want one", tokens)
	}
	if kinds := progressKinds(t, e, string(tokens[0])); len(kinds) < 2 || kinds[0] != "begin" || kinds[len(kinds)-1] != "end" {
		t.Fatalf("progress under %s = %v, want begin ... end", tokens[0], kinds)
	}
}

// A client without window.workDoneProgress and without a token gets no
// progress at all.
func TestGrepWithoutProgress(t *testing.T) {
	opts := lsptest.VSCode()
	opts.WorkDoneProgress = false
	e := lsptest.New(t, opts)
	e.WriteFile("g.txt", "needle\n")
	res := e.OK(commands.CmdGrep, map[string]any{"pattern": "needle"})
	if len(res.Matches) != 1 {
		t.Fatalf("matches = %+v", res.Matches)
	}
	if progress, created := e.Progress(), e.CreatedTokens(); len(progress) != 0 || len(created) != 0 {
		t.Fatalf("progress %s, tokens %s: want none", progress, created)
	}
}

// progressKinds lists the kinds of the $/progress notifications under token.
func progressKinds(t *testing.T, e *lsptest.Editor, token string) []string {
	t.Helper()
	var kinds []string
	for _, raw := range e.Progress() {
		var p struct {
			Token json.RawMessage `json:"token"`
			Value struct {
				Kind  string `json:"kind"`
				Title string `json:"title"`
			} `json:"value"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatalf("progress %s: %v", raw, err)
		}
		if string(p.Token) != token {
			continue
		}
		if p.Value.Kind == "begin" && p.Value.Title != commands.CmdGrep {
			t.Fatalf("progress title = %q, want %s", p.Value.Title, commands.CmdGrep)
		}
		kinds = append(kinds, p.Value.Kind)
	}
	return kinds
}

// Workspace folders added and removed move what paths may name, and drop
// what the sessions remember; extraRoots in the settings open a folder
// outside the workspace.
func TestWorkspaceFoldersAndConfiguration(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	other, x := outsideFile(t, "x.txt", "other\n")
	e.Fail(commands.CmdRead, map[string]any{"path": x}, hashline.CodePathOutsideWorkspace)

	// Two sessions read a.txt, then the user changes a line both edit.
	e.WriteFile("a.txt", "1\n2\n3\n")
	e.Open("a.txt", 1)
	readA := e.OK(commands.CmdRead, map[string]any{"path": "a.txt", "session": "a"})
	e.OK(commands.CmdRead, map[string]any{"path": "a.txt", "session": "b"})
	e.Type("a.txt", "2", "two")
	stale := map[string]any{"path": "a.txt", "tag": readA.Tag, "ops": "PUT 2.=2:\n+TWO"}
	stale["session"] = "a"
	e.Fail(commands.CmdEdit, stale, hashline.CodeTagMismatch)

	folders := func(added, removed []string) {
		ev := map[string]any{"added": []any{}, "removed": []any{}}
		for _, d := range added {
			ev["added"] = append(ev["added"].([]any), map[string]any{"uri": lsptest.URI(d), "name": filepath.Base(d)})
		}
		for _, d := range removed {
			ev["removed"] = append(ev["removed"].([]any), map[string]any{"uri": lsptest.URI(d), "name": filepath.Base(d)})
		}
		e.Notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": ev})
	}
	folders([]string{other}, nil)
	if r := e.OK(commands.CmdRead, map[string]any{"path": x}); r.Tag != tagOf("other\n") || r.Path != "x.txt" {
		t.Fatalf("read in the added folder = %s", r.Raw)
	}
	// Session b's read was dropped with the change: its tag is unknown now,
	// where session a got a mismatch against what it had read.
	stale["session"] = "b"
	e.Fail(commands.CmdEdit, stale, hashline.CodeTagUnknown)
	// The first folder still works.
	if r := e.Read("a.txt"); r.Tag != tagOf("1\ntwo\n3\n") {
		t.Fatalf("read in the first folder = %s", r.Raw)
	}
	folders(nil, []string{other})
	e.Fail(commands.CmdRead, map[string]any{"path": x}, hashline.CodePathOutsideWorkspace)

	extra, y := outsideFile(t, "y.txt", "extra\n")
	e.Fail(commands.CmdRead, map[string]any{"path": y}, hashline.CodePathOutsideWorkspace)
	for _, settings := range []any{
		map[string]any{"hashline": map[string]any{"extraRoots": []string{extra}}},
		map[string]any{"extraRoots": []string{extra}},
	} {
		e.Notify("workspace/didChangeConfiguration", map[string]any{"settings": settings})
		if r := e.OK(commands.CmdRead, map[string]any{"path": y}); r.Tag != tagOf("extra\n") {
			t.Fatalf("read in the extra root = %s", r.Raw)
		}
		e.Notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"hashline": map[string]any{"extraRoots": []string{}}}})
		e.Fail(commands.CmdRead, map[string]any{"path": y}, hashline.CodePathOutsideWorkspace)
	}
	// Settings that are not an object change nothing.
	e.Notify("workspace/didChangeConfiguration", map[string]any{"settings": "nonsense"})
	if r := e.Read("a.txt"); r.Tag != tagOf("1\ntwo\n3\n") {
		t.Fatalf("read after bad settings = %s", r.Raw)
	}
}
