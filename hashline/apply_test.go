package hashline_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

// editFixture is one file in one session, as the edge would drive it: the
// live text, and a session that has read it.
type editFixture struct {
	t       *testing.T
	s       *hashline.Session
	path    string
	live    *hashline.Text
	display string
	blocks  hashline.BlockResolver
}

// readFixture returns a fixture whose session read all of raw at path.
func readFixture(t *testing.T, path, raw string) *editFixture {
	t.Helper()
	return readIn(t, hashline.NewSession(), path, raw)
}

// readIn is readFixture in the session s.
func readIn(t *testing.T, s *hashline.Session, path, raw string) *editFixture {
	t.Helper()
	f := &editFixture{t: t, s: s, path: path, display: path, live: hashline.NewText(raw)}
	f.s.Read(path, path, f.live, 1, f.live.Len()+1)
	return f
}

func (f *editFixture) req(tag, ops string) hashline.EditRequest {
	return hashline.EditRequest{Path: f.path, Display: f.display, Names: []string{f.display}, Tag: tag, Ops: ops, Blocks: f.blocks}
}

// plan proposes ops against the live text under its own tag.
func (f *editFixture) plan(ops string) (*hashline.Plan, error) {
	return f.s.Plan(f.req(string(f.live.Tag()), ops), f.live)
}

func (f *editFixture) mustPlan(ops string) *hashline.Plan {
	f.t.Helper()
	p, err := f.plan(ops)
	if err != nil {
		f.t.Fatalf("Plan(%q): %v", ops, err)
	}
	return p
}

// commit writes a plan as the edge would, with the intended text landing.
func (f *editFixture) commit(p *hashline.Plan) {
	f.s.Commit(p, f.path, p.New)
	f.live = p.New
}

// mustCommit plans ops, fails the test unless they make want, and commits
// the plan.
func (f *editFixture) mustCommit(ops, want string) {
	f.t.Helper()
	p := f.mustPlan(ops)
	if p.New.Raw() != want {
		f.t.Fatalf("after %q: new text %q, want %q", ops, p.New.Raw(), want)
	}
	f.commit(p)
}

// change replaces the live text behind the session's back, as another
// writer would.
func (f *editFixture) change(raw string) { f.live = hashline.NewText(raw) }

type applyCase struct {
	name string
	raw  string
	ops  string
	want string // the new raw text, when the plan succeeds
	code hashline.Code
	msg  string // the exact message, when it fails
	// lines are Details.Lines of the failure.
	lines []int
}

func runApplyCases(t *testing.T, cases []applyCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := readFixture(t, "f.txt", c.raw)
			p, err := f.plan(c.ops)
			if c.code == "" {
				if err != nil {
					t.Fatalf("Plan(%q): %v", c.ops, err)
				}
				if p.New.Raw() != c.want {
					t.Fatalf("new text = %q, want %q", p.New.Raw(), c.want)
				}
				if p.Old != f.live || hashline.ApplyEdits(c.raw, p.Edits) != c.want {
					t.Fatalf("Old is not the live text, or Edits do not produce New")
				}
				return
			}
			he := wantCode(t, err, c.code)
			if he.Message != c.msg {
				t.Fatalf("message =\n%s\nwant\n%s", he.Message, c.msg)
			}
			if !reflect.DeepEqual(he.Details.Lines, c.lines) {
				t.Fatalf("Details.Lines = %v, want %v", he.Details.Lines, c.lines)
			}
		})
	}
}

