package lsp_test

import (
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/lsp/lsptest"
)

// patch runs hashline.patch with text; its result may be a failure.
func patch(t *testing.T, e *lsptest.Editor, text string) lsptest.Result {
	t.Helper()
	r, err := e.Exec(commands.CmdPatch, map[string]any{"patch": text})
	if err != nil {
		t.Fatalf("patch: %v", err)
	}
	return r
}

// openTwo writes a.txt and b.txt, opens both, and returns their line
// anchors.
func openTwo(t *testing.T, e *lsptest.Editor, aText, bText string) (a, b map[int]string) {
	t.Helper()
	e.WriteFile("a.txt", aText)
	e.WriteFile("b.txt", bText)
	e.Open("a.txt", 1)
	e.Open("b.txt", 1)
	return e.LineAnchors("a.txt"), e.LineAnchors("b.txt")
}

// A clean patch of two open files lands in both buffers through one
// applyEdit, and its tags are the buffers' tags.
func TestPatchTwoBuffersOneApplyEdit(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	e.WriteFile("a.py", "def greet(name):\n    return f\"hello {name}\"\n")
	e.WriteFile("src/b.rs", "fn main() {\n    run();\n}\n")
	e.Open("a.py", 1)
	e.Open("src/b.rs", 4)
	// Unsaved typing: the patch is proven against the buffer, not the disk.
	e.Type("src/b.rs", "run", "go")
	a := e.LineAnchors("a.py")
	b := e.LineAnchors("src/b.rs")
	va, vb := e.BufferVersion("a.py"), e.BufferVersion("src/b.rs")

	res := patch(t, e, "@@ a.py\n= "+a[2]+"\n~    return f\"hi {name}\"\n@@ src/b.rs\n< "+b[2]+"\n~    setup();\n")
	if !res.OK {
		t.Fatalf("patch = %s", res.Raw)
	}
	wantA, wantB := "def greet(name):\n    return f\"hi {name}\"\n", "fn main() {\n    setup();\n    go();\n}\n"
	if got := e.BufferText("a.py"); got != wantA {
		t.Fatalf("a.py buffer = %q, want %q", got, wantA)
	}
	if got := e.BufferText("src/b.rs"); got != wantB {
		t.Fatalf("src/b.rs buffer = %q, want %q", got, wantB)
	}
	if len(res.Files) != 2 {
		t.Fatalf("files = %+v", res.Files)
	}
	for i, f := range []struct{ path, text string }{{"a.py", wantA}, {"src/b.rs", wantB}} {
		tag := tagOf(e.BufferText(f.path))
		if res.Files[i] != (commands.PatchFile{Path: f.path, Tag: tag, Header: "[" + f.path + "#" + tag + "]"}) || tag != tagOf(f.text) {
			t.Fatalf("files[%d] = %+v, want %s with the buffer's tag %s", i, res.Files[i], f.path, tag)
		}
	}
	applies := e.Applies()
	if len(applies) != 1 {
		t.Fatalf("applyEdit sent %d times, want once for both files", len(applies))
	}
	versions := map[string]int32{}
	for _, dc := range applies[0].Edit.DocumentChanges {
		v, err := dc.Version()
		if err != nil || v == nil {
			t.Fatalf("document change %+v: version %v %v", dc, v, err)
		}
		versions[e.PathOf(dc.TextDocument.URI)] = *v
	}
	if len(versions) != 2 || versions[e.Path("a.py")] != va || versions[e.Path("src/b.rs")] != vb {
		t.Fatalf("versions sent = %v, want a.py %d and src/b.rs %d", versions, va, vb)
	}
	// The disk is the editor's business: nothing was saved.
	if e.DiskText("a.py") != "def greet(name):\n    return f\"hello {name}\"\n" || e.DiskText("src/b.rs") != "fn main() {\n    run();\n}\n" {
		t.Fatal("the patch wrote the disk under open buffers")
	}
	// The returned tag edits the buffer at once.
	e.Edit("a.py", res.Files[0].Tag, "PUT >$:\n+greet('x')")
	if got := e.BufferText("a.py"); got != wantA+"greet('x')\n" {
		t.Fatalf("follow-up edit: %q", got)
	}
}

