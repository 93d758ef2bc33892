package hashline_test

import (
	"strings"
	"testing"

	"hashline-ls/hashline"
)

// guardStep is one mutation result on a path: a failure code, or "ok" for a
// write that landed.
type guardStep struct {
	path, turn string
	code       hashline.Code // "" is a success
}

// countedAttempts replays steps and reports how many counted failures path
// holds in turn afterwards. The guard exposes the count only when it ends a
// turn, so it is probed: further counted failures are added until one
// terminates, and 3 minus their number is the count.
func countedAttempts(t *testing.T, steps []guardStep, path, turn string) int {
	t.Helper()
	g := hashline.NewGuard()
	for i, s := range steps {
		if s.code == "" {
			g.Succeed(s.path)
			continue
		}
		err := hashline.Errorf(s.code, "failure %d", i)
		g.Fail(s.path, s.turn, "edit", err)
		if err.Terminate {
			return hashline.MaxRepeatAttempts
		}
	}
	for extra := 1; extra <= hashline.MaxRepeatAttempts; extra++ {
		err := hashline.Errorf(hashline.CodeParseFailed, "probe")
		g.Fail(path, turn, "edit", err)
		if err.Terminate {
			return hashline.MaxRepeatAttempts - extra
		}
	}
	t.Fatal("three counted failures did not end the turn")
	return 0
}

func TestRepeatGuardTable(t *testing.T) {
	t.Parallel()
	const (
		mismatch = hashline.CodeTagMismatch
		unknown  = hashline.CodeTagUnknown
		unseen   = hashline.CodeLinesUnseen
		parse    = hashline.CodeParseFailed
		noChange = hashline.CodeNoChange
		rng      = hashline.CodeRangeInvalid
	)
	at := func(codes ...hashline.Code) []guardStep {
		var out []guardStep
		for _, c := range codes {
			out = append(out, guardStep{"a", "t1", c})
		}
		return out
	}
	cases := []struct {
		name  string
		steps []guardStep
		path  string
		turn  string
		count int
	}{
		// The cases of docs/contract.md §15.2, one a row.
		{"mismatch then unseen: neither counts", at(mismatch, unseen), "a", "t1", 0},
		{"mismatch twice: the second is attempt 1", at(mismatch, mismatch), "a", "t1", 1},
		{"parse failed three times: attempt 3 stops the turn", at(parse, parse, parse), "a", "t1", 3},
		{"failure, success, failure: attempt 1", at(parse, "", parse), "a", "t1", 1},
		// The rest of the rule.
		{"each graceable code has its own grace", at(mismatch, unknown, unseen), "a", "t1", 0},
		{"unknown three times: two count", at(unknown, unknown, unknown), "a", "t1", 2},
		{"unseen twice", at(unseen, unseen), "a", "t1", 1},
		{"no-change counts at once", at(noChange), "a", "t1", 1},
		{"range-invalid counts at once", at(rng), "a", "t1", 1},
		{"different counted codes add up", at(rng, noChange, parse), "a", "t1", 3},
		{"a success restores the grace", at(mismatch, "", mismatch), "a", "t1", 0},
		{"a new turn starts a fresh count", []guardStep{{"a", "t1", parse}, {"a", "t1", parse}, {"a", "t2", parse}}, "a", "t2", 1},
		{"a new turn restores the grace", []guardStep{{"a", "t1", mismatch}, {"a", "t2", mismatch}}, "a", "t2", 0},
		{"counts are per path", []guardStep{{"a", "t1", parse}, {"a", "t1", parse}, {"b", "t1", parse}}, "b", "t1", 1},
		{"graces are per path", []guardStep{{"a", "t1", mismatch}, {"b", "t1", mismatch}}, "b", "t1", 0},
		{"a success on another path clears nothing", []guardStep{{"a", "t1", parse}, {"b", "t1", ""}, {"a", "t1", parse}}, "a", "t1", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := countedAttempts(t, c.steps, c.path, c.turn); got != c.count {
				t.Fatalf("counted attempts = %d, want %d", got, c.count)
			}
		})
	}
}

