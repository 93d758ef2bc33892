package hashline_test

import (
	"errors"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/hashline/blocks"
)

// nextStepCue matches the imperative verbs a message uses to name the next
// step (§11: every error message names one concrete next step).
var nextStepCue = regexp.MustCompile(`\b(write|read|re-read|use|name|drop|retry|send|split|put|capture|fix|check|remove|merge|rebuild|pass|keep|rename|quote|list|end|start|cut)\b`)

func namesNextStep(msg string) bool { return nextStepCue.MatchString(msg) }

// The retriable column of §11, plus the generic codes.
var retriable = map[hashline.Code]bool{
	hashline.CodeTagRequired:        false,
	hashline.CodeTagMismatch:        true,
	hashline.CodeTagUnknown:         true,
	hashline.CodeLinesUnseen:        true,
	hashline.CodeParseFailed:        false,
	hashline.CodeRangeInvalid:       false,
	hashline.CodeBlockUnresolved:    false,
	hashline.CodeRegisterEmpty:      false,
	hashline.CodeRegisterAmbiguous:  false,
	hashline.CodeRepairAmbiguous:    false,
	hashline.CodeNoChange:           false,
	hashline.CodeAmplificationLimit: false,
	hashline.CodeInvalidArgument:    false,
	// §9.3: the runtime finalizes the turn with it as retriable.
	hashline.CodeRetryBudgetExhausted: true,
}

func TestRetriableMatchesContract(t *testing.T) {
	t.Parallel()
	for code, want := range retriable {
		if code.Retriable() != want {
			t.Errorf("%s.Retriable() = %v, want %v", code, code.Retriable(), want)
		}
	}
}

// Every code of §11, and INVALID_ARGUMENT, comes out of a real Session.Plan
// call, never only out of a constructor.
func TestEveryCodeIsProduced(t *testing.T) {
	t.Parallel()
	type scenario struct {
		name string
		run  func(t *testing.T) error
	}
	plain := func(raw, ops string) func(t *testing.T) error {
		return func(t *testing.T) error {
			f := readFixture(t, "f.txt", raw)
			_, err := f.plan(ops)
			return err
		}
	}
	scenarios := []scenario{
		{"tag missing", func(t *testing.T) error {
			f := readFixture(t, "f.txt", "a\n")
			_, err := f.s.Plan(f.req("", "PUT 1.=1:\n+b"), f.live)
			return err
		}},
		{"stale tag the session read", func(t *testing.T) error {
			f := readFixture(t, "f.txt", "a\nb\n")
			old := f.live.Tag()
			f.change("a\nc\n")
			_, err := f.s.Plan(f.req(string(old), "PUT 2.=2:\n+d"), f.live)
			return err
		}},
		{"stale tag the session never read", func(t *testing.T) error {
			s := hashline.NewSession()
			live := hashline.NewText("a\nb\n")
			_, err := s.Plan(hashline.EditRequest{Path: "f.txt", Display: "f.txt", Tag: otherTag(live.Tag()), Ops: "PUT 2.=2:\n+d"}, live)
			return err
		}},
		{"anchor never shown", func(t *testing.T) error {
			s := hashline.NewSession()
			live := hashline.NewText("a\nb\n")
			s.Read("f.txt", "f.txt", live, 1, 1)
			_, err := s.Plan(hashline.EditRequest{Path: "f.txt", Display: "f.txt", Tag: string(live.Tag()), Ops: "PUT 2.=2:\n+d"}, live)
			return err
		}},
		{"missing colon", plain("a\n", "PUT 1.=1\n+b")},
		{"overlap", plain("a\nb\n", "CUT 1.=2\nPUT >2:\n+x")},
		{"block without a resolver", plain("a\n", "PUT 1*:\n+b")},
		{"paste before capture", plain("a\n", "PUT >1")},
		{"two anonymous captures", plain("a\nb\nc\n", "CUT 1.=1\nCUT 2.=2\nPUT >3")},
		{"restated line", plain("a\n", "PUT 1.=1:\n+a")},
		{"too many lines", plain("a\n", "PUT >$:\n"+strings.Repeat("+\n", hashline.MaxIRLines+1))},
		{"body row under a register paste", plain("a\n", "CUT 1.=1 @r\nPUT >$ @r\n+x")},
		{"ops header for another file", plain("a\n", "[g.txt#0000]\nPUT 1.=1:\n+b")},
		{"too many ops", plain("a\n", strings.Repeat("PUT >$:\n+x\n", hashline.MaxOpsPerCall+1))},
		{"capture too large", plain(strings.Repeat("x\n", hashline.MaxCaptureLines+1), "CUT 1.="+strconv.Itoa(hashline.MaxCaptureLines+1))},
		// The range swallows two closing braces the body closes only one
		// of: keeping either one parses, and the two texts differ.
		{"repair candidates tied", func(t *testing.T) error {
			f := readFixture(t, "a.go", "package a\n\nfunc F() {\n\tif x {\n\t\ta()\n\t}\n}\n")
			f.blocks = blocks.New()
			_, err := f.plan("PUT 6.=7:\n+\t\tc() }")
			return err
		}},
	}
	produced := map[hashline.Code][]string{}
	for _, sc := range scenarios {
		err := sc.run(t)
		var he *hashline.Error
		if !errors.As(err, &he) {
			t.Errorf("%s: error %v is not an *Error", sc.name, err)
			continue
		}
		produced[he.Code] = append(produced[he.Code], sc.name)
		if got, want := he.Code.Retriable(), retriable[he.Code]; got != want {
			t.Errorf("%s: %s.Retriable() = %v, want %v", sc.name, he.Code, got, want)
		}
		if !namesNextStep(he.Message) {
			t.Errorf("%s: %s message names no next step: %s", sc.name, he.Code, he.Message)
		}
		if he.Error() != string(he.Code)+": "+he.Message {
			t.Errorf("%s: Error() = %q", sc.name, he.Error())
		}
	}
	var missing []string
	for code := range retriable {
		if code == hashline.CodeRetryBudgetExhausted {
			continue
		}
		if len(produced[code]) == 0 {
			missing = append(missing, string(code))
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("no Session.Plan call produced: %s", strings.Join(missing, ", "))
	}
	if len(produced[hashline.CodeInvalidArgument]) != 4 {
		t.Fatalf("INVALID_ARGUMENT came from %v, want the four INVALID_ARGUMENT scenarios", produced[hashline.CodeInvalidArgument])
	}
}

func TestWrapAndAsError(t *testing.T) {
	t.Parallel()
	if hashline.AsError(nil) != nil {
		t.Fatal("AsError(nil) is not nil")
	}
	he := hashline.AsError(fs.ErrNotExist)
	if he.Code != hashline.CodeToolFailed || he.Message != "file does not exist: read the file to see what it holds, then retry once; report the failure if it repeats" || !errors.Is(he, fs.ErrNotExist) {
		t.Fatalf("AsError(ErrNotExist) = %+v", he)
	}
	orig := hashline.Errorf(hashline.CodeNoChange, "nothing to do: %s", "drop the edit")
	if hashline.Wrap(hashline.CodeToolFailed, orig, "ignored") != orig || hashline.AsError(orig) != orig {
		t.Fatal("an *Error was rewrapped")
	}
	if orig.Message != "nothing to do: drop the edit" {
		t.Fatalf("Errorf message %q", orig.Message)
	}
}
