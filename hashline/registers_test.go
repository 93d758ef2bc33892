package hashline_test

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/internal/golden"
)

// Registers, one row of docs/contract.md §9.1 and docs/contract.md §10.2 at a time, through Session.Plan and
// Commit as the edge drives them. A capture shows only through a later
// paste, so most tests read a register back that way.

const (
	msgBeforeAnyCapture = "op 1 (PUT >$) pastes before any capture: the anonymous register lives for one call, so write the CUT above the paste in the same ops"
	msgTwoWaiting       = "op 3 (PUT >$) pastes the anonymous register while 2 CUTs wait in it: name each capture, as in CUT 3.=9 @a and PUT >20 @a"
)

func msgEmpty(op int, text, reg string) string {
	return fmt.Sprintf("op %d (%s): register @%s is empty in this session: capture into it first with CUT N.=M @%s (in this call or an earlier one)", op, text, reg, reg)
}

// pasteOf plans a paste of reg at the end of f and returns the lines it
// appended, or fails the test.
func pasteOf(t *testing.T, f *editFixture, reg string) []string {
	t.Helper()
	p := f.mustPlan("PUT >$ @" + reg)
	n := f.live.Len()
	return p.New.Lines(n+1, p.New.Len())
}

// docs/contract.md §9.1 (the anonymous register): the anonymous register is cleared when the call returns.
func TestAnonymousRegisterLivesOneCall(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.txt", "1\n2\n3\n4\n")
	f.mustCommit("CUT 1.=1\nPUT >3", "2\n3\n1\n4\n")
	// A capture that is never pasted is a plain delete, and it is gone
	// with the call too.
	f.commit(f.mustPlan("CUT 4.=4"))
	_, err := f.plan("PUT >$")
	he := wantCode(t, err, hashline.CodeRegisterEmpty)
	if he.Message != msgBeforeAnyCapture {
		t.Fatalf("message %q, want %q", he.Message, msgBeforeAnyCapture)
	}
}

// docs/contract.md §9.1 (named registers): a named register outlives the call and the file it
// came from; it holds the lines as captured, whatever happens to the source
// after.
func TestNamedRegisterIsCapturedContent(t *testing.T) {
	t.Parallel()
	src := readFixture(t, "src.go", "package a\n\nfunc F() {\n\tf()\n}\n")
	src.mustCommit("CUT 3.=5 @fn", "package a\n\n")
	want := []string{"func F() {", "\tf()", "}"}

	dst := readIn(t, src.s, "dst.go", "package b\n")
	if got := pasteOf(t, dst, "fn"); !reflect.DeepEqual(got, want) {
		t.Fatalf("paste in a later call = %q, want %q", got, want)
	}

	// Rewritten: the source now holds other lines where F was, and a read
	// of it is the session's latest. The register still holds F.
	src.change("package a\n\nfunc F() {\n\tg()\n}\n")
	src.s.Read("src.go", "src.go", src.live, 1, 10)
	src.commit(src.mustPlan("PUT 4.=4:\n+\th()"))
	if got := pasteOf(t, dst, "fn"); !reflect.DeepEqual(got, want) {
		t.Fatalf("paste after the source was rewritten = %q, want %q", got, want)
	}

	// Deleted: the session forgets the file, not the register.
	rem := src.mustPlan("REM")
	src.s.Commit(rem, "src.go", nil)
	if len(src.s.Snapshots("src.go")) != 0 {
		t.Fatal("the session still holds the removed file")
	}
	if got := pasteOf(t, dst, "fn"); !reflect.DeepEqual(got, want) {
		t.Fatalf("paste after the source was removed = %q, want %q", got, want)
	}

	// Overwritten: the register holds the newest capture, and only it.
	dst.commit(dst.mustPlan("CUT 1.=1 @fn"))
	if got := pasteOf(t, dst, "fn"); !reflect.DeepEqual(got, []string{"package b"}) {
		t.Fatalf("paste after a second capture = %q, want the second capture", got)
	}
}

// docs/contract.md §9.1 (named registers): named registers belong to one session, and go with it.
func TestNamedRegistersPerSession(t *testing.T) {
	t.Parallel()
	ss := hashline.NewSessions()
	on := func(session string) *editFixture { return readIn(t, ss.Get(session), "f.txt", "a\nb\n") }
	one := on("one")
	p := one.mustPlan("CUT 1.=1 @shared")
	one.s.Commit(p, one.path, p.New)

	// Another session reading the same file has no such register.
	two := on("two")
	_, err := two.plan("PUT >$ @shared")
	if he := wantCode(t, err, hashline.CodeRegisterEmpty); he.Message != msgEmpty(1, "PUT >$ @shared", "shared") {
		t.Fatalf("message %q", he.Message)
	}
	// The capturing session has it, after the other one's failure too.
	one = on("one")
	if got := pasteOf(t, one, "shared"); !reflect.DeepEqual(got, []string{"a"}) {
		t.Fatalf("paste in the capturing session = %q", got)
	}

	// An ended session takes its registers along; the name starts afresh.
	if !ss.End("one") {
		t.Fatal("End(one) found no session")
	}
	again := on("one")
	_, err = again.plan("PUT >$ @shared")
	wantCode(t, err, hashline.CodeRegisterEmpty)
}