func TestApplyRangesAndGaps(t *testing.T) {
	t.Parallel()
	const abc = "a\nb\nc\n"
	runApplyCases(t, []applyCase{
		{name: "replace one line", raw: abc, ops: "PUT 2.=2:\n+B", want: "a\nB\nc\n"},
		{name: "replace a range with more lines", raw: abc, ops: "PUT 2.=3:\n+x\n+y\n+z", want: "a\nx\ny\nz\n"},
		{name: "replace a range with fewer lines", raw: abc, ops: "PUT 1.=3:\n+only", want: "only\n"},
		{name: "replace with an empty line", raw: abc, ops: "PUT 2.=2:\n+", want: "a\n\nc\n"},
		{name: "insert before a line", raw: abc, ops: "PUT <2:\n+x", want: "a\nx\nb\nc\n"},
		{name: "insert after a line", raw: abc, ops: "PUT >2:\n+x", want: "a\nb\nx\nc\n"},
		{name: "insert after the last line", raw: abc, ops: "PUT >3:\n+x", want: "a\nb\nc\nx\n"},
		{name: "append at the end", raw: abc, ops: "PUT >$:\n+x\n+y", want: "a\nb\nc\nx\ny\n"},
		{name: "insert at the head", raw: abc, ops: "PUT <1:\n+x", want: "x\na\nb\nc\n"},
		{name: "cut deletes", raw: abc, ops: "CUT 2.=3", want: "a\n"},
		{name: "cut every line", raw: abc, ops: "CUT 1.=3", want: ""},
		{name: "body rows keep + and - literals", raw: abc, ops: "PUT 2.=2:\n++x\n+-y\n+  z", want: "a\n+x\n-y\n  z\nc\n"},
		{name: "<1 on an empty file", raw: "", ops: "PUT <1:\n+x", want: "x\n"},
		{name: ">$ on an empty file", raw: "", ops: "PUT >$:\n+x\n+y", want: "x\ny\n"},
		// On an empty file the head and the end are one gap, so written
		// order decides.
		{name: ">$ then <1 on an empty file", raw: "", ops: "PUT >$:\n+end\nPUT <1:\n+head", want: "end\nhead\n"},
		{name: "<1 on a BOM-only file keeps the BOM", raw: bom, ops: "PUT <1:\n+x", want: bom + "x\n"},
		{name: ">$ on a file without final newline", raw: "a\nb", ops: "PUT >$:\n+c", want: "a\nb\nc"},
		{name: "CUT of the last line of a file without final newline", raw: "a\nb", ops: "CUT 2.=2", want: "a"},
		{name: "new lines take the dominant ending", raw: "a\r\nb\r\n", ops: "PUT >1:\n+x", want: "a\r\nx\r\nb\r\n"},
		{name: "ops use original numbers", raw: "1\n2\n3\n4\n5\n",
			ops: "PUT 1.=1:\n+one\n+uno\nCUT 3.=3\nPUT >5:\n+six\nPUT <4:\n+three-and-a-half", want: "one\nuno\n2\nthree-and-a-half\n4\n5\nsix\n"},
		{name: "ops in any written order", raw: "1\n2\n3\n4\n5\n",
			ops: "PUT >5:\n+six\nCUT 3.=3\nPUT 1.=1:\n+one", want: "one\n2\n4\n5\nsix\n"},
		{name: "inserts at one gap keep written order (>N then <N+1)", raw: abc,
			ops: "PUT >2:\n+x\nPUT <3:\n+y", want: "a\nb\nx\ny\nc\n"},
		{name: "inserts at one gap keep written order (<N+1 then >N)", raw: abc,
			ops: "PUT <3:\n+y\nPUT >2:\n+x", want: "a\nb\ny\nx\nc\n"},
		{name: "two head inserts keep written order", raw: abc,
			ops: "PUT <1:\n+1\nPUT <1:\n+2", want: "1\n2\na\nb\nc\n"},
		{name: "two end inserts keep written order", raw: abc,
			ops: "PUT >$:\n+1\nPUT >$:\n+2", want: "a\nb\nc\n1\n2\n"},
		// The gap before line N lies before a replacement of N.=M however
		// the ops are ordered.
		{name: "gap insert before a replacement written after it", raw: "a\nb\nc\nd\n",
			ops: "PUT 2.=3:\n+X\nPUT >1:\n+Y", want: "a\nY\nX\nd\n"},
		{name: "head insert before a replacement of line 1", raw: abc,
			ops: "PUT 1.=1:\n+A\nPUT <1:\n+H", want: "H\nA\nb\nc\n"},
		{name: "adjacent ops on neighbouring lines", raw: abc,
			ops: "PUT 1.=1:\n+A\nPUT 2.=2:\n+B\nCUT 3.=3", want: "A\nB\n"},
	})
}

