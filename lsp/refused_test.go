package lsp_test

import (
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/lsp/lsptest"
)

// Edit, write and patch land through one step, and answer an editor that
// refuses them one way: a refusal while the person types gets the change
// planned again against the typed text, where it lands; an editor that
// keeps refusing a text that stands still gets its refusal reported, with
// nothing written.
func TestRefusedChangesAnsweredAlike(t *testing.T) {
	for _, tc := range []struct {
		verb string
		args func(e *lsptest.Editor) (string, map[string]any)
		want string // the buffer after the typing and the change
	}{
		{"edit", func(e *lsptest.Editor) (string, map[string]any) {
			return commands.CmdEdit, map[string]any{"path": "f.txt", "tag": e.Read("f.txt").Tag, "ops": "PUT 1.=1:\n+ONE"}
		}, "ONE\ntwo typed\n"},
		{"write", func(e *lsptest.Editor) (string, map[string]any) {
			e.Read("f.txt")
			return commands.CmdWrite, map[string]any{"path": "f.txt", "content": "ONE\ntwo\n"}
		}, "ONE\ntwo\n"},
		{"patch", func(e *lsptest.Editor) (string, map[string]any) {
			a := e.LineAnchors("f.txt")
			return commands.CmdPatch, map[string]any{"patch": "@@ f.txt\n= " + a[1] + "\n~ONE\n"}
		}, "ONE\ntwo typed\n"},
	} {
		t.Run(tc.verb+" while the person types", func(t *testing.T) {
			e := vscodeHolding(t, "f.txt", "one\ntwo\n")
			cmd, args := tc.args(e)
			e.SetBehaviour(lsptest.ApplyBehaviour{Refuse: 1, OnRefuse: typeOnce("f.txt", len("one\ntwo"), " typed")})
			res := e.OK(cmd, args)
			if got := e.BufferText("f.txt"); got != tc.want || len(e.Applies()) != 2 {
				t.Fatalf("buffer %q after %d applies, result %s: want %q, planned again", got, len(e.Applies()), res.Raw, tc.want)
			}
		})
		t.Run(tc.verb+" refused for good", func(t *testing.T) {
			e := vscodeHolding(t, "f.txt", "one\ntwo\n")
			cmd, args := tc.args(e)
			e.SetBehaviour(lsptest.ApplyBehaviour{Refuse: 10})
			res := e.Fail(cmd, args, hashline.CodeToolFailed)
			if want := "the editor refused the " + tc.verb + " of f.txt, though the file did not change"; !strings.Contains(res.Error.Message, want) || res.Error.Details.LiveTag != tagOf("one\ntwo\n") {
				t.Fatalf("result %s, want %q with the live tag", res.Raw, want)
			}
			if got := e.BufferText("f.txt"); got != "one\ntwo\n" || len(e.Applies()) != 2 {
				t.Fatalf("buffer %q after %d applies: want it untouched after two", got, len(e.Applies()))
			}
		})
	}
}
