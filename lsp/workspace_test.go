package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
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
	e := newEditor(t, vscodeOptions())
	out := outsideDir(t)
	secret := filepath.Join(out, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, e.path("link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, e.path("filelink")); err != nil {
		t.Fatal(err)
	}
	up, err := filepath.Rel(e.root, secret)
	if err != nil {
		t.Fatal(err)
	}
	upNew, _ := filepath.Rel(e.root, filepath.Join(out, "new.txt"))

	existing := []string{up, secret, uriOf(secret), "link/secret.txt", "filelink", "sub/../" + up}
	fresh := []string{upNew, filepath.Join(out, "new.txt"), uriOf(filepath.Join(out, "new.txt")), "link/new.txt"}
	tag := tagOf("secret\n")
	for _, p := range existing {
		e.fail(commands.CmdRead, map[string]any{"path": p}, hashline.CodePathOutsideWorkspace)
		e.fail(commands.CmdEdit, map[string]any{"path": p, "tag": tag, "ops": "PUT 1.=1:\n+pwned"}, hashline.CodePathOutsideWorkspace)
		e.fail(commands.CmdWrite, map[string]any{"path": p, "content": "pwned\n"}, hashline.CodePathOutsideWorkspace)
		e.fail(commands.CmdGrep, map[string]any{"pattern": "secret", "path": p}, hashline.CodePathOutsideWorkspace)
	}
	for _, p := range fresh {
		e.fail(commands.CmdWrite, map[string]any{"path": p, "content": "pwned\n"}, hashline.CodePathOutsideWorkspace)
	}
	// MV may not carry a workspace file out either.
	e.writeFile("in.txt", "inside\n")
	r := e.read("in.txt")
	e.fail(commands.CmdEdit, map[string]any{"path": "in.txt", "tag": r.Tag, "ops": "MV " + upNew}, hashline.CodePathOutsideWorkspace)
	e.fail(commands.CmdEdit, map[string]any{"path": "in.txt", "tag": r.Tag, "ops": "MV link/new.txt"}, hashline.CodePathOutsideWorkspace)

	if b, err := os.ReadFile(secret); err != nil || string(b) != "secret\n" {
		t.Fatalf("outside file = %q, %v; want it untouched", b, err)
	}
	if names := dirNames(t, out); !slices.Equal(names, []string{"secret.txt"}) {
		t.Fatalf("outside folder holds %v, want only secret.txt", names)
	}
	if e.diskText("in.txt") != "inside\n" || len(e.appliesSeen()) != 0 {
		t.Fatalf("a refused call changed something")
	}
	// A workspace-wide grep does not follow the links out.
	g := e.ok(commands.CmdGrep, map[string]any{"pattern": "secret"})
	if len(g.Matches) != 0 {
		t.Fatalf("grep of the workspace found %+v through a link", g.Matches)
	}
}

