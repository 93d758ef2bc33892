package lsp_test

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/lsp/lsptest"
)

// An edit of a file the editor holds goes through its buffer: the unsaved
// text is what is edited, the disk is left alone, and the tag returned is
// the buffer's.
func TestEditOpenBufferLandsInBuffer(t *testing.T) {
	e := vscodeHolding(t, "a.txt", "one\ntwo\nthree\n")
	e.Type("a.txt", "two", "TWO")

	r := e.Read("a.txt")
	if want := "one\nTWO\nthree\n"; r.Tag != tagOf(want) || !strings.Contains(r.Content, "2:TWO\n") {
		t.Fatalf("read = tag %s content %q, want the unsaved buffer (tag %s)", r.Tag, r.Content, tagOf(want))
	}
	version := e.BufferVersion("a.txt")
	res := e.Edit("a.txt", r.Tag, "PUT 2.=2:\n+deux")

	want := "one\ndeux\nthree\n"
	if got := e.BufferText("a.txt"); got != want {
		t.Fatalf("buffer = %q, want %q", got, want)
	}
	if res.Tag != tagOf(want) || res.Header != "[a.txt#"+tagOf(want)+"]" {
		t.Fatalf("result tag %s header %s, want %s", res.Tag, res.Header, tagOf(want))
	}
	if len(res.Warnings) != 0 {
		t.Fatalf("warnings = %+v, want none", res.Warnings)
	}
	if got := e.DiskText("a.txt"); got != "one\ntwo\nthree\n" {
		t.Fatalf("disk = %q, want it untouched", got)
	}
	applies := e.Applies()
	if len(applies) != 1 || len(applies[0].Edit.DocumentChanges) != 1 {
		t.Fatalf("applyEdit requests = %+v, want one with one document change", applies)
	}
	dc := applies[0].Edit.DocumentChanges[0]
	if v, err := dc.Version(); err != nil || v == nil || *v != version {
		t.Fatalf("TextDocumentEdit version = %s, want %d", dc.TextDocument.Version, version)
	}
	if dc.TextDocument.URI != lsptest.URI(e.Path("a.txt")) {
		t.Fatalf("uri = %s, want the one the editor opened", dc.TextDocument.URI)
	}
	// The change annotation names the ops, for the editor's undo and review.
	if _, ok := applies[0].Edit.ChangeAnnotations["hashline"]; !ok || dc.Edits[0].AnnotationID != "hashline" {
		t.Fatalf("annotations = %v, edit annotation %q, want the hashline annotation on every edit", applies[0].Edit.ChangeAnnotations, dc.Edits[0].AnnotationID)
	}
	if !strings.Contains(applies[0].Label, "PUT 2.=2:") {
		t.Fatalf("label = %q, want it to name the op", applies[0].Label)
	}
	// The text edit replaces what changed of line 2 only.
	if got := dc.Edits[0].Range; got != span(pos(1, 0), pos(1, 3)) || dc.Edits[0].NewText != "deux" {
		t.Fatalf("text edit = %+v %q, want line 2's text replaced", got, dc.Edits[0].NewText)
	}
	// Closed without saving, the file is the disk's again.
	e.Close("a.txt")
	if r := e.Read("a.txt"); r.Tag != tagOf("one\ntwo\nthree\n") {
		t.Fatalf("read after didClose = %s, want the disk's text", r.Raw)
	}
}