// docs/contract.md §10.2 (a cut): CUT captures the lines as they are and deletes them; the
// capture keeps each line's text exactly, trailing blanks included, and
// takes the file's line endings off.
func TestCutCapturesAndDeletes(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.txt", "keep\r\n\tone  \r\ntwo\r\nkeep too\r\n")
	f.mustCommit("CUT 2.=3 @r", "keep\r\nkeep too\r\n")
	if got := pasteOf(t, f, "r"); !reflect.DeepEqual(got, []string{"\tone  ", "two"}) {
		t.Fatalf("captured %q", got)
	}
	// Pasted back, the lines take the file's endings again.
	if p := f.mustPlan("PUT <2 @r"); p.New.Raw() != "keep\r\n\tone  \r\ntwo\r\nkeep too\r\n" {
		t.Fatalf("pasted back = %q", p.New.Raw())
	}
}

// docs/contract.md §19.1: a capture holds at most 4,096 lines and 1 MiB; past either, the CUT
// is refused with INVALID_ARGUMENT naming it, anonymous or named, wherever
// it stands in the call.
func TestRegisterCaptureLimits(t *testing.T) {
	t.Parallel()
	lines := func(n int) string { return strings.Repeat("x\n", n) }
	cases := []struct {
		name, raw, ops string
		op, limit      int    // the refused op and Details.Limit; op 0: success
		msg            string // the whole message, where the case pins it
	}{
		{name: "4096 lines anonymous", raw: lines(4100), ops: "CUT 1.=4096"},
		{name: "4096 lines named", raw: lines(4097), ops: "CUT 1.=4096 @a"},
		{name: "4097 lines anonymous", raw: lines(4100), ops: "PUT >4100:\n+y\nCUT 1.=4097\nPUT >$", op: 2, limit: hashline.MaxCaptureLines},
		{name: "4097 lines named", raw: lines(4100), ops: "CUT 2.=4098 @big", op: 1, limit: hashline.MaxCaptureLines},
		{name: "4097 lines named from the top", raw: lines(4097), ops: "CUT 1.=4097 @a", op: 1, limit: hashline.MaxCaptureLines,
			msg: "op 1 (CUT 1.=4097 @a) captures 4097 lines (8194 bytes), over the register limit of 4096 lines or 1 MiB: cut the block in smaller pieces over several calls"},
		// Each line counts its text and one ending: 4 lines of 262143
		// bytes and their endings are exactly 1 MiB, and so is one line
		// of 1048575.
		{name: "1 MiB", raw: strings.Repeat(strings.Repeat("y", 1<<18-1)+"\n", 5), ops: "CUT 1.=4 @big"},
		{name: "1 MiB in one line", raw: strings.Repeat("y", 1<<20-1) + "\nz\n", ops: "CUT 1.=1"},
		{name: "1 MiB and one byte", raw: strings.Repeat(strings.Repeat("y", 1<<18-1)+"\n", 3) + strings.Repeat("y", 1<<18) + "\nz\n", ops: "CUT 1.=4 @big", op: 1, limit: hashline.MaxCaptureBytes},
		{name: "1 MiB and one byte in one line", raw: strings.Repeat("y", 1<<20) + "\nz\n", ops: "CUT 1.=1", op: 1, limit: hashline.MaxCaptureBytes,
			msg: "op 1 (CUT 1.=1) captures 1 line (1048577 bytes), over the register limit of 4096 lines or 1 MiB: cut the block in smaller pieces over several calls"},
		{name: "past both limits", raw: lines(5000) + strings.Repeat("y", 1<<20) + "\n", ops: "CUT 1.=5001", op: 1, limit: hashline.MaxCaptureBytes},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := hashline.NewSession()
			live := hashline.NewText(c.raw)
			s.Record("f", live, hashline.FullLineSet(live.Len()))
			p, err := s.Plan(hashline.EditRequest{Path: "f", Display: "f", Tag: string(live.Tag()), Ops: c.ops}, live)
			if c.op == 0 {
				if err != nil {
					t.Fatalf("Plan: %v", err)
				}
				if want := live.Len() - mustRangeLen(t, c.ops); p.New.Len() != want {
					t.Fatalf("new text has %d lines, want %d", p.New.Len(), want)
				}
				return
			}
			he := wantCode(t, err, hashline.CodeInvalidArgument)
			if he.Details.Op != c.op || he.Details.Field != "ops" || he.Details.Limit != c.limit {
				t.Fatalf("details %+v, want op %d field ops limit %d", he.Details, c.op, c.limit)
			}
			if !strings.HasPrefix(he.Message, "op "+strconv.Itoa(c.op)+" (CUT ") || !strings.HasSuffix(he.Message, "over the register limit of 4096 lines or 1 MiB: cut the block in smaller pieces over several calls") ||
				c.msg != "" && he.Message != c.msg {
				t.Fatalf("message %q", he.Message)
			}
		})
	}
}