// grep searches what the editor holds, unsaved text included, and reports
// progress under the client's token, or under one it asks the client to
// create.
func TestGrepOpenBufferAndProgress(t *testing.T) {
	e := newEditor(t, vscodeOptions())
	e.writeFile("g1.txt", "needle on disk\n")
	e.writeFile("g2.txt", "nothing\n")
	e.open("g2.txt", 1)
	e.typeReplace("g2.txt", "nothing", "needle typed")

	res, err := e.execParams(map[string]any{"command": commands.CmdGrep, "arguments": []any{map[string]any{"pattern": "needle"}}, "workDoneToken": "tok-1"})
	if err != nil || !res.OK {
		t.Fatalf("grep: %v %s", err, res.raw)
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
	ed := e.edit("g2.txt", res.Tags["g2.txt"], "PUT 1.=1:\n+needle edited")
	if e.bufferText("g2.txt") != "needle edited\n" || ed.Tag != tagOf("needle edited\n") {
		t.Fatalf("edit after grep: buffer %q result %s", e.bufferText("g2.txt"), ed.raw)
	}

	kinds := progressKinds(t, e, `"tok-1"`)
	if len(kinds) < 2 || kinds[0] != "begin" || kinds[len(kinds)-1] != "end" {
		t.Fatalf("progress under tok-1 = %v, want begin ... end", kinds)
	}
	e.mu.Lock()
	created := len(e.created)
	e.mu.Unlock()
	if created != 0 {
		t.Fatalf("the server created %d tokens although the client sent one", created)
	}

	// Without a token, the server asks for one.
	if _, err := e.exec(commands.CmdGrep, map[string]any{"pattern": "needle"}); err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	tokens := append([]json.RawMessage(nil), e.created...)
	e.mu.Unlock()
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
	opts := vscodeOptions()
	opts.workDoneProgress = false
	e := newEditor(t, opts)
	e.writeFile("g.txt", "needle\n")
	res := e.ok(commands.CmdGrep, map[string]any{"pattern": "needle"})
	if len(res.Matches) != 1 {
		t.Fatalf("matches = %+v", res.Matches)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.progress) != 0 || len(e.created) != 0 {
		t.Fatalf("progress %s, tokens %s: want none", e.progress, e.created)
	}
}

// progressKinds lists the kinds of the $/progress notifications under token.
func progressKinds(t *testing.T, e *editor, token string) []string {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	var kinds []string
	for _, raw := range e.progress {
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
	e := newEditor(t, vscodeOptions())
	other := outsideDir(t)
	x := filepath.Join(other, "x.txt")
	if err := os.WriteFile(x, []byte("other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.fail(commands.CmdRead, map[string]any{"path": x}, hashline.CodePathOutsideWorkspace)

	// Two sessions read a.txt, then the user changes a line both edit.
	e.writeFile("a.txt", "1\n2\n3\n")
	e.open("a.txt", 1)
	readA := e.ok(commands.CmdRead, map[string]any{"path": "a.txt", "session": "a"})
	e.ok(commands.CmdRead, map[string]any{"path": "a.txt", "session": "b"})
	e.typeReplace("a.txt", "2", "two")
	stale := map[string]any{"path": "a.txt", "tag": readA.Tag, "ops": "PUT 2.=2:\n+TWO"}
	stale["session"] = "a"
	e.fail(commands.CmdEdit, stale, hashline.CodeTagMismatch)

	folders := func(added, removed []string) {
		ev := map[string]any{"added": []any{}, "removed": []any{}}
		for _, d := range added {
			ev["added"] = append(ev["added"].([]any), map[string]any{"uri": uriOf(d), "name": filepath.Base(d)})
		}
		for _, d := range removed {
			ev["removed"] = append(ev["removed"].([]any), map[string]any{"uri": uriOf(d), "name": filepath.Base(d)})
		}
		e.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": ev})
	}
	folders([]string{other}, nil)
	if r := e.ok(commands.CmdRead, map[string]any{"path": x}); r.Tag != tagOf("other\n") || r.Path != "x.txt" {
		t.Fatalf("read in the added folder = %s", r.raw)
	}
	// Session b's read was dropped with the change: its tag is unknown now,
	// where session a got a mismatch against what it had read.
	stale["session"] = "b"
	e.fail(commands.CmdEdit, stale, hashline.CodeTagUnknown)
	// The first folder still works.
	if r := e.read("a.txt"); r.Tag != tagOf("1\ntwo\n3\n") {
		t.Fatalf("read in the first folder = %s", r.raw)
	}
	folders(nil, []string{other})
	e.fail(commands.CmdRead, map[string]any{"path": x}, hashline.CodePathOutsideWorkspace)

	extra := outsideDir(t)
	y := filepath.Join(extra, "y.txt")
	if err := os.WriteFile(y, []byte("extra\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.fail(commands.CmdRead, map[string]any{"path": y}, hashline.CodePathOutsideWorkspace)
	for _, settings := range []any{
		map[string]any{"hashline": map[string]any{"extraRoots": []string{extra}}},
		map[string]any{"extraRoots": []string{extra}},
	} {
		e.notify("workspace/didChangeConfiguration", map[string]any{"settings": settings})
		if r := e.ok(commands.CmdRead, map[string]any{"path": y}); r.Tag != tagOf("extra\n") {
			t.Fatalf("read in the extra root = %s", r.raw)
		}
		e.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"hashline": map[string]any{"extraRoots": []string{}}}})
		e.fail(commands.CmdRead, map[string]any{"path": y}, hashline.CodePathOutsideWorkspace)
	}
	// Settings that are not an object change nothing.
	e.notify("workspace/didChangeConfiguration", map[string]any{"settings": "nonsense"})
	if r := e.read("a.txt"); r.Tag != tagOf("1\ntwo\n3\n") {
		t.Fatalf("read after bad settings = %s", r.raw)
	}
}