// A stale anchor in one of two files: the editor is never asked to apply
// anything.
func TestPatchStaleSendsNoApplyEdit(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	a, b := openTwo(t, e, "one\ntwo\n", "alpha\nbeta\n")
	e.Type("b.txt", "beta", "BETA")

	res := patch(t, e, "@@ a.txt\n= "+a[1]+"\n~ONE\n@@ b.txt\n= "+b[2]+"\n~Beta\n")
	if res.OK || res.Error == nil || res.Error.Code != hashline.CodeTagMismatch {
		t.Fatalf("patch = %s, want EDIT_TAG_MISMATCH", res.Raw)
	}
	if ps := res.Error.Details.Problems; len(ps) != 1 || ps[0].Path != "b.txt" || ps[0].Line != 5 || !strings.Contains(ps[0].Message, "re-read around line 2") {
		t.Fatalf("problems = %+v", ps)
	}
	if n := len(e.Applies()); n != 0 {
		t.Fatalf("applyEdit sent %d times, want none", n)
	}
	if e.BufferText("a.txt") != "one\ntwo\n" || e.BufferText("b.txt") != "alpha\nBETA\n" {
		t.Fatalf("buffers changed: %q %q", e.BufferText("a.txt"), e.BufferText("b.txt"))
	}
}

// An editor that does not apply multi-file edits all or nothing may apply
// some files of a patch and then refuse it: the answer says which landed.
func TestPatchPartiallyApplied(t *testing.T) {
	opts := lsptest.VSCode()
	opts.FailureHandling = "abort"
	e := lsptest.New(t, opts)
	a, b := openTwo(t, e, "one\ntwo\n", "alpha\nbeta\n")
	// The editor applies a.txt's part, then fails on b.txt's and answers
	// applied: false; its didChange for a.txt precedes the answer.
	e.SetBehaviour(lsptest.ApplyBehaviour{Refuse: 1, OnRefuse: func(e *lsptest.Editor) { e.TypeAt("a.txt", 0, len("one"), "ONE", false) }})

	res := patch(t, e, "@@ a.txt\n= "+a[1]+"\n~ONE\n@@ b.txt\n= "+b[2]+"\n~Beta\n")
	if res.OK || res.Error == nil || res.Error.Code != hashline.CodeToolFailed {
		t.Fatalf("patch = %s, want TOOL_FAILED", res.Raw)
	}
	if want := "the editor applied the patch to a.txt but not to b.txt"; !strings.Contains(res.Error.Message, want) {
		t.Fatalf("message %q lacks %q", res.Error.Message, want)
	}
	if n := len(e.Applies()); n != 1 {
		t.Fatalf("applyEdit sent %d times, want 1", n)
	}
	if e.BufferText("a.txt") != "ONE\ntwo\n" || e.BufferText("b.txt") != "alpha\nbeta\n" {
		t.Fatalf("buffers: %q %q", e.BufferText("a.txt"), e.BufferText("b.txt"))
	}
	// Re-reading b.txt and patching what is missing completes it.
	b = e.LineAnchors("b.txt")
	if res := patch(t, e, "@@ b.txt\n= "+b[2]+"\n~Beta\n"); !res.OK {
		t.Fatalf("completing patch = %s", res.Raw)
	}
	if e.BufferText("b.txt") != "alpha\nBeta\n" {
		t.Fatalf("b.txt buffer = %q", e.BufferText("b.txt"))
	}
}

// An editor that refuses the whole patch is answered as for every change:
// once, it gets the patch again; twice, of text that stands still, the
// refusal is the answer, and nothing landed.
func TestPatchRefusedWhole(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	a, b := openTwo(t, e, "one\n", "two\n")
	e.SetBehaviour(lsptest.ApplyBehaviour{Refuse: 1})
	if res := patch(t, e, "@@ a.txt\n= "+a[1]+"\n~ONE\n@@ b.txt\n= "+b[1]+"\n~TWO\n"); !res.OK || e.BufferText("a.txt") != "ONE\n" || e.BufferText("b.txt") != "TWO\n" {
		t.Fatalf("patch refused once = %s", res.Raw)
	}
	a, b = e.LineAnchors("a.txt"), e.LineAnchors("b.txt")
	e.SetBehaviour(lsptest.ApplyBehaviour{Refuse: 2})
	res := patch(t, e, "@@ a.txt\n= "+a[1]+"\n~one\n@@ b.txt\n= "+b[1]+"\n~two\n")
	if res.OK || res.Error == nil || res.Error.Code != hashline.CodeToolFailed || !strings.Contains(res.Error.Message, "the editor refused the patch of a.txt, b.txt, though the file did not change") {
		t.Fatalf("patch refused twice = %s, want TOOL_FAILED saying the editor refused it", res.Raw)
	}
	if e.BufferText("a.txt") != "ONE\n" || e.BufferText("b.txt") != "TWO\n" {
		t.Fatal("buffers changed")
	}
}