func mustRangeLen(t *testing.T, ops string) int {
	t.Helper()
	p, err := hashline.Parse(ops)
	if err != nil {
		t.Fatal(err)
	}
	return p.Ops[0].Loc.M - p.Ops[0].Loc.N + 1
}

// The register file holds 16 names; a seventeenth evicts the coldest, and a
// register read recently is not the coldest.
func TestNamedRegistersLRU(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.txt", numberedFile(40))
	capture := func(name string) {
		t.Helper()
		// Line 1 of the current text, which each capture removes.
		f.commit(f.mustPlan("CUT 1.=1 @" + name))
	}
	for i := 0; i < hashline.MaxRegisters; i++ {
		capture(fmt.Sprintf("r%d", i))
	}
	// Reading r0 makes it the warmest; r1 is now the coldest.
	f.commit(f.mustPlan("PUT >$ @r0"))
	capture("r16")

	_, err := f.plan("PUT >$ @r1")
	he := wantCode(t, err, hashline.CodeRegisterEmpty)
	if he.Message != "op 1 (PUT >$ @r1): register @r1 is empty in this session: capture into it first with CUT N.=M @r1 (in this call or an earlier one)" {
		t.Fatalf("message = %s", he.Message)
	}
	for _, name := range []string{"r0", "r2", "r15", "r16"} {
		p := f.mustPlan("PUT >$ @" + name)
		want := map[string]string{"r0": "line 1", "r2": "line 3", "r15": "line 16", "r16": "line 17"}[name]
		if last := p.New.Line(p.New.Len()); last != want {
			t.Fatalf("@%s pasted %q, want %q", name, last, want)
		}
	}
	regs := hashline.NewRegisters()
	for i := 0; i < 17; i++ {
		regs.Set(fmt.Sprint(i), []string{fmt.Sprint(i)})
	}
	if _, ok := regs.Get("0"); ok || regs.Len() != 16 {
		t.Fatalf("after 17 sets: Get(0) ok=%v Len()=%d, want false and 16", ok, regs.Len())
	}
}

// docs/contract.md §19.1: 16 named registers; a new name evicts the coldest, in the order the
// call captured, and overwriting a name evicts nothing.
func TestRegisterFileLRU(t *testing.T) {
	t.Parallel()
	f := readFixture(t, "f.txt", numberedFile(40))
	for i := range hashline.MaxRegisters {
		f.commit(f.mustPlan("CUT 1.=1 @r" + strconv.Itoa(i)))
	}
	// Overwriting r0 warms it and keeps the count at 16: r1 is coldest.
	f.commit(f.mustPlan("CUT 1.=1 @r0"))
	for _, name := range []string{"r1", "r15"} {
		f.commit(f.mustPlan("PUT >$ @" + name))
	}
	// The two pastes warmed r1 and r15; r2 and r3 are now the coldest, and
	// one call capturing two new names evicts both.
	f.commit(f.mustPlan("CUT 1.=1 @n1\nCUT 2.=2 @n2"))
	for i := range hashline.MaxRegisters {
		name := "r" + strconv.Itoa(i)
		_, err := f.plan("PUT >$ @" + name)
		switch name {
		case "r2", "r3":
			wantCode(t, err, hashline.CodeRegisterEmpty)
		default:
			if err != nil {
				t.Fatalf("@%s: %v", name, err)
			}
		}
	}
	if got := pasteOf(t, f, "r0"); !reflect.DeepEqual(got, []string{"line 17"}) {
		t.Fatalf("@r0 = %q, want the overwrite", got)
	}
}