func TestApplyRangeErrors(t *testing.T) {
	t.Parallel()
	const abc = "a\nb\nc\n"
	runApplyCases(t, []applyCase{
		{name: "overlapping ranges", raw: "1\n2\n3\n4\n", ops: "PUT 2.=3:\n+x\nCUT 3.=4", code: hashline.CodeRangeInvalid, lines: []int{3},
			msg: "op 1 (PUT 2.=3:) and op 2 (CUT 3.=4) both touch line 3: ops may not overlap or share an anchor; merge them into one op"},
		{name: "duplicate gap anchor", raw: abc, ops: "PUT >2:\n+x\nPUT >2:\n+y", code: hashline.CodeRangeInvalid, lines: []int{2},
			msg: "op 1 (PUT >2:) and op 2 (PUT >2:) both touch line 2: ops may not overlap or share an anchor; merge them into one op"},
		{name: "gap anchored on a replaced line", raw: abc, ops: "PUT 2.=2:\n+x\nPUT >2:\n+y", code: hashline.CodeRangeInvalid, lines: []int{2},
			msg: "op 1 (PUT 2.=2:) and op 2 (PUT >2:) both touch line 2: ops may not overlap or share an anchor; merge them into one op"},
		{name: "before-gap anchored on a cut line", raw: abc, ops: "PUT <3:\n+y\nCUT 3.=3", code: hashline.CodeRangeInvalid, lines: []int{3},
			msg: "op 1 (PUT <3:) and op 2 (CUT 3.=3) both touch line 3: ops may not overlap or share an anchor; merge them into one op"},
		{name: "same range twice", raw: abc, ops: "CUT 1.=1\nCUT 1.=1", code: hashline.CodeRangeInvalid, lines: []int{1},
			msg: "op 1 (CUT 1.=1) and op 2 (CUT 1.=1) both touch line 1: ops may not overlap or share an anchor; merge them into one op"},
		{name: "reversed range", raw: abc, ops: "PUT 3.=2:\n+x", code: hashline.CodeRangeInvalid, lines: []int{3, 2},
			msg: "op 1 (PUT 3.=2:): range 3.=2 is reversed: write 2.=3"},
		{name: "range past the end", raw: abc, ops: "PUT 4.=4:\n+x", code: hashline.CodeRangeInvalid, lines: []int{4},
			msg: "op 1 (PUT 4.=4:): line 4 is past the end of the file (3 lines): to add lines after the last one use PUT >$:"},
		{name: "range ending past the end", raw: abc, ops: "CUT 2.=5", code: hashline.CodeRangeInvalid, lines: []int{5},
			msg: "op 1 (CUT 2.=5): line 5 is past the end of the file (3 lines): the last line is 3, so write 2.=3, and add new lines with PUT >$:"},
		{name: "gap after a line past the end", raw: abc, ops: "PUT >4:\n+x", code: hashline.CodeRangeInvalid, lines: []int{4},
			msg: "op 1 (PUT >4:): line 4 is past the end of the file (3 lines): to add lines at the end use PUT >$:"},
		{name: "gap before a line past the end", raw: abc, ops: "PUT <4:\n+x", code: hashline.CodeRangeInvalid, lines: []int{4},
			msg: "op 1 (PUT <4:): line 4 is past the end of the file (3 lines): to add lines at the end use PUT >$:"},
		{name: "one-line file says 1 line", raw: "a\n", ops: "PUT >2:\n+x", code: hashline.CodeRangeInvalid, lines: []int{2},
			msg: "op 1 (PUT >2:): line 2 is past the end of the file (1 line): to add lines at the end use PUT >$:"},
		{name: "any line of an empty file", raw: "", ops: "CUT 1.=1", code: hashline.CodeRangeInvalid, lines: []int{1},
			msg: "op 1 (CUT 1.=1): line 1 is past the end of the file (0 lines): to add lines after the last one use PUT >$:"},
		{name: "gap after line 1 of an empty file", raw: "", ops: "PUT >1:\n+x", code: hashline.CodeRangeInvalid, lines: []int{1},
			msg: "op 1 (PUT >1:): line 1 is past the end of the file (0 lines): to add lines at the end use PUT >$:"},
		{name: "block past the end is a range error before resolution", raw: abc, ops: "PUT 9*:\n+x", code: hashline.CodeRangeInvalid, lines: []int{9},
			msg: "op 1 (PUT 9*:): line 9 is past the end of the file (3 lines): name a line from 1 to 3"},
	})
}

