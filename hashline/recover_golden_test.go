package hashline_test

import (
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/internal/golden"
)

// The recovery cases that are data (docs/contract.md §13.1), one golden
// file each under testdata/recover: context_*, step 7, where a line whose
// text is unique is confirmed by one unchanged neighbour and a repeated one
// needs both; anchor_*, the anchor line itself changed or went; offset_*,
// step 5, all anchors move by one offset; noop_replay, step 8, a replay
// that changes nothing declines.
func TestRecoveryGolden(t *testing.T) {
	t.Parallel()
	runRecoverGolden(t, "testdata/recover", 15)
}

// runRecoverGolden runs the recovery cases of dir, a golden file each: the
// session reads the read section at path, the file then becomes now, and
// ops, less its last newline, are planned on the tag of the read. The plan
// makes the want section, or recovery declines for the reason section (see
// declined). With -update the want or reason a file has is written from
// what the plan did.
func runRecoverGolden(t *testing.T, dir string, atLeast int) {
	golden.Run(t, dir, atLeast, func(t *testing.T, g *golden.File) {
		f := readFixture(t, g.Value(t, "path"), g.Must(t, "read"))
		old := f.live.Tag()
		f.change(g.Must(t, "now"))
		p, err := f.s.Plan(f.req(string(old), g.Value(t, "ops")), f.live)
		reason, refused := g.Section("reason")
		switch {
		case *golden.Update && refused:
			msg := wantCode(t, err, hashline.CodeTagMismatch).Message
			i, j := strings.Index(msg, reasonBefore), strings.Index(msg, reasonAfter)
			if i < 0 || j < i {
				t.Fatalf("no reason in %q", msg)
			}
			g.Set("reason", msg[i+len(reasonBefore):j]+"\n")
			g.Write(t)
		case *golden.Update:
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			g.Set("want", p.New.Raw())
			g.Write(t)
		case refused:
			declined(t, err, f.live, strings.TrimSuffix(reason, "\n"))
		default:
			wantNew(t, p, err, g.Must(t, "want"))
		}
	})
}