// TestRegistersGolden plans the ops of each case under testdata/registers
// against its raw text, read whole by a fresh session. A case that succeeds
// may pin new, the planned text, and hunks, one line per Plan.Hunks entry:
// Start-End, then the quoted lines it inserts, if any. A refused one holds
// error: the code, then the exact message where the case pins one. With
// stale, the text another writer then left (docs/contract.md §10.2's proviso
// and docs/contract.md §9.2's sequencing rule): the same ops under the old tag, and under a
// tag the session never saw, fail the same way, never as a tag mismatch and
// never retriable, and the session records nothing. then ops and then error
// are a second call in the same session and how it fails: a failed call, or
// a plan never committed, keeps no capture. Text sections follow caseText.
func TestRegistersGolden(t *testing.T) {
	golden.Run(t, "testdata/registers", 23, func(t *testing.T, g *golden.File) {
		ops := g.Value(t, "ops")
		f := readFixture(t, "f.txt", mustCaseText(t, g, "raw"))
		before := snapshotsOf(f)
		p, err := f.plan(ops)
		if *golden.Update {
			updateRegisterCase(t, g, f, p, err)
			return
		}
		if spec, ok := g.Section("error"); ok {
			stale, isStale := caseText(t, g, "stale")
			check := func(how string, err error) {
				t.Helper()
				he := wantCaseError(t, how, err, spec)
				if isStale && he.Code.Retriable() {
					t.Fatalf("%s%s is retriable", how, he.Code)
				}
			}
			check("tag right: ", err)
			if isStale {
				old := f.live.Tag()
				f.change(stale)
				_, err = f.s.Plan(f.req(string(old), ops), f.live)
				check("stale tag: ", err)
				_, err = f.s.Plan(f.req(otherTag(old), ops), f.live)
				check("unknown tag: ", err)
				if after := snapshotsOf(f); !reflect.DeepEqual(before, after) {
					t.Fatalf("the session changed:\nbefore %v\nafter  %v", before, after)
				}
			}
		} else {
			if err != nil {
				t.Fatalf("Plan(%q): %v", ops, err)
			}
			if want, ok := caseText(t, g, "new"); ok && p.New.Raw() != want {
				t.Fatalf("new text %q, want %q", p.New.Raw(), want)
			}
			if want, ok := g.Section("hunks"); ok && hunksText(p.Hunks) != want {
				t.Fatalf("hunks:\n%swant\n%s", hunksText(p.Hunks), want)
			}
		}
		if then, ok := g.Section("then ops"); ok {
			_, err := f.plan(strings.TrimSuffix(then, "\n"))
			wantCaseError(t, "then: ", err, g.Must(t, "then error"))
		}
	})
}

// hunksText renders Plan.Hunks as a hunks section holds them.
func hunksText(hs []hashline.Hunk) string {
	var b strings.Builder
	for _, h := range hs {
		fmt.Fprintf(&b, "%d-%d", h.Start, h.End)
		if h.Lines != nil {
			fmt.Fprintf(&b, " %q", h.Lines)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// updateRegisterCase writes what the calls brought back into the sections
// a register case pins.
func updateRegisterCase(t *testing.T, g *golden.File, f *editFixture, p *hashline.Plan, err error) {
	t.Helper()
	if spec, ok := g.Section("error"); ok {
		got, _ := gotCaseError(t, err, spec)
		g.Set("error", got)
	} else if err != nil {
		t.Fatalf("%s: the plan now fails: %v", g.Path, err)
	} else {
		if _, ok := caseText(t, g, "new"); ok {
			setCaseText(t, g, "new", p.New.Raw())
		}
		if _, ok := g.Section("hunks"); ok {
			g.Set("hunks", hunksText(p.Hunks))
		}
	}
	if then, ok := g.Section("then ops"); ok {
		_, err := f.plan(strings.TrimSuffix(then, "\n"))
		got, _ := gotCaseError(t, err, g.Must(t, "then error"))
		g.Set("then error", got)
	}
	g.Write(t)
}

// stalePlan plans ops under the tag of a read of raw, after another writer
// changed the file to now.
func stalePlan(t *testing.T, raw, now, ops string) (*editFixture, error) {
	t.Helper()
	f := readFixture(t, "f.txt", raw)
	old := f.live.Tag()
	f.change(now)
	_, err := f.s.Plan(f.req(string(old), ops), f.live)
	return f, err
}

// Once recovery places every anchor of a sequencing mistake, the register
// failure is the ops' own as well.
func TestRegisterSequencingAfterRecovery(t *testing.T) {
	t.Parallel()
	const five = "1\n2\n3\n4\n5\n"
	_, err := stalePlan(t, five, "0\n"+five, "CUT 2.=2\nCUT 4.=4\nPUT >$")
	if he := wantCode(t, err, hashline.CodeRegisterAmbiguous); he.Message != msgTwoWaiting {
		t.Fatalf("message %q", he.Message)
	}
}

// A named capture refused as stale is not the session's: the write never
// happened.
func TestStaleCallKeepsNoCapture(t *testing.T) {
	t.Parallel()
	f, err := stalePlan(t, "1\n2\n3\n4\n5\n", "one\n2\n3\n4\n5\n", "CUT 1.=1 @a")
	wantCode(t, err, hashline.CodeTagMismatch)
	_, err = f.plan("PUT >$ @a")
	wantCode(t, err, hashline.CodeRegisterEmpty)
}