func TestApplyNoChange(t *testing.T) {
	t.Parallel()
	const tail = "so nothing was written: if a change was intended, compare the + rows with the lines as read; otherwise the file already holds this text"
	runApplyCases(t, []applyCase{
		{name: "PUT restating the same line", raw: "a\nb\nc\n", ops: "PUT 2.=2:\n+b", code: hashline.CodeNoChange, lines: []int{2},
			msg: "the ops leave lines 2 exactly as they are, " + tail},
		{name: "PUT restating a whole range", raw: "a\nb\nc\n", ops: "PUT 1.=3:\n+a\n+b\n+c", code: hashline.CodeNoChange, lines: []int{1, 2, 3},
			msg: "the ops leave lines 1-3 exactly as they are, " + tail},
		{name: "cut and paste back in place", raw: "a\nb\nc\n", ops: "CUT 2.=2\nPUT <3", code: hashline.CodeNoChange, lines: []int{2, 3},
			msg: "the ops leave lines 2-3 exactly as they are, " + tail},
		{name: "copy inserted above, original cut below", raw: "a\na\n", ops: "PUT <1:\n+a\nCUT 2.=2", code: hashline.CodeNoChange, lines: []int{2},
			msg: "the ops leave lines 2 exactly as they are, " + tail},
		{name: "restating with CRLF endings", raw: "a\r\nb\r\n", ops: "PUT 1.=2:\n+a\n+b", code: hashline.CodeNoChange, lines: []int{1, 2},
			msg: "the ops leave lines 1-2 exactly as they are, " + tail},
	})
}

// A restated line at either end of a range is not rewritten: its bytes,
// ending and trailing whitespace included, stay, so editors see the smallest
// change and undo restores exactly.
func TestApplyHunkTrimming(t *testing.T) {
	t.Parallel()
	raw := "a \r\nb\r\nc\rd\r\n"
	f := readFixture(t, "f.txt", raw)
	p := f.mustPlan("PUT 1.=3:\n+a \n+B\n+c")
	if want := "a \r\nB\r\nc\rd\r\n"; p.New.Raw() != want {
		t.Fatalf("new text = %q, want %q", p.New.Raw(), want)
	}
	wantHunks := []hashline.Hunk{{Start: 1, End: 2, Lines: []string{"B"}}}
	if !reflect.DeepEqual(p.Hunks, wantHunks) {
		t.Fatalf("Hunks = %+v, want %+v", p.Hunks, wantHunks)
	}
	wantEdits := []hashline.ByteEdit{{Start: 4, End: 7, New: "B\r\n"}}
	if !reflect.DeepEqual(p.Edits, wantEdits) {
		t.Fatalf("Edits = %+v, want %+v", p.Edits, wantEdits)
	}

	// Restating the last line of a file without final newline leaves it
	// without one.
	f = readFixture(t, "g.txt", "a\nb")
	p = f.mustPlan("PUT 1.=2:\n+A\n+b")
	if p.New.Raw() != "A\nb" || !reflect.DeepEqual(p.Edits, []hashline.ByteEdit{{Start: 0, End: 2, New: "A\n"}}) {
		t.Fatalf("new text %q, Edits %+v; want \"A\\nb\" and one edit of line 1", p.New.Raw(), p.Edits)
	}

	// A restatement that drops trailing whitespace is a change: the model
	// wrote different text than the read showed.
	f = readFixture(t, "h.txt", "a  \nb\n")
	p = f.mustPlan("PUT 1.=2:\n+a\n+B")
	if p.New.Raw() != "a\nB\n" {
		t.Fatalf("new text %q, want %q", p.New.Raw(), "a\nB\n")
	}
}