// A file the editor does not hold: VS Code opens it (didOpen with the disk
// text, then didChange) and the server reports the text it was told of.
func TestEditFileNotHeld(t *testing.T) {
	t.Run("editor opens it", func(t *testing.T) {
		e := vscodeApplying(t, lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen, Save: true})
		e.WriteFile("b.txt", "alpha\nbeta\n")
		r := e.Read("b.txt")
		res := e.Edit("b.txt", r.Tag, "PUT >1:\n+inserted")
		want := "alpha\ninserted\nbeta\n"
		if res.Tag != tagOf(want) || len(res.Warnings) != 0 {
			t.Fatalf("result = %s, want tag %s and no warning", res.Raw, tagOf(want))
		}
		if got := e.BufferText("b.txt"); got != want {
			t.Fatalf("buffer = %q, want %q", got, want)
		}
		if got := e.DiskText("b.txt"); got != want {
			t.Fatalf("disk after the editor saved = %q, want %q", got, want)
		}
		dc := e.Applies()[0].Edit.DocumentChanges[0]
		if v, err := dc.Version(); err != nil || v != nil {
			t.Fatalf("version = %s, want null for a file the editor does not hold", dc.TextDocument.Version)
		}
	})
	t.Run("editor writes the disk", func(t *testing.T) {
		e := vscodeApplying(t, lsptest.ApplyBehaviour{Unheld: lsptest.UnheldDisk})
		e.WriteFile("b.txt", "alpha\nbeta\n")
		r := e.Read("b.txt")
		res := e.Edit("b.txt", r.Tag, "CUT 1.=1")
		if want := "beta\n"; res.Tag != tagOf(want) || e.DiskText("b.txt") != want {
			t.Fatalf("result %s, disk %q, want %q", res.Raw, e.DiskText("b.txt"), want)
		}
	})
	t.Run("editor loads it where the server cannot see", func(t *testing.T) {
		// Neovim 0.7 with nothing attaching the client to the new buffer:
		// it answers applied, and the server never hears of the text. The
		// wait for it passes in virtual time.
		synctest.Test(t, func(t *testing.T) {
			e := lsptest.New(t, lsptest.Options{ApplyEdit: true, ResourceOps: []string{"create", "rename", "delete"},
				InitOptions: map[string]any{"hashline": map[string]any{"landTimeoutMs": 300}}})
			e.SetBehaviour(lsptest.ApplyBehaviour{Unheld: lsptest.UnheldHidden})
			e.WriteFile("b.txt", "alpha\nbeta\n")
			r := e.Read("b.txt")
			res := e.Fail(commands.CmdEdit, map[string]any{"path": "b.txt", "tag": r.Tag, "ops": "CUT 1.=1"}, hashline.CodeToolFailed)
			if res.Error.Details.LiveTag != tagOf("alpha\nbeta\n") {
				t.Fatalf("live tag = %s, want the disk's %s", res.Error.Details.LiveTag, tagOf("alpha\nbeta\n"))
			}
			if got := e.DiskText("b.txt"); got != "alpha\nbeta\n" {
				t.Fatalf("disk = %q, want it untouched", got)
			}
		})
	})
}

// Real editors send the didChange after they answer applyEdit, Neovim about
// 150 ms after; with its debounce off, just before.
func TestDidChangeTiming(t *testing.T) {
	for _, tc := range []struct {
		name   string
		behave lsptest.ApplyBehaviour
	}{
		{"after the answer", lsptest.ApplyBehaviour{}},
		{"150 ms after the answer", lsptest.ApplyBehaviour{Delay: 150 * time.Millisecond}},
		{"before the answer", lsptest.ApplyBehaviour{BeforeAnswer: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := "def f():\n    return 2\n"
			e, res := editLanded(t, lsptest.Neovim(), tc.behave, "c.py", 0, "def f():\n    return 1\n", "PUT 2.=2:\n+    return 2", want)
			if res.Tag != tagOf(want) || len(res.Warnings) != 0 {
				t.Fatalf("result = %s, want tag %s without warnings", res.Raw, tagOf(want))
			}
			// The tag is good for the next edit at once.
			res = e.Edit("c.py", res.Tag, "PUT >$:\n+f()")
			want += "f()\n"
			if got := e.BufferText("c.py"); got != want || res.Tag != tagOf(want) {
				t.Fatalf("second edit: buffer %q tag %s, want %q tag %s", got, res.Tag, want, tagOf(want))
			}
		})
	}
}