// The failure that spends the budget carries what the runtime needs to end
// the turn on purpose (docs/contract.md §15.2).
func TestRepeatGuardTerminates(t *testing.T) {
	t.Parallel()
	s := hashline.NewSession()
	live := hashline.NewText(numberedFile(60))
	s.Read("f.txt", "f.txt", live, 1, 100)
	req := hashline.EditRequest{Path: "f.txt", Display: "f.txt", Tag: string(live.Tag()), Ops: "PUT 48.=48\n+x"}
	const hint = "fix the operation syntax, no new read is needed: a PUT with body rows must end its header with :, for example PUT 48.=48:, and every new line is a + row"
	var last *hashline.Error
	for i := 1; i <= 3; i++ {
		_, err := s.Plan(req, live)
		he := wantCode(t, err, hashline.CodeParseFailed)
		base := he.Message
		s.Fail("f.txt", "turn-1", "edit", he)
		if i < 3 {
			if he.Terminate || he.Details.Exhausted != nil || he.Message != base {
				t.Fatalf("attempt %d ended the turn", i)
			}
			continue
		}
		last = he
		if !he.Terminate {
			t.Fatal("attempt 3 did not end the turn")
		}
		want := hashline.Exhausted{Code: hashline.CodeRetryBudgetExhausted, Retriable: true, Kind: "edit",
			LastCode: hashline.CodeParseFailed, Attempts: 3, Recovery: hint}
		if he.Details.Exhausted == nil || *he.Details.Exhausted != want {
			t.Fatalf("Exhausted = %+v, want %+v", he.Details.Exhausted, want)
		}
		if wantMsg := base + " [MUTATION_RETRY_BUDGET_EXHAUSTED: 3 failed attempts on this file in this turn; stop editing it and tell the user what failed: " + hint + "]"; he.Message != wantMsg {
			t.Fatalf("message =\n%s\nwant\n%s", he.Message, wantMsg)
		}
	}
	if !strings.Contains(last.Details.Exhausted.Recovery, "must end its header with :") || !hashline.CodeRetryBudgetExhausted.Retriable() {
		t.Fatal("the recovery hint lost the hint of docs/contract.md §15.2, or the budget code is not retriable")
	}

	// A new turn on the same session starts over.
	_, err := s.Plan(req, live)
	he := wantCode(t, err, hashline.CodeParseFailed)
	s.Fail("f.txt", "turn-2", "edit", he)
	if he.Terminate {
		t.Fatal("the first failure of a new turn ended it")
	}
}

func TestRepeatGuardRecoveryHints(t *testing.T) {
	t.Parallel()
	cases := []struct {
		code   hashline.Code
		opText string
		kind   string
		hint   string
	}{
		{hashline.CodeParseFailed, "PUT 7.=9", "patch-command",
			"fix the operation syntax, no new read is needed: a PUT with body rows must end its header with :, for example PUT 7.=9:, and every new line is a + row"},
		{hashline.CodeParseFailed, "", "edit",
			"fix the operation syntax, no new read is needed: a PUT with body rows must end its header with :, for example PUT 48.=48:, and every new line is a + row"},
		{hashline.CodeTagMismatch, "", "edit", "read the file again and build the ops against the tag and line numbers of that read"},
		{hashline.CodeTagUnknown, "", "edit", "read the file again and build the ops against the tag and line numbers of that read"},
		{hashline.CodeLinesUnseen, "", "edit", "use the complete reveal in the error, or read the named lines, before editing them"},
		{hashline.CodeNoChange, "", "edit", "the file already holds that text; do not repeat the edit"},
		{hashline.CodeRangeInvalid, "", "edit", "name existing lines of your latest read, each line in at most one op"},
		{hashline.CodeRegisterEmpty, "", "edit", "re-read the file and make one smaller edit"},
	}
	for _, c := range cases {
		t.Run(string(c.code)+" "+c.opText, func(t *testing.T) {
			t.Parallel()
			g := hashline.NewGuard()
			var err *hashline.Error
			for i := 0; i < 4; i++ {
				err = hashline.Errorf(c.code, "failed")
				err.Details.OpText = c.opText
				g.Fail("p", "t", c.kind, err)
				if err.Terminate {
					break
				}
			}
			ex := err.Details.Exhausted
			if !err.Terminate || ex == nil {
				t.Fatal("the guard never ended the turn")
			}
			if ex.Recovery != c.hint || ex.Kind != c.kind || ex.LastCode != c.code || ex.Attempts != 3 {
				t.Fatalf("Exhausted = %+v, want recovery %q kind %q", ex, c.hint, c.kind)
			}
		})
	}
}

// Commit is the "write that landed": it clears the path's count.
func TestCommitClearsRepeatCount(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.txt", "a\nb\n")
	bad := hashline.EditRequest{Path: "f.txt", Display: "f.txt", Tag: string(f.live.Tag()), Ops: "PUT 1.=1\n+x"}
	fail := func() *hashline.Error {
		_, err := f.s.Plan(bad, f.live)
		he := wantCode(t, err, hashline.CodeParseFailed)
		f.s.Fail("f.txt", "t", "edit", he)
		return he
	}
	fail()
	fail()
	f.commit(f.mustPlan("PUT 2.=2:\n+B"))
	bad.Tag = string(f.live.Tag())
	for i := 1; i <= 3; i++ {
		if got := fail().Terminate; got != (i == 3) {
			t.Fatalf("failure %d after the landed write: Terminate = %v, want %v", i, got, i == 3)
		}
	}
}