func TestApplyRegisters(t *testing.T) {
	t.Parallel()
	const five = "1\n2\n3\n4\n5\n"
	runApplyCases(t, []applyCase{
		{name: "cut and anonymous paste", raw: five, ops: "CUT 1.=2\nPUT >4", want: "3\n4\n1\n2\n5\n"},
		{name: "anonymous paste at the end", raw: five, ops: "CUT 2.=3\nPUT >$", want: "1\n4\n5\n2\n3\n"},
		{name: "anonymous paste pasted twice", raw: five, ops: "CUT 1.=1\nPUT >3\nPUT >$", want: "2\n3\n1\n4\n5\n1\n"},
		{name: "named capture pasted over a range", raw: five, ops: "CUT 1.=1 @a\nPUT 4.=5 @a", want: "2\n3\n1\n"},
		{name: "named capture pasted at the head", raw: five, ops: "CUT 5.=5 @last\nPUT <1 @last", want: "5\n1\n2\n3\n4\n"},
		{name: "named and anonymous in one call", raw: five, ops: "CUT 1.=1 @a\nCUT 2.=2\nPUT >5 @a\nPUT >4", want: "3\n4\n2\n5\n1\n"},
		{name: "two anonymous cuts each pasted in turn", raw: five, ops: "CUT 1.=1\nPUT >3\nCUT 2.=2\nPUT >5", want: "3\n1\n4\n5\n2\n"},
		{name: "anonymous paste before any capture", raw: five, ops: "PUT >4\nCUT 1.=1", code: hashline.CodeRegisterEmpty,
			msg: "op 1 (PUT >4) pastes before any capture: the anonymous register lives for one call, so write the CUT above the paste in the same ops"},
		{name: "named paste before its capture", raw: five, ops: "PUT >4 @a\nCUT 1.=1 @a", code: hashline.CodeRegisterEmpty,
			msg: "op 1 (PUT >4 @a) pastes @a before op 2 captures it: ops run in the order written, so put CUT 1.=1 @a before the paste"},
		{name: "two anonymous cuts then paste", raw: five, ops: "CUT 1.=1\nCUT 3.=3\nPUT >5", code: hashline.CodeRegisterAmbiguous,
			msg: "op 3 (PUT >5) pastes the anonymous register while 2 CUTs wait in it: name each capture, as in CUT 3.=9 @a and PUT >20 @a"},
		{name: "unknown register", raw: five, ops: "PUT >1 @nope", code: hashline.CodeRegisterEmpty,
			msg: "op 1 (PUT >1 @nope): register @nope is empty in this session: capture into it first with CUT N.=M @nope (in this call or an earlier one)"},
		// The failed read leaves no orphan deletes: nothing is planned.
		{name: "span paste from an empty register", raw: five, ops: "PUT 2.=3 @nope", code: hashline.CodeRegisterEmpty,
			msg: "op 1 (PUT 2.=3 @nope): register @nope is empty in this session: capture into it first with CUT N.=M @nope (in this call or an earlier one)"},
	})
}

// Named registers live in the session (docs/contract.md §9.1): a capture committed on one
// file pastes into another; a capture never committed does not exist.
func TestNamedRegistersAcrossCalls(t *testing.T) {
	t.Parallel()
	src := readFixture(t, "src.go", "package a\n\nfunc F() {}\n")
	p := src.mustPlan("CUT 3.=3 @fn")
	if p.New.Raw() != "package a\n\n" {
		t.Fatalf("source after CUT = %q", p.New.Raw())
	}

	// Before the commit the capture is not the session's.
	dst := readIn(t, src.s, "dst.go", "package b\n")
	_, err := dst.plan("PUT >$ @fn")
	wantCode(t, err, hashline.CodeRegisterEmpty)

	src.commit(p)
	got := dst.mustPlan("PUT >$ @fn")
	if got.New.Raw() != "package b\nfunc F() {}\n" {
		t.Fatalf("destination = %q, want %q", got.New.Raw(), "package b\nfunc F() {}\n")
	}
	dst.commit(got)
	// A register is captured content, not a live reference: removing the
	// source changes nothing.
	rem := src.mustPlan("REM")
	src.s.Commit(rem, "src.go", nil)
	again := dst.mustPlan("PUT <1 @fn")
	if again.New.Raw() != "func F() {}\npackage b\nfunc F() {}\n" {
		t.Fatalf("second paste = %q", again.New.Raw())
	}
}