// Buffer versions come from the editor and may start at 0 and skip; the
// edit names the version it was proven against.
func TestVersionsJump(t *testing.T) {
	e := lsptest.New(t, lsptest.Neovim())
	e.SetBehaviour(lsptest.ApplyBehaviour{Delay: 150 * time.Millisecond})
	e.WriteFile("v.txt", "1\n2\n3\n")
	e.Open("v.txt", 0)
	e.SetStep(4)
	e.Type("v.txt", "3", "three") // version 4
	e.SetStep(5)
	e.Type("v.txt", "1", "one") // version 9
	if v := e.BufferVersion("v.txt"); v != 9 {
		t.Fatalf("version = %d, want 9", v)
	}
	r := e.Read("v.txt")
	res := e.Edit("v.txt", r.Tag, "PUT 2.=2:\n+two")
	if v := e.BufferVersion("v.txt"); v != 14 {
		t.Fatalf("version after the edit = %d, want 14", v)
	}
	e.SetStep(3)
	res = e.Edit("v.txt", res.Tag, "PUT >$:\n+four")
	want := "one\ntwo\nthree\nfour\n"
	if got := e.BufferText("v.txt"); got != want || res.Tag != tagOf(want) {
		t.Fatalf("buffer %q tag %s, want %q tag %s", got, res.Tag, want, tagOf(want))
	}
	var versions []int32
	for _, a := range e.Applies() {
		// Neovim announces resource operations, so it gets documentChanges.
		v, err := a.Edit.DocumentChanges[0].Version()
		if err != nil || v == nil {
			t.Fatalf("version = %s, want a number", a.Edit.DocumentChanges[0].TextDocument.Version)
		}
		versions = append(versions, *v)
	}
	if len(versions) != 2 || versions[0] != 9 || versions[1] != 14 {
		t.Fatalf("versions sent = %v, want [9 14]", versions)
	}
}

// landIn runs f in a synctest bubble, so that the waits for an editor to
// report what landed pass in virtual time, with an editor like Neovim 0.7
// that holds name open with text and a land timeout of landMs.
func landIn(t *testing.T, landMs int, name, text string, f func(t *testing.T, e *lsptest.Editor, tag string)) {
	synctest.Test(t, func(t *testing.T) {
		opts := lsptest.Neovim()
		opts.InitOptions = map[string]any{"hashline": map[string]any{"landTimeoutMs": landMs}}
		e := lsptest.New(t, opts)
		e.WriteFile(name, text)
		e.Open(name, 0)
		f(t, e, e.Read(name).Tag)
	})
}

// An editor that answers applied but changes nothing (Neovim 0.7 with a
// stale version) must not pass for a success.
func TestAppliedButUnchanged(t *testing.T) {
	old := "keep\nchange me\n"
	landIn(t, 300, "d.txt", old, func(t *testing.T, e *lsptest.Editor, tag string) {
		e.SetBehaviour(lsptest.ApplyBehaviour{SkipAll: true})
		res := e.Fail(commands.CmdEdit, map[string]any{"path": "d.txt", "tag": tag, "ops": "PUT 2.=2:\n+changed"}, hashline.CodeToolFailed)
		if res.Error.Details.LiveTag != tagOf(old) || !res.Error.Retriable {
			t.Fatalf("error = %s, want a retriable failure with the live tag %s", res.Raw, tagOf(old))
		}
		if got := e.BufferText("d.txt"); got != old {
			t.Fatalf("buffer = %q, want it unchanged", got)
		}
		// Nothing was recorded as written: the tag of the text that did
		// not land means nothing to the session.
		e.SetBehaviour(lsptest.ApplyBehaviour{})
		e.Fail(commands.CmdEdit, map[string]any{"path": "d.txt", "tag": tagOf("keep\nchanged\n"), "ops": "PUT 1.=1:\n+x"}, hashline.CodeTagUnknown)
		// The old tag still names the text the buffer holds.
		res = e.Edit("d.txt", tag, "PUT 2.=2:\n+changed")
		if want := "keep\nchanged\n"; e.BufferText("d.txt") != want || res.Tag != tagOf(want) {
			t.Fatalf("retry: buffer %q result %s, want %q", e.BufferText("d.txt"), res.Raw, want)
		}
	})
}

// Neovim 0.7 holds the user's keystrokes back (its debounce) while the
// server proves an edit against the text it was last told of; it then skips
// the edit as stale, answers applied, and reports the keystrokes. The
// keystrokes are not the edit landing: the call must fail with the live tag.
func TestStaleSkipWithHeldKeystrokes(t *testing.T) {
	landIn(t, 1000, "n.txt", "a\nb\n", func(t *testing.T, e *lsptest.Editor, tag string) {
		e.SetBehaviour(lsptest.ApplyBehaviour{StaleSkip: true, Delay: 150 * time.Millisecond})
		e.TypeAt("n.txt", 0, 1, "A", true)
		res, err := e.Exec(commands.CmdEdit, map[string]any{"path": "n.txt", "tag": tag, "ops": "PUT 2.=2:\n+B"})
		if err != nil {
			t.Fatal(err)
		}
		buf := e.BufferText("n.txt")
		if buf != "A\nb\n" {
			t.Fatalf("buffer = %q, want the keystroke only (the edit was skipped)", buf)
		}
		if res.OK || res.Error.Code != hashline.CodeToolFailed || res.Error.Details.LiveTag != tagOf(buf) {
			t.Fatalf("result = %s, want TOOL_FAILED with live tag %s", res.Raw, tagOf(buf))
		}
	})
}

