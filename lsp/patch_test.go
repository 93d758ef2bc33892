package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
)

// patchResult is hashline.patch's result, or its error.
type patchResult struct {
	OK       bool                  `json:"ok"`
	Files    []commands.PatchFile  `json:"files"`
	Warnings []hashline.Warning    `json:"warnings"`
	Error    *commands.ErrorObject `json:"error"`
}

func (e *editor) patch(text string) (patchResult, string) {
	e.t.Helper()
	r, err := e.exec(commands.CmdPatch, map[string]any{"patch": text})
	if err != nil {
		e.t.Fatalf("patch: %v", err)
	}
	var p patchResult
	if err := json.Unmarshal([]byte(r.raw), &p); err != nil {
		e.t.Fatalf("patch result %s: %v", r.raw, err)
	}
	return p, r.raw
}

// lineAnchors reads rel with per-line anchors and returns LINE:HH by line.
func (e *editor) lineAnchors(rel string) map[int]string {
	e.t.Helper()
	r := e.ok(commands.CmdRead, map[string]any{"path": rel, "anchors": "line"})
	out := map[int]string{}
	rows := strings.Split(strings.TrimSuffix(r.Content, "\n"), "\n")
	for _, row := range rows[1:] {
		a, _, _ := strings.Cut(row, "|")
		var n int
		if _, err := fmt.Sscanf(a, "%d:", &n); err != nil {
			e.t.Fatalf("row %q is not N:HH|text", row)
		}
		out[n] = a
	}
	return out
}

// A clean patch of two open files lands in both buffers through one
// applyEdit, and its tags are the buffers' tags.
func TestPatchTwoBuffersOneApplyEdit(t *testing.T) {
	e := newEditor(t, vscodeOptions())
	e.writeFile("a.py", "def greet(name):\n    return f\"hello {name}\"\n")
	e.writeFile("src/b.rs", "fn main() {\n    run();\n}\n")
	e.open("a.py", 1)
	e.open("src/b.rs", 4)
	// Unsaved typing: the patch is proven against the buffer, not the disk.
	e.typeReplace("src/b.rs", "run", "go")
	a := e.lineAnchors("a.py")
	b := e.lineAnchors("src/b.rs")
	va, vb := e.bufferVersion("a.py"), e.bufferVersion("src/b.rs")

	res, raw := e.patch("@@ a.py\n= " + a[2] + "\n~    return f\"hi {name}\"\n@@ src/b.rs\n< " + b[2] + "\n~    setup();\n")
	if !res.OK {
		t.Fatalf("patch = %s", raw)
	}
	wantA, wantB := "def greet(name):\n    return f\"hi {name}\"\n", "fn main() {\n    setup();\n    go();\n}\n"
	if got := e.bufferText("a.py"); got != wantA {
		t.Fatalf("a.py buffer = %q, want %q", got, wantA)
	}
	if got := e.bufferText("src/b.rs"); got != wantB {
		t.Fatalf("src/b.rs buffer = %q, want %q", got, wantB)
	}
	if len(res.Files) != 2 {
		t.Fatalf("files = %+v", res.Files)
	}
	for i, f := range []struct{ path, text string }{{"a.py", wantA}, {"src/b.rs", wantB}} {
		tag := tagOf(e.bufferText(f.path))
		if res.Files[i] != (commands.PatchFile{Path: f.path, Tag: tag, Header: "[" + f.path + "#" + tag + "]"}) || tag != tagOf(f.text) {
			t.Fatalf("files[%d] = %+v, want %s with the buffer's tag %s", i, res.Files[i], f.path, tag)
		}
	}
	applies := e.appliesSeen()
	if len(applies) != 1 {
		t.Fatalf("applyEdit sent %d times, want once for both files", len(applies))
	}
	versions := map[string]int32{}
	for _, dc := range applies[0].Edit.DocumentChanges {
		v, err := dc.version()
		if err != nil || v == nil {
			t.Fatalf("document change %+v: version %v %v", dc, v, err)
		}
		versions[pathOf(t, dc.TextDocument.URI)] = *v
	}
	if len(versions) != 2 || versions[e.path("a.py")] != va || versions[e.path("src/b.rs")] != vb {
		t.Fatalf("versions sent = %v, want a.py %d and src/b.rs %d", versions, va, vb)
	}
	// The disk is the editor's business: nothing was saved.
	if e.diskText("a.py") != "def greet(name):\n    return f\"hello {name}\"\n" || e.diskText("src/b.rs") != "fn main() {\n    run();\n}\n" {
		t.Fatal("the patch wrote the disk under open buffers")
	}
	// The returned tag edits the buffer at once.
	e.edit("a.py", res.Files[0].Tag, "PUT >$:\n+greet('x')")
	if got := e.bufferText("a.py"); got != wantA+"greet('x')\n" {
		t.Fatalf("follow-up edit: %q", got)
	}
}