func TestAmplificationLimit(t *testing.T) {
	t.Parallel()
	const msg = "the ops expand to more than 100000 inserted and deleted lines: split the change into several edit calls, or use write to replace the whole file"
	rows := func(n int) string { return "PUT >$:\n" + strings.Repeat("+\n", n) }
	t.Run("100000 inserted lines", func(t *testing.T) {
		t.Parallel()
		f := readFixture(t, "f", "a\n")
		p := f.mustPlan(rows(hashline.MaxIRLines))
		if p.New.Len() != 100001 {
			t.Fatalf("new text has %d lines, want 100001", p.New.Len())
		}
	})
	t.Run("100001 inserted lines", func(t *testing.T) {
		t.Parallel()
		f := readFixture(t, "f", "a\n")
		_, err := f.plan(rows(hashline.MaxIRLines + 1))
		he := wantCode(t, err, hashline.CodeAmplificationLimit)
		if he.Message != msg || he.Details.Limit != 100000 {
			t.Fatalf("message %q limit %d", he.Message, he.Details.Limit)
		}
	})
	// Pastes multiply a capture; the limit holds after expansion too.
	t.Run("pastes past the limit", func(t *testing.T) {
		t.Parallel()
		f := readFixture(t, "f", strings.Repeat("x\n", 4096))
		ops := "CUT 1.=4096 @a\n" + strings.Repeat("PUT >$ @a\n", 24)
		_, err := f.plan(ops)
		he := wantCode(t, err, hashline.CodeAmplificationLimit)
		if he.Message != msg {
			t.Fatalf("message %q", he.Message)
		}
	})
	t.Run("pastes at the limit", func(t *testing.T) {
		t.Parallel()
		// 1000 deleted + 99 pastes of 1000 lines = 100000.
		f := readFixture(t, "f", strings.Repeat("x\n", 1000)+"end\n")
		ops := "CUT 1.=1000 @a\n" + strings.Repeat("PUT >$ @a\n", 99)
		p := f.mustPlan(ops)
		if p.New.Len() != 1+99*1000 {
			t.Fatalf("new text has %d lines, want %d", p.New.Len(), 1+99*1000)
		}
	})
}

// fakeBlocks resolves the spans it was given and declines the rest.
type fakeBlocks struct {
	spans map[int][2]int
	// seen records the calls, to check what the resolver is handed.
	path, text string
}

func (b *fakeBlocks) ResolveBlock(path, text string, line int) (hashline.Span, error) {
	b.path, b.text = path, text
	if s, ok := b.spans[line]; ok {
		return hashline.Span{Start: s[0], End: s[1]}, nil
	}
	return hashline.Span{}, fmt.Errorf("line %d opens no block", line)
}