// typeOnce is an OnRefuse for which the user types text at the byte at of
// rel before the editor's first refusal, and only then.
func typeOnce(rel string, at int, text string) func(*lsptest.Editor) {
	typed := false
	return func(e *lsptest.Editor) {
		if !typed {
			typed = true
			e.TypeAt(rel, at, at, text, false)
		}
	}
}

// applied:false means the editor changed nothing.
func TestAppliedFalse(t *testing.T) {
	t.Run("once, buffer unchanged", func(t *testing.T) {
		e := vscodeHolding(t, "f.txt", "x\ny\n")
		r := e.Read("f.txt")
		e.SetBehaviour(lsptest.ApplyBehaviour{Refuse: 1})
		res := e.Edit("f.txt", r.Tag, "PUT 1.=1:\n+X")
		if want := "X\ny\n"; e.BufferText("f.txt") != want || res.Tag != tagOf(want) {
			t.Fatalf("buffer %q result %s, want %q", e.BufferText("f.txt"), res.Raw, want)
		}
		if n := len(e.Applies()); n != 2 {
			t.Fatalf("applyEdit sent %d times, want 2 (one refusal, one retry)", n)
		}
	})
	t.Run("VS Code refuses a stale version", func(t *testing.T) {
		// The keystroke's didChange is on its way while the server proves
		// the edit against the version before it; VS Code refuses that
		// version, and the second pass through the gates carries the edit
		// over to the typed text (branch C).
		e := vscodeHolding(t, "f.txt", "x\ny\nz\n")
		r := e.Read("f.txt")
		e.SetBehaviour(lsptest.ApplyBehaviour{BeforeAnswer: true})
		e.TypeAt("f.txt", 0, 0, "typed ", true)
		res := e.Edit("f.txt", r.Tag, "PUT 3.=3:\n+Z")
		want := "typed x\ny\nZ\n"
		if got := e.BufferText("f.txt"); got != want || res.Tag != tagOf(want) || !res.HasWarning(hashline.WarnRecovered) {
			t.Fatalf("buffer %q result %s, want %q with a recovered warning", got, res.Raw, want)
		}
		var versions []int32
		for _, a := range e.Applies() {
			v, _ := a.Edit.DocumentChanges[0].Version()
			versions = append(versions, *v)
		}
		if len(versions) != 2 || versions[0] != 1 || versions[1] != 2 {
			t.Fatalf("versions sent = %v, want [1 2]: the stale one, then the typed one", versions)
		}
	})
	for _, tc := range []struct {
		name    string
		ops     string
		applies int // how often the editor is asked
	}{
		// The typed line is the edited one: the second pass through the
		// gates refuses it.
		{"user typed on the edited line", "PUT 1.=1:\n+X", 1},
		// Elsewhere the edit survives the typing (branch C, then branch
		// B), so the editor is asked twice and refuses twice.
		{"user typed elsewhere", "PUT 2.=2:\n+Y", 2},
		{"user typed, edit at the end", "PUT >$:\n+z", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := vscodeHolding(t, "f.txt", "x\ny\n")
			r := e.Read("f.txt")
			e.SetBehaviour(lsptest.ApplyBehaviour{Refuse: 2, OnRefuse: typeOnce("f.txt", 0, "typed ")})
			res, err := e.Exec(commands.CmdEdit, map[string]any{"path": "f.txt", "tag": r.Tag, "ops": tc.ops})
			if err != nil {
				t.Fatal(err)
			}
			want := "typed x\ny\n"
			if got := e.BufferText("f.txt"); got != want {
				t.Fatalf("buffer = %q, want the user's text %q", got, want)
			}
			if res.OK || (res.Error.Code != hashline.CodeTagMismatch && res.Error.Code != hashline.CodeToolFailed) {
				t.Fatalf("result = %s, want EDIT_TAG_MISMATCH or TOOL_FAILED", res.Raw)
			}
			if res.Error.Details.LiveTag != tagOf(want) {
				t.Fatalf("live tag = %s, want the tag of the buffer now, %s", res.Error.Details.LiveTag, tagOf(want))
			}
			if n := len(e.Applies()); n != tc.applies {
				t.Fatalf("applyEdit sent %d times, want %d", n, tc.applies)
			}
		})
	}
}