// A stale anchor in one of two files: the editor is never asked to apply
// anything.
func TestPatchStaleSendsNoApplyEdit(t *testing.T) {
	e := newEditor(t, vscodeOptions())
	e.writeFile("a.txt", "one\ntwo\n")
	e.writeFile("b.txt", "alpha\nbeta\n")
	e.open("a.txt", 1)
	e.open("b.txt", 1)
	a := e.lineAnchors("a.txt")
	b := e.lineAnchors("b.txt")
	e.typeReplace("b.txt", "beta", "BETA")

	res, raw := e.patch("@@ a.txt\n= " + a[1] + "\n~ONE\n@@ b.txt\n= " + b[2] + "\n~Beta\n")
	if res.OK || res.Error == nil || res.Error.Code != hashline.CodeTagMismatch {
		t.Fatalf("patch = %s, want EDIT_TAG_MISMATCH", raw)
	}
	if ps := res.Error.Details.Problems; len(ps) != 1 || ps[0].Path != "b.txt" || ps[0].Line != 5 || !strings.Contains(ps[0].Message, "re-read around line 2") {
		t.Fatalf("problems = %+v", ps)
	}
	if n := len(e.appliesSeen()); n != 0 {
		t.Fatalf("applyEdit sent %d times, want none", n)
	}
	if e.bufferText("a.txt") != "one\ntwo\n" || e.bufferText("b.txt") != "alpha\nBETA\n" {
		t.Fatalf("buffers changed: %q %q", e.bufferText("a.txt"), e.bufferText("b.txt"))
	}
}

// An editor that does not apply multi-file edits all or nothing may apply
// some files of a patch and then refuse it: the answer says which landed.
func TestPatchPartiallyApplied(t *testing.T) {
	opts := vscodeOptions()
	opts.failureHandling = "abort"
	e := newEditor(t, opts)
	e.writeFile("a.txt", "one\ntwo\n")
	e.writeFile("b.txt", "alpha\nbeta\n")
	e.open("a.txt", 1)
	e.open("b.txt", 1)
	a := e.lineAnchors("a.txt")
	b := e.lineAnchors("b.txt")
	// The editor applies a.txt's part, then fails on b.txt's and answers
	// applied: false; its didChange for a.txt precedes the answer.
	e.setBehaviour(applyBehaviour{refuse: 1, onRefuse: func(e *editor) { e.typeAt("a.txt", 0, len("one"), "ONE", false) }})

	res, raw := e.patch("@@ a.txt\n= " + a[1] + "\n~ONE\n@@ b.txt\n= " + b[2] + "\n~Beta\n")
	if res.OK || res.Error == nil || res.Error.Code != hashline.CodeToolFailed {
		t.Fatalf("patch = %s, want TOOL_FAILED", raw)
	}
	if want := "the editor applied the patch to a.txt but not to b.txt"; !strings.Contains(res.Error.Message, want) {
		t.Fatalf("message %q lacks %q", res.Error.Message, want)
	}
	if n := len(e.appliesSeen()); n != 1 {
		t.Fatalf("applyEdit sent %d times, want 1", n)
	}
	if e.bufferText("a.txt") != "ONE\ntwo\n" || e.bufferText("b.txt") != "alpha\nbeta\n" {
		t.Fatalf("buffers: %q %q", e.bufferText("a.txt"), e.bufferText("b.txt"))
	}
	// Re-reading b.txt and patching what is missing completes it.
	b = e.lineAnchors("b.txt")
	if res, raw := e.patch("@@ b.txt\n= " + b[2] + "\n~Beta\n"); !res.OK {
		t.Fatalf("completing patch = %s", raw)
	}
	if e.bufferText("b.txt") != "alpha\nBeta\n" {
		t.Fatalf("b.txt buffer = %q", e.bufferText("b.txt"))
	}
}

// An editor that refuses the whole patch: nothing landed, and the answer
// says so and what to do.
func TestPatchRefusedWhole(t *testing.T) {
	e := newEditor(t, vscodeOptions())
	e.writeFile("a.txt", "one\n")
	e.writeFile("b.txt", "two\n")
	e.open("a.txt", 1)
	e.open("b.txt", 1)
	a := e.lineAnchors("a.txt")
	b := e.lineAnchors("b.txt")
	e.setBehaviour(applyBehaviour{refuse: 1})
	res, raw := e.patch("@@ a.txt\n= " + a[1] + "\n~ONE\n@@ b.txt\n= " + b[1] + "\n~TWO\n")
	if res.OK || res.Error == nil || res.Error.Code != hashline.CodeTagMismatch || !strings.Contains(res.Error.Message, "nothing was written") {
		t.Fatalf("patch = %s, want EDIT_TAG_MISMATCH saying nothing was written", raw)
	}
	if e.bufferText("a.txt") != "one\n" || e.bufferText("b.txt") != "two\n" {
		t.Fatal("buffers changed")
	}
}
