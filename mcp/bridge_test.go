package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hashline-ls/commands"
	"hashline-ls/endpoint"
	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
	"hashline-ls/lsp/lsptest"
	"hashline-ls/workspace"
)

// fakeEditor starts the fake editor publishing its endpoint, with files in
// its workspace folder.
func fakeEditor(t *testing.T, opts lsptest.Options, files map[string]string) (*lsptest.Editor, *endpoint.Registry) {
	t.Helper()
	e, reg := lsptest.Bridged(t, opts)
	for name, text := range files {
		e.WriteFile(name, text)
	}
	return e, reg
}

// bridgeTo chooses, as hashline-ls mcp does, the editor in reg that holds
// root, and returns a Bridge to it for that root.
func bridgeTo(t testing.TB, reg *endpoint.Registry, root string) *Bridge {
	t.Helper()
	list, err := reg.List()
	if err != nil {
		t.Fatal(err)
	}
	ch, err := endpoint.Choose(list, []string{root}, 0)
	if err != nil {
		t.Fatal(err)
	}
	roots, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	return NewBridge(reg, ch, roots, NewDisk(roots, nil), nil)
}

func vscodeSaving() lsptest.Options {
	o := lsptest.VSCode()
	o.SaveDocument = true
	return o
}

// warningsOf are the messages of a result's warnings of kind.
func warningsOf(c called, kind string) []string {
	var out []string
	ws, _ := c.result["warnings"].([]any)
	for _, w := range ws {
		if m, ok := w.(map[string]any); ok && m["kind"] == kind {
			out = append(out, m["message"].(string))
		}
	}
	return out
}

const greet = "def greet(name):\n    return f\"hello {name}\"\n"

// hiOps has greet's return line say hi.
const hiOps = "PUT 2.=2:\n+    return f\"hi {name}\""

// sayHi reads greet.py through cs and edits it with hiOps at the tag the
// read showed.
func sayHi(t *testing.T, cs *sdk.ClientSession) called {
	t.Helper()
	tag := tagOf(t, call(t, cs, "hashline_read", map[string]any{"path": "greet.py"}).text)
	return call(t, cs, "hashline_edit", map[string]any{"path": "greet.py", "tag": tag, "ops": hiOps})
}

// typedGreet is a fake editor holding greet.py with the user's unsaved
// typing, and an MCP client bridged to it.
func typedGreet(t *testing.T) (*lsptest.Editor, *endpoint.Registry, *sdk.ClientSession) {
	t.Helper()
	e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"greet.py": greet})
	e.Open("greet.py", 1)
	e.Type("greet.py", "hello", "hello there")
	e.Sync()
	return e, reg, connect(t, bridgeTo(t, reg, e.Root()))
}

func TestBridgeReadSeesUnsavedText(t *testing.T) {
	e, _, cs := typedGreet(t)
	r := call(t, cs, "hashline_read", map[string]any{"path": "greet.py"})
	if r.isError || !strings.Contains(r.text, "2:    return f\"hello there {name}\"\n") {
		t.Fatalf("the read through the editor: %q", r.text)
	}
	if got := tagOf(t, r.text); got != string(hashline.TagOf(e.BufferText("greet.py"))) {
		t.Fatalf("tag %s is not the buffer's", got)
	}
	if e.DiskText("greet.py") != greet {
		t.Fatal("a read changed the disk")
	}
}

func TestBridgeEditOfACleanBufferIsSaved(t *testing.T) {
	for _, tc := range []struct {
		name   string
		open   bool
		saving lsptest.SaveBehaviour
	}{
		{"open buffer, didSave before the answer", true, lsptest.SaveBehaviour{}},
		{"open buffer, didSave after the answer", true, lsptest.SaveBehaviour{AfterAnswer: true}},
		{"file the editor did not hold", false, lsptest.SaveBehaviour{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"greet.py": greet})
			e.SetSave(tc.saving)
			if tc.open {
				e.Open("greet.py", 1)
			}
			cs := connect(t, bridgeTo(t, reg, e.Root()))
			r := sayHi(t, cs)
			want := strings.Replace(greet, "hello", "hi", 1)
			if r.isError {
				t.Fatalf("edit: %s", r.text)
			}
			if n := len(e.Applies()); n != 1 {
				t.Fatalf("%d applyEdit requests, want 1", n)
			}
			if got := e.BufferText("greet.py"); got != want {
				t.Fatalf("buffer %q, want %q", got, want)
			}
			if saves := e.Saves(); len(saves) != 1 || e.PathOf(saves[0]) != e.Path("greet.py") {
				t.Fatalf("saveDocument requests: %q", saves)
			}
			if got := e.DiskText("greet.py"); got != want {
				t.Fatalf("disk %q, want %q", got, want)
			}
			if got := tagOf(t, r.text); got != string(hashline.TagOf(want)) {
				t.Fatalf("tag %s, want the saved text's %s", got, hashline.TagOf(want))
			}
			if ws := warningsOf(r, hashline.WarnUnsaved); len(ws) != 0 {
				t.Fatalf("unsaved warnings for a saved file: %q", ws)
			}
		})
	}
}

