package lsp_test

import (
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/lsp/lsptest"
)

// An editor that applies an edit to whatever version its buffer is at
// applies it, after a keystroke the server has not heard of, at the wrong
// line. The server finds the edit in what the editor reported, undoes it
// exactly, and plans the edit again: the person's lines all survive, the
// edit lands where it was meant, and the result says what happened.
func TestMisplacedEditIsUndone(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	e.WriteFile("f.txt", "a\nb\nc\nd\n")
	e.Open("f.txt", 1)
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