func TestBlockLocators(t *testing.T) {
	t.Parallel()
	const src = "package a\r\n\r\nfunc F() {\r\n\treturn\r\n}\r\n\r\nfunc G() {}\r\n"
	cases := []struct {
		name     string
		ops      string
		nilBlock bool
		want     string
		resolved []hashline.Resolved
		msg      string
	}{
		{name: "PUT N*: declines without a resolver", ops: "PUT 3*:\n+x", nilBlock: true,
			msg: "op 1 (PUT 3*:): block locators are not available for this file; name the lines instead: PUT 3.=M: with M the block's last line"},
		{name: "CUT N* declines without a resolver", ops: "CUT 3* @f", nilBlock: true,
			msg: "op 1 (CUT 3* @f): block locators are not available for this file; name the lines instead: CUT 3.=M with M the block's last line"},
		{name: "PUT >N*: declines without a resolver", ops: "PUT >3*:\n+x", nilBlock: true,
			msg: "op 1 (PUT >3*:): block locators are not available for this file; name the gap instead: PUT >M: with M the block's last line"},
		{name: "paste over a block declines without a resolver", ops: "CUT 7.=7 @g\nPUT 3* @g", nilBlock: true,
			msg: "op 2 (PUT 3* @g): block locators are not available for this file; name the lines instead: PUT 3.=M: with M the block's last line"},
		{name: "resolver declines with its reason", ops: "PUT 4*:\n+x",
			msg: "op 1 (PUT 4*:): line 4 opens no block; name the lines instead: PUT 4.=M: with M the block's last line"},
		{name: "PUT N*: replaces the block", ops: "PUT 3*:\n+func F() {}",
			want:     "package a\r\n\r\nfunc F() {}\r\n\r\nfunc G() {}\r\n",
			resolved: []hashline.Resolved{{AnchorLine: 3, Start: 3, End: 5, Op: "PUT 3*:"}}},
		{name: "PUT >N*: inserts after the block", ops: "PUT >3*:\n+\n+func H() {}",
			want:     "package a\r\n\r\nfunc F() {\r\n\treturn\r\n}\r\n\r\nfunc H() {}\r\n\r\nfunc G() {}\r\n",
			resolved: []hashline.Resolved{{AnchorLine: 3, Start: 3, End: 5, Op: "PUT >3*:"}}},
		{name: "CUT N* then paste", ops: "CUT 3* @f\nPUT >$ @f",
			want:     "package a\r\n\r\n\r\nfunc G() {}\r\nfunc F() {\r\n\treturn\r\n}\r\n",
			resolved: []hashline.Resolved{{AnchorLine: 3, Start: 3, End: 5, Op: "CUT 3* @f"}}},
		{name: "resolved block overlaps another op", ops: "PUT 3*:\n+x\nCUT 5.=5",
			msg: "op 1 (PUT 3*:) and op 2 (CUT 5.=5) both touch line 5: ops may not overlap or share an anchor; merge them into one op"},
		{name: "impossible span from the resolver", ops: "PUT 7*:\n+x",
			msg: "op 1 (PUT 7*:): line 7 resolved to an impossible span 7-9; name the lines instead: PUT 7.=M: with M the block's last line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := readFixture(t, "a.go", src)
			fb := &fakeBlocks{spans: map[int][2]int{3: {3, 5}, 7: {7, 9}}}
			if !c.nilBlock {
				f.blocks = fb
			}
			p, err := f.plan(c.ops)
			if c.msg != "" {
				var he *hashline.Error
				if c.nilBlock || strings.Contains(c.msg, "block") {
					he = wantCode(t, err, hashline.CodeBlockUnresolved)
				} else {
					he = wantCode(t, err, hashline.CodeRangeInvalid)
				}
				if he.Message != c.msg {
					t.Fatalf("message =\n%s\nwant\n%s", he.Message, c.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			if p.New.Raw() != c.want {
				t.Fatalf("new text = %q, want %q", p.New.Raw(), c.want)
			}
			if !reflect.DeepEqual(p.Resolved, c.resolved) {
				t.Fatalf("Resolved = %+v, want %+v", p.Resolved, c.resolved)
			}
			// The resolver sees the normalized text and the store's path.
			if fb.path != "a.go" || fb.text != f.live.Normalized() {
				t.Fatalf("resolver got path %q text %q", fb.path, fb.text)
			}
		})
	}
}

// A block's provenance covers every line it consumes, not only its opener.
func TestBlockNeedsEveryLineSeen(t *testing.T) {
	t.Parallel()
	live := hashline.NewText("a\nfunc F() {\n\tx\n}\n")
	s := hashline.NewSession()
	s.Read("a.go", "a.go", live, 1, 2)
	_, err := s.Plan(hashline.EditRequest{Path: "a.go", Display: "a.go", Tag: string(live.Tag()), Ops: "PUT 2*:\n+func F() {}",
		Blocks: &fakeBlocks{spans: map[int][2]int{2: {2, 4}}}}, live)
	he := wantCode(t, err, hashline.CodeLinesUnseen)
	if !reflect.DeepEqual(he.Details.Lines, []int{3, 4}) {
		t.Fatalf("Details.Lines = %v, want [3 4]", he.Details.Lines)
	}
}

func TestBlockParseLimit(t *testing.T) {
	t.Parallel()
	raw := "func F() {\n}\n" + strings.Repeat("x", hashline.MaxBlockParse)
	live := hashline.NewText(raw)
	s := hashline.NewSession()
	_, err := s.Plan(hashline.EditRequest{Path: "a.go", Display: "a.go", Tag: string(live.Tag()), Ops: "PUT 1*:\n+x",
		Blocks: &fakeBlocks{spans: map[int][2]int{1: {1, 2}}}, Stateless: true}, live)
	he := wantCode(t, err, hashline.CodeBlockUnresolved)
	if he.Message != "op 1 (PUT 1*:): the file is over the 4 MiB block-parse limit; name the lines instead: PUT 1.=M: with M the block's last line" {
		t.Fatalf("message = %s", he.Message)
	}
}