func TestBridgeFormatOnSave(t *testing.T) {
	e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"greet.py": greet})
	e.SetSave(lsptest.SaveBehaviour{Format: func(s string) string { return strings.ReplaceAll(s, "name", "who") }})
	e.Open("greet.py", 1)
	cs := connect(t, bridgeTo(t, reg, e.Root()))
	r := sayHi(t, cs)
	want := "def greet(who):\n    return f\"hi {who}\"\n"
	if got := e.DiskText("greet.py"); got != want || e.BufferText("greet.py") != want {
		t.Fatalf("disk %q, buffer %q, want both %q", got, e.BufferText("greet.py"), want)
	}
	if got := tagOf(t, r.text); got != string(hashline.TagOf(want)) {
		t.Fatalf("tag %s, want the formatted text's %s", got, hashline.TagOf(want))
	}
	if ws := warningsOf(r, hashline.WarnLanded); len(ws) != 1 || !strings.Contains(r.text, "warning: the text that landed differs from the edit at lines 1-2") {
		t.Fatalf("no drift warning for the format-on-save: %q", r.text)
	}
	// What the read after the save shows is what the edit's tag named.
	if read := call(t, cs, "hashline_read", map[string]any{"path": "greet.py"}); tagOf(t, read.text) != tagOf(t, r.text) {
		t.Fatalf("the read after the save: %q", read.text)
	}
}

func TestBridgeDirtyBufferIsNotSaved(t *testing.T) {
	e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"greet.py": greet})
	e.Open("greet.py", 1)
	e.Type("greet.py", "greet(name)", "greet(name, loud)")
	e.Sync()
	cs := connect(t, bridgeTo(t, reg, e.Root()))
	r := sayHi(t, cs)
	want := "def greet(name, loud):\n    return f\"hi {name}\"\n"
	if r.isError || e.BufferText("greet.py") != want {
		t.Fatalf("edit %s; buffer %q, want %q", r.text, e.BufferText("greet.py"), want)
	}
	if got := e.DiskText("greet.py"); got != greet {
		t.Fatalf("the disk changed to %q: a buffer holding the user's typing was saved", got)
	}
	if saves := e.Saves(); len(saves) != 0 {
		t.Fatalf("saveDocument was sent: %q", saves)
	}
	ws := warningsOf(r, hashline.WarnUnsaved)
	line := "warning: greet.py is not saved: its buffer held unsaved changes before this edit, which only the user may save; the edit is in the editor's buffer, and the disk keeps the old text until the file is saved there\n"
	if len(ws) != 1 || !strings.HasSuffix(r.text, line) {
		t.Fatalf("the result does not say it is unsaved in one line: %q", r.text)
	}
	if got := tagOf(t, r.text); got != string(hashline.TagOf(want)) {
		t.Fatalf("tag %s, want the buffer's", got)
	}
}

func TestBridgeEditorWithoutSaveDocument(t *testing.T) {
	e, reg := fakeEditor(t, lsptest.VSCode(), map[string]string{"greet.py": greet})
	e.Open("greet.py", 1)
	cs := connect(t, bridgeTo(t, reg, e.Root()))
	r := sayHi(t, cs)
	if r.isError || e.DiskText("greet.py") != greet || len(e.Saves()) != 0 {
		t.Fatalf("edit %s; disk %q; saves %q", r.text, e.DiskText("greet.py"), e.Saves())
	}
	if ws := warningsOf(r, hashline.WarnUnsaved); len(ws) != 1 || !strings.Contains(ws[0], "greet.py is not saved: the editor does not offer to save files for hashline-ls") {
		t.Fatalf("warnings: %q", ws)
	}
}