// A formatter that rewrites what landed: the result names the formatted
// text, says so, and its tag is good for the next edit. The line the
// formatter rewrote was never shown, so an edit of it first gets the line
// revealed, and the same call then applies.
func TestFormatterRewritesLanded(t *testing.T) {
	tabs := func(s string) string { return strings.ReplaceAll(s, "\t", "    ") }
	for _, tc := range []struct {
		name   string
		behave lsptest.ApplyBehaviour
	}{
		{"separate didChange before the answer", lsptest.ApplyBehaviour{BeforeAnswer: true, Format: tabs}},
		{"same didChange 150 ms after the answer", lsptest.ApplyBehaviour{Delay: 150 * time.Millisecond, Format: tabs, FormatMerged: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := "func f() {\n    return\n}\n"
			e, res := editLanded(t, lsptest.VSCode(), tc.behave, "g.go", 1, "func f() {\n}\n", "PUT >1:\n+\treturn", want)
			if res.Tag != tagOf(want) || !res.HasWarning(hashline.WarnLanded) {
				t.Fatalf("result = %s, want tag %s with a landed warning", res.Raw, tagOf(want))
			}
			e.SetBehaviour(lsptest.ApplyBehaviour{})
			args := map[string]any{"path": "g.go", "tag": res.Tag, "ops": "PUT 2.=2:\n+    return nil"}
			unseen := e.Fail(commands.CmdEdit, args, hashline.CodeLinesUnseen)
			if !strings.Contains(unseen.Error.Details.Content, "2:    return\n") {
				t.Fatalf("reveal = %s", unseen.Raw)
			}
			res = e.OK(commands.CmdEdit, args)
			want = "func f() {\n    return nil\n}\n"
			if got := e.BufferText("g.go"); got != want || res.Tag != tagOf(want) {
				t.Fatalf("next edit: buffer %q result %s, want %q", got, res.Raw, want)
			}
		})
	}
}

// An editor that applies an edit to whatever version its buffer is at
// applies it, after a keystroke the server has not heard of, at the wrong
// line. The server finds the edit in what the editor reported, undoes it
// exactly, and plans the edit again: the person's lines all survive, the
// edit lands where it was meant, and the result says what happened.
func TestMisplacedEditIsUndone(t *testing.T) {
	e := vscodeHolding(t, "f.txt", "a\nb\nc\nd\n")
	r := e.Read("f.txt")
	e.TypeAt("f.txt", 0, 0, "new\n", true)
	e.SetBehaviour(lsptest.ApplyBehaviour{IgnoreVersions: true, BeforeAnswer: true})
	res := e.Edit("f.txt", r.Tag, "PUT 3.=3:\n+C")
	want := "new\na\nb\nC\nd\n"
	if got := e.BufferText("f.txt"); got != want || res.Tag != tagOf(want) {
		t.Fatalf("buffer %q result %s, want %q", got, res.Raw, want)
	}
	if !res.HasWarning(hashline.WarnEditor) || !strings.Contains(res.Raw, "that was undone") {
		t.Fatalf("result %s, want it to say the first try was undone", res.Raw)
	}
	if n := len(e.Applies()); n != 3 {
		t.Fatalf("applyEdit sent %d times, want 3: the edit, its undo, the edit again", n)
	}
}

// editLanded opens rel, holding text, at version in an editor with opts
// that answers applyEdit as behave says, edits it with ops after a read,
// and checks that the buffer then holds want. It returns the editor and
// the edit's result.
func editLanded(t *testing.T, opts lsptest.Options, behave lsptest.ApplyBehaviour, rel string, version int32, text, ops, want string) (*lsptest.Editor, lsptest.Result) {
	t.Helper()
	e := lsptest.New(t, opts)
	e.SetBehaviour(behave)
	e.WriteFile(rel, text)
	e.Open(rel, version)
	res := e.Edit(rel, e.Read(rel).Tag, ops)
	if got := e.BufferText(rel); got != want {
		t.Fatalf("buffer = %q, want %q", got, want)
	}
	return e, res
}
