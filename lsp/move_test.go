package lsp_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/lsp/lsptest"
)

// A cross-file move is two calls (docs/contract.md §9.3): CUT into a named register on the
// source, PUT from it on the destination. Both files are open, so both
// calls land in the editor's buffers, the unsaved text included.

// moveSrc:
//
//	1 package a
//	2
//	3 import "fmt"
//	4
//	5 func Hello() {
//	6 	fmt.Println("hello")
//	7 }
//	8
//	9 func Keep() {}
const moveSrc = "package a\n\nimport \"fmt\"\n\nfunc Hello() {\n\tfmt.Println(\"hello\")\n}\n\nfunc Keep() {}\n"

// moveDst:
//
//	1 package b
//	2
//	3 func Other() {}
const moveDst = "package b\n\nfunc Other() {}\n"

// openPair writes and opens both files, and types an unsaved line into the
// destination's buffer: the move must go through what the editor holds.
func openPair(t *testing.T) *lsptest.Editor {
	t.Helper()
	e := lsptest.New(t, lsptest.VSCode())
	e.WriteFile("a.go", moveSrc)
	e.WriteFile("b.go", moveDst)
	e.Open("a.go", 1)
	e.Open("b.go", 1)
	e.Type("b.go", "package b\n", "package b // unsaved\n")
	return e
}

// resolvedOf decodes the resolved spans of an edit result.
func resolvedOf(t *testing.T, r lsptest.Result) []hashline.Resolved {
	t.Helper()
	var out struct {
		Resolved []hashline.Resolved `json:"resolved"`
	}
	if err := json.Unmarshal([]byte(r.Raw), &out); err != nil {
		t.Fatalf("result %s: %v", r.Raw, err)
	}
	return out.Resolved
}

func TestCrossFileMove(t *testing.T) {
	const (
		srcAfter = "package a\n\nimport \"fmt\"\n\nfunc Keep() {}\n"
		dstAfter = "package b // unsaved\n\nfunc Hello() {\n\tfmt.Println(\"hello\")\n}\n\nfunc Other() {}\n"
	)
	cases := []struct {
		name     string
		cut      string
		resolved []hashline.Resolved
	}{
		{name: "range", cut: "CUT 5.=8 @fn", resolved: []hashline.Resolved{}},
		// The block is the function alone: the blank line after it stays
		// behind.
		{name: "block", cut: "CUT 5* @fn", resolved: []hashline.Resolved{{AnchorLine: 5, Start: 5, End: 7, Op: "CUT 5* @fn"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := openPair(t)
			src, dst := e.Read("a.go"), e.Read("b.go")

			cut := e.Edit("a.go", src.Tag, c.cut)
			wantSrc := srcAfter
			if c.name == "block" {
				wantSrc = "package a\n\nimport \"fmt\"\n\n\nfunc Keep() {}\n"
			}
			if got := e.BufferText("a.go"); got != wantSrc {
				t.Fatalf("a.go buffer after %s = %q, want %q", c.cut, got, wantSrc)
			}
			if cut.Tag != tagOf(wantSrc) || len(cut.Warnings) != 0 {
				t.Fatalf("cut result %s, want tag %s and no warnings", cut.Raw, tagOf(wantSrc))
			}
			if got := resolvedOf(t, cut); !reflect.DeepEqual(got, c.resolved) {
				t.Fatalf("resolved %+v, want %+v", got, c.resolved)
			}

			// The block left its trailing blank line behind, so the paste
			// adds one after it; inserts at one gap keep written order.
			paste := "PUT <3 @fn"
			if c.name == "block" {
				paste = "PUT <3 @fn\nPUT >2:\n+"
			}
			wantDst := dstAfter
			put := e.Edit("b.go", dst.Tag, paste)
			if got := e.BufferText("b.go"); got != wantDst {
				t.Fatalf("b.go buffer after %s = %q, want %q", paste, got, wantDst)
			}
			if put.Tag != tagOf(wantDst) || len(put.Warnings) != 0 {
				t.Fatalf("paste result %s, want tag %s and no warnings", put.Raw, tagOf(wantDst))
			}
			// Nothing was saved; the source's buffer is as the cut left it.
			if e.DiskText("a.go") != moveSrc || e.DiskText("b.go") != moveDst {
				t.Fatal("the move wrote to disk")
			}
			if got := e.BufferText("a.go"); got != wantSrc {
				t.Fatalf("a.go buffer after the paste = %q", got)
			}
			if n := len(e.Applies()); n != 2 {
				t.Fatalf("applyEdit sent %d times, want 2", n)
			}
		})
	}
}

// The register is the session's, and only once the cut landed: an editor
// that refuses the cut leaves it empty, another session never sees it, and
// ending the session drops it.
func TestCrossFileMoveRegisterScope(t *testing.T) {
	args := func(session, path, tag, ops string) map[string]any {
		return map[string]any{"session": session, "path": path, "tag": tag, "ops": ops}
	}
	readIn := func(e *lsptest.Editor, session, path string) lsptest.Result {
		t.Helper()
		return e.OK(commands.CmdRead, map[string]any{"session": session, "path": path})
	}

	t.Run("refused cut", func(t *testing.T) {
		e := openPair(t)
		src, dst := e.Read("a.go"), e.Read("b.go")
		e.SetBehaviour(lsptest.ApplyBehaviour{Refuse: 2})
		e.Fail(commands.CmdEdit, args("", "a.go", src.Tag, "CUT 5.=8 @fn"), hashline.CodeToolFailed)
		e.SetBehaviour(lsptest.ApplyBehaviour{})
		r := e.Fail(commands.CmdEdit, args("", "b.go", dst.Tag, "PUT <3 @fn"), hashline.CodeRegisterEmpty)
		if !strings.Contains(r.Error.Message, "register @fn is empty in this session") {
			t.Fatalf("message %q", r.Error.Message)
		}
		if e.BufferText("a.go") != moveSrc || !strings.HasPrefix(e.BufferText("b.go"), "package b // unsaved\n") || strings.Contains(e.BufferText("b.go"), "Hello") {
			t.Fatalf("buffers changed: a.go %q b.go %q", e.BufferText("a.go"), e.BufferText("b.go"))
		}
	})

	t.Run("sessions", func(t *testing.T) {
		e := openPair(t)
		src := readIn(e, "mover", "a.go")
		e.OK(commands.CmdEdit, args("mover", "a.go", src.Tag, "CUT 5.=8 @fn"))

		other := readIn(e, "other", "b.go")
		e.Fail(commands.CmdEdit, args("other", "b.go", other.Tag, "PUT <3 @fn"), hashline.CodeRegisterEmpty)

		// The capturing session pastes it; once ended, it has nothing.
		dst := readIn(e, "mover", "b.go")
		e.OK(commands.CmdEdit, args("mover", "b.go", dst.Tag, "PUT <3 @fn"))
		e.OK(commands.CmdSessionEnd, map[string]any{"session": "mover"})
		again := readIn(e, "mover", "b.go")
		e.Fail(commands.CmdEdit, args("mover", "b.go", again.Tag, "PUT <3 @fn"), hashline.CodeRegisterEmpty)
		want := "package b // unsaved\n\nfunc Hello() {\n\tfmt.Println(\"hello\")\n}\n\nfunc Other() {}\n"
		if got := e.BufferText("b.go"); got != want {
			t.Fatalf("b.go buffer %q, want %q: one paste", got, want)
		}
	})
}