func TestBridgeSaveRefused(t *testing.T) {
	e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"greet.py": greet})
	e.SetSave(lsptest.SaveBehaviour{Refuse: "the file is read-only"})
	e.Open("greet.py", 1)
	cs := connect(t, bridgeTo(t, reg, e.Root()))
	r := sayHi(t, cs)
	if ws := warningsOf(r, hashline.WarnUnsaved); r.isError || len(ws) != 1 || !strings.Contains(ws[0], "the editor did not save it (the file is read-only)") {
		t.Fatalf("%s", r.text)
	}
}

// hiIn runs sayHi against a fake editor that saves, set up by set, with
// greet.py open and clean.
func hiIn(t *testing.T, set func(e *lsptest.Editor)) (*lsptest.Editor, *sdk.ClientSession, called) {
	t.Helper()
	e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"greet.py": greet})
	set(e)
	e.Open("greet.py", 1)
	cs := connect(t, bridgeTo(t, reg, e.Root()))
	return e, cs, sayHi(t, cs)
}

// The person types the moment the save is written: the disk holds what
// the edit left, the buffer that and the typing, and the answer says the
// file is saved (the disk is looked at, not only the buffer).
func TestBridgeTypingAfterTheSave(t *testing.T) {
	for _, tc := range []struct {
		name   string
		saving lsptest.SaveBehaviour
		disk   string
	}{
		{"typing after the write", lsptest.SaveBehaviour{}, strings.Replace(greet, "hello", "hi", 1)},
		{"a save participant's change, then typing", lsptest.SaveBehaviour{Format: func(s string) string { return strings.ReplaceAll(s, "name", "who") }},
			"def greet(who):\n    return f\"hi {who}\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.saving.TypeAfter = func(s string) string { return s + "# typed\n" }
			e, _, r := hiIn(t, func(e *lsptest.Editor) { e.SetSave(tc.saving) })
			if r.isError {
				t.Fatalf("edit: %s", r.text)
			}
			if got := e.DiskText("greet.py"); got != tc.disk {
				t.Fatalf("disk %q, want %q", got, tc.disk)
			}
			if got := e.BufferText("greet.py"); got != tc.disk+"# typed\n" {
				t.Fatalf("buffer %q", got)
			}
			if ws := warningsOf(r, hashline.WarnUnsaved); len(ws) != 0 {
				t.Fatalf("the disk holds the edit, and the answer says it is not saved: %q", ws)
			}
			if got := tagOf(t, r.text); got != string(hashline.TagOf(tc.disk)) {
				t.Fatalf("tag %s, want the saved text's %s", got, hashline.TagOf(tc.disk))
			}
		})
	}
}

// The editor saved other text than the edit left (a key typed as the save
// ran went into it) and says so: the answer passes its words on, names the
// text on disk, and does not call the file unsaved.
func TestBridgeSavedOtherText(t *testing.T) {
	const why = "a key typed as the save ran is in it"
	e, cs, r := hiIn(t, func(e *lsptest.Editor) {
		e.SetSave(lsptest.SaveBehaviour{Format: func(s string) string { return s + "# typed\n" }, Reason: why})
	})
	disk := strings.Replace(greet, "hello", "hi", 1) + "# typed\n"
	if r.isError || e.DiskText("greet.py") != disk {
		t.Fatalf("edit %s; disk %q", r.text, e.DiskText("greet.py"))
	}
	if ws := warningsOf(r, hashline.WarnUnsaved); len(ws) != 0 {
		t.Fatalf("the disk holds the edit, and the answer says it is not saved: %q", ws)
	}
	line := "warning: greet.py is saved with other text than the edit left (the editor says: " + why + "); the tag returned is of what the disk holds: read the file before editing it again\n"
	if !strings.Contains(r.text, line) {
		t.Fatalf("the answer does not pass the editor's words on:\n%s", r.text)
	}
	if got := tagOf(t, r.text); got != string(hashline.TagOf(disk)) {
		t.Fatalf("tag %s, want the disk's %s", got, hashline.TagOf(disk))
	}

	// The same words with the edit's text on disk: nothing to pass on.
	e.SetSave(lsptest.SaveBehaviour{Reason: why})
	tag := tagOf(t, call(t, cs, "hashline_read", map[string]any{"path": "greet.py"}).text)
	r = call(t, cs, "hashline_edit", map[string]any{"path": "greet.py", "tag": tag, "ops": "PUT 3.=3:\n+# kept"})
	if r.isError || strings.Contains(r.text, "warning:") {
		t.Fatalf("a save of the edit's own text: %s", r.text)
	}
}

// Typing that reaches the buffer as the edit lands is in what landed: the
// server cannot tell it from a formatter's change, and saves neither.
func TestBridgeTypingAsTheEditLandsIsNotSaved(t *testing.T) {
	e, _, r := hiIn(t, func(e *lsptest.Editor) {
		e.SetBehaviour(lsptest.ApplyBehaviour{Format: func(s string) string { return s + "# typed\n" }, FormatMerged: true})
	})
	landed := strings.Replace(greet, "hello", "hi", 1) + "# typed\n"
	if r.isError || e.BufferText("greet.py") != landed {
		t.Fatalf("edit %s; buffer %q", r.text, e.BufferText("greet.py"))
	}
	if got := e.DiskText("greet.py"); got != greet || len(e.Saves()) != 0 {
		t.Fatalf("disk %q, saves %q: typing the person never saved reached the disk", got, e.Saves())
	}
	if ws := warningsOf(r, hashline.WarnUnsaved); len(ws) != 1 || !strings.Contains(ws[0], "greet.py is not saved: its buffer changed as the edit landed, beyond the edit") {
		t.Fatalf("warnings: %q", ws)
	}
}

func TestBridgeWriteAndPatchAreSaved(t *testing.T) {
	e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"a.txt": "one\ntwo\n", "b.txt": "three\n"})
	e.Open("a.txt", 1)
	e.Open("b.txt", 1)
	e.Type("b.txt", "three", "THREE")
	e.Sync()
	cs := connect(t, bridgeTo(t, reg, e.Root()))

	w := call(t, cs, "hashline_write", map[string]any{"path": "new/c.txt", "content": "fresh\n"})
	if w.isError || len(e.Applies()) != 1 || e.DiskText("new/c.txt") != "fresh\n" || len(warningsOf(w, hashline.WarnUnsaved)) != 0 {
		t.Fatalf("write: %s; disk %q", w.text, e.DiskText("new/c.txt"))
	}
	call(t, cs, "hashline_read", map[string]any{"path": "a.txt", "anchors": "line"})
	call(t, cs, "hashline_read", map[string]any{"path": "b.txt", "anchors": "line"})
	two := "2:" + hashline.LineHash("two")
	p := call(t, cs, "hashline_patch", map[string]any{"patch": fmt.Sprintf("@@ a.txt\n= %s..%s\n~TWO\n@@ b.txt\n+ 1:%s\n~four\n", two, two, hashline.LineHash("THREE"))})
	if p.isError {
		t.Fatalf("patch: %s", p.text)
	}
	if got := e.DiskText("a.txt"); got != "one\nTWO\n" {
		t.Fatalf("a.txt, clean, was not saved: %q", got)
	}
	if got, buf := e.DiskText("b.txt"), e.BufferText("b.txt"); got != "three\n" || buf != "THREE\nfour\n" {
		t.Fatalf("b.txt, dirty: disk %q, buffer %q", got, buf)
	}
	if ws := warningsOf(p, hashline.WarnUnsaved); len(ws) != 1 || !strings.HasPrefix(ws[0], "b.txt is not saved: ") {
		t.Fatalf("patch warnings: %q", ws)
	}
}

func TestBridgeEditorGoesAway(t *testing.T) {
	e, reg, cs := typedGreet(t)
	r := call(t, cs, "hashline_read", map[string]any{"path": "greet.py"})
	tag := tagOf(t, r.text)

	e.Disconnect()
	e.WaitServe()
	r = call(t, cs, "hashline_edit", map[string]any{"path": "greet.py", "tag": tag, "ops": hiOps})
	if !r.isError || r.code() != string(hashline.CodeTagUnknown) {
		t.Fatalf("an edit with the editor's tag on the disk: %s", r.text)
	}
	gone := warningsOf(r, hashline.WarnEditor)
	if len(gone) != 1 || !strings.Contains(r.text, "went away: from this call on, this session works on the disk") {
		t.Fatalf("no warning that the editor went away: %q", r.text)
	}
	if got := e.DiskText("greet.py"); got != greet {
		t.Fatalf("the disk changed: %q", got)
	}
	// From here on the disk: the read sees the saved text, the edit
	// lands there, and nothing warns again.
	r = call(t, cs, "hashline_read", map[string]any{"path": "greet.py"})
	if strings.Contains(r.text, "there") || len(warningsOf(r, hashline.WarnEditor)) != 0 {
		t.Fatalf("the read on the disk: %q", r.text)
	}
	r = call(t, cs, "hashline_edit", map[string]any{"path": "greet.py", "tag": tagOf(t, r.text), "ops": hiOps})
	if want := strings.Replace(greet, "hello", "hi", 1); r.isError || e.DiskText("greet.py") != want {
		t.Fatalf("edit on the disk: %s", r.text)
	}
	if list, _ := reg.List(); len(list) != 0 {
		t.Fatalf("the editor's entry outlived it: %+v", list)
	}
}

func TestBridgeConfinesToTheMCPRoots(t *testing.T) {
	e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"sub/in.txt": "in\n", "out.txt": "out\n"})
	// The editor's folder is wider than the MCP process's root.
	cs := connect(t, bridgeTo(t, reg, e.Path("sub")))
	tag := string(hashline.TagOf("out\n"))
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"hashline_read", map[string]any{"path": "../out.txt"}},
		{"hashline_read", map[string]any{"path": e.Path("out.txt")}},
		{"hashline_write", map[string]any{"path": "../new.txt", "content": "x\n"}},
		{"hashline_edit", map[string]any{"path": "../out.txt", "tag": tag, "ops": "CUT 1.=1"}},
		{"hashline_edit", map[string]any{"path": "in.txt", "tag": string(hashline.TagOf("in\n")), "ops": "MV ../moved.txt"}},
		{"hashline_patch", map[string]any{"patch": "@@ ../out.txt\n- 1:" + hashline.LineHash("out") + "\n"}},
		{"hashline_grep", map[string]any{"pattern": "out", "path": ".."}},
	} {
		r := call(t, cs, tc.tool, tc.args)
		if !r.isError || r.code() != string(hashline.CodePathOutsideWorkspace) {
			t.Errorf("%s %v: %s", tc.tool, tc.args, r.text)
		}
	}
	if len(e.Applies()) != 0 || e.DiskText("out.txt") != "out\n" || e.Exists("new.txt") || e.Exists("moved.txt") {
		t.Fatal("a refused call changed something")
	}
	// Inside the root the editor serves, and headers read as on the disk:
	// relative to the root.
	e.Open("sub/in.txt", 1)
	e.Type("sub/in.txt", "in", "typed in")
	e.Sync()
	if r := call(t, cs, "hashline_read", map[string]any{"path": "in.txt"}); r.isError || r.text != "[in.txt#"+string(hashline.TagOf("typed in\n"))+"]\n1:typed in\n" {
		t.Fatalf("read inside the root: %q", r.text)
	}
}

func TestBridgeWarnsWhichEditorServes(t *testing.T) {
	e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"a.txt": "a\n"})
	b := bridgeTo(t, reg, e.Root())
	b.choice.Others = []endpoint.Info{{PID: 4242, Folders: []string{filepath.Dir(e.Root())}, Started: time.Now().Add(-time.Hour)}}
	cs := connect(t, b)
	r := call(t, cs, "hashline_read", map[string]any{"path": "a.txt"})
	w := warningsOf(r, hashline.WarnEditor)
	if len(w) != 1 || !strings.Contains(w[0], fmt.Sprintf("served by the editor with pid %d", os.Getpid())) || !strings.Contains(w[0], "also holding it: pid 4242") ||
		!strings.HasSuffix(r.text, "--editor PID\n") {
		t.Fatalf("first result: %q", r.text)
	}
	if r := call(t, cs, "hashline_read", map[string]any{"path": "a.txt"}); len(warningsOf(r, hashline.WarnEditor)) != 0 {
		t.Fatalf("the second result warns again: %q", r.text)
	}
}

func TestBridgeStaleEntryIsRemoved(t *testing.T) {
	reg := lsptest.Registry(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644)
	dead := testenv.Program(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	pid := dead.Process.Pid
	info, _ := json.Marshal(endpoint.Info{PID: pid, Folders: []string{root}, Version: "0", Started: time.Now()})
	entry := map[string][]byte{fmt.Sprintf("%d.json", pid): info}
	if runtime.GOOS != "windows" { // there the endpoint is a named pipe, not a file
		entry[fmt.Sprintf("%d.sock", pid)] = nil
	}
	for name, body := range entry {
		if err := os.WriteFile(filepath.Join(reg.Dir(), name), body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	roots, _ := workspace.New(root)
	b := NewBridge(reg, endpoint.Choice{Serving: endpoint.Info{PID: pid, Folders: []string{root}}, Folder: root}, roots, NewDisk(roots, nil), nil)
	cs := connect(t, b)
	r := call(t, cs, "hashline_read", map[string]any{"path": "a.txt"})
	if w := warningsOf(r, hashline.WarnEditor); r.isError || len(w) != 1 || !strings.Contains(w[0], string(endpoint.CodeStale)) || !strings.Contains(w[0], "this session works on the disk") {
		t.Fatalf("read with a stale entry: %q", r.text)
	}
	if ents, _ := os.ReadDir(reg.Dir()); len(ents) != 0 {
		t.Fatalf("the stale entry is still there: %v", ents)
	}
}

// An edit the editor goes away in the middle of may have landed: it is not
// run again on the disk, and the model is told to read first.
func TestBridgeEditorGoesAwayMidEdit(t *testing.T) {
	e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"greet.py": greet})
	e.Open("greet.py", 1)
	cs := connect(t, bridgeTo(t, reg, e.Root()))
	tag := tagOf(t, call(t, cs, "hashline_read", map[string]any{"path": "greet.py"}).text)
	// The editor answers applied and then never reports the text: the
	// server waits for it when the editor goes away.
	e.SetBehaviour(lsptest.ApplyBehaviour{SkipAll: true})
	done := make(chan *sdk.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "hashline_edit",
			Arguments: map[string]any{"path": "greet.py", "tag": tag, "ops": hiOps}})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	e.AwaitApply()
	e.Disconnect()
	res := <-done
	if res == nil {
		t.FailNow()
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if !res.IsError || !strings.HasPrefix(text, "TOOL_FAILED: the editor went away while it ran hashline.edit, which may have changed the file: read it before doing anything else") ||
		!strings.Contains(text, "warning: the editor with pid ") {
		t.Fatalf("the cut-off edit: %q", text)
	}
	if got := e.DiskText("greet.py"); got != greet {
		t.Fatalf("the edit was run again on the disk: %q", got)
	}
}

// A call cancelled while the editor works on it is cancelled in the
// editor's server too ($/cancelRequest with its id), and what the server
// answers, here that the edit was applied, is still the result.
func TestBridgeCancel(t *testing.T) {
	e, reg := fakeEditor(t, vscodeSaving(), map[string]string{"greet.py": greet})
	e.Open("greet.py", 1)
	sess, err := bridgeTo(t, reg, e.Root()).Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	read, err := sess.Run(context.Background(), commands.Call{Command: commands.CmdRead, Args: json.RawMessage(`{"path":"greet.py"}`)})
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Tag string }
	raw, _ := resultJSON(read)
	json.Unmarshal(raw, &r)
	e.SetBehaviour(lsptest.ApplyBehaviour{SkipAll: true})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		e.AwaitApply()
		cancel()
	}()
	args, _ := json.Marshal(map[string]any{"path": "greet.py", "tag": r.Tag, "ops": hiOps})
	res, err := sess.Run(ctx, commands.Call{Command: commands.CmdEdit, Args: args})
	if err != nil {
		t.Fatalf("the cancelled edit: %v", err)
	}
	// As JSON spells it: a path's backslashes are escaped.
	want, _ := json.Marshal("the editor applied the edit to " + e.Path("greet.py") + ", but the wait for its text was cancelled")
	if raw, _ := resultJSON(res); !strings.Contains(string(raw), strings.Trim(string(want), `"`)) {
		t.Fatalf("the cancelled edit's result: %s", raw)
	}
}
