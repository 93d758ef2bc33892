package hashline_test

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/internal/golden"
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

// caseText reads a text section of a plan case: as written; or, under
// "name crlf", with every line ending in CR LF; or, under "name quoted",
// as one Go string literal, for a text that does not end in a newline or
// holds a byte order mark.
func caseText(t *testing.T, g *golden.File, name string) (string, bool) {
	t.Helper()
	if s, ok := g.Section(name + " crlf"); ok {
		return strings.ReplaceAll(s, "\n", "\r\n"), true
	}
	if _, ok := g.Section(name + " quoted"); ok {
		return g.Quoted(t, name+" quoted"), true
	}
	return g.Section(name)
}

// mustCaseText is caseText failing t when the case has no such section.
func mustCaseText(t *testing.T, g *golden.File, name string) string {
	t.Helper()
	s, ok := caseText(t, g, name)
	if !ok {
		t.Fatalf("%s has no %q section", g.Path, name)
	}
	return s
}

// wantCaseError checks err against an error section: the code on the first
// line, then the exact message, where the case pins one.
func wantCaseError(t *testing.T, how string, err error, spec string) *hashline.Error {
	t.Helper()
	code, msg, _ := strings.Cut(strings.TrimSuffix(spec, "\n"), "\n")
	he := wantCode(t, err, hashline.Code(code))
	if msg != "" && he.Message != msg {
		t.Fatalf("%smessage =\n%s\nwant\n%s", how, he.Message, msg)
	}
	return he
}

// setCaseText writes text into the text section name of a plan case, in
// the spelling the case already has for it (see caseText).
func setCaseText(t *testing.T, g *golden.File, name, text string) {
	t.Helper()
	if _, ok := g.Section(name + " quoted"); ok {
		g.Set(name+" quoted", strconv.Quote(text)+"\n")
		return
	}
	spelled, plain := name, text
	if _, ok := g.Section(name + " crlf"); ok {
		spelled, plain = name+" crlf", strings.ReplaceAll(text, "\r\n", "\n")
	}
	if strings.ContainsRune(plain, '\r') || plain != "" && !strings.HasSuffix(plain, "\n") ||
		spelled != name && strings.ReplaceAll(plain, "\n", "\r\n") != text {
		t.Fatalf("%s: %q cannot be written as section %q: name it %q", g.Path, text, spelled, name+" quoted")
	}
	g.Set(spelled, plain)
}

// gotCaseError renders err as the error section want spells it: the code,
// and the message where want pins one.
func gotCaseError(t *testing.T, err error, want string) (string, *hashline.Error) {
	t.Helper()
	var he *hashline.Error
	if !errors.As(err, &he) {
		t.Fatalf("error = %v, want an *Error", err)
	}
	if _, msg, _ := strings.Cut(strings.TrimSuffix(want, "\n"), "\n"); msg == "" {
		return string(he.Code) + "\n", he
	}
	return string(he.Code) + "\n" + he.Message + "\n", he
}

// TestApplyGolden plans the ops of each case under testdata/apply against
// its raw text, read whole by a fresh session, and checks the new text or
// the refusal. A case holds raw and ops (read without its last newline),
// then either new, the planned text, or error, the code and the exact
// message, with lines, the Details.Lines of the failure (empty: none). path
// names the file (f.txt when there is none); blocks lists the spans N-M a
// block resolver knows, and resolved the Plan.Resolved it must bring. A text
// section named "raw crlf" or "new crlf" ends every line in CR LF; one named
// "raw quoted" or "new quoted" is a Go string literal.
func TestApplyGolden(t *testing.T) {
	golden.Run(t, "testdata/apply", 69, func(t *testing.T, g *golden.File) {
		raw, ops := mustCaseText(t, g, "raw"), g.Value(t, "ops")
		path := "f.txt"
		if s, ok := g.Section("path"); ok {
			path = strings.TrimSuffix(s, "\n")
		}
		f := readFixture(t, path, raw)
		var fb *fakeBlocks
		if spans, ok := g.Section("blocks"); ok {
			fb = &fakeBlocks{spans: map[int][2]int{}}
			for _, span := range strings.Fields(spans) {
				var n, m int
				if _, err := fmt.Sscanf(span, "%d-%d", &n, &m); err != nil {
					t.Fatalf("%s: span %q: %v", g.Path, span, err)
				}
				fb.spans[n] = [2]int{n, m}
			}
			f.blocks = fb
		}
		p, err := f.plan(ops)
		if *golden.Update {
			updateApplyCase(t, g, p, err, fb != nil)
			return
		}
		if spec, ok := g.Section("error"); ok {
			he := wantCaseError(t, "", err, spec)
			if lines, ok := g.Section("lines"); ok {
				var want []int
				for _, l := range strings.Fields(lines) {
					n, err := strconv.Atoi(l)
					if err != nil {
						t.Fatalf("%s: lines: %v", g.Path, err)
					}
					want = append(want, n)
				}
				if !reflect.DeepEqual(he.Details.Lines, want) {
					t.Fatalf("Details.Lines = %v, want %v", he.Details.Lines, want)
				}
			}
			return
		}
		if err != nil {
			t.Fatalf("Plan(%q): %v", ops, err)
		}
		want := mustCaseText(t, g, "new")
		if p.New.Raw() != want {
			t.Fatalf("new text = %q, want %q", p.New.Raw(), want)
		}
		if fb == nil {
			if p.Old != f.live || hashline.ApplyEdits(raw, p.Edits) != want {
				t.Fatalf("Old is not the live text, or Edits do not produce New")
			}
			return
		}
		if got := resolvedText(p.Resolved); got != g.Must(t, "resolved") {
			t.Fatalf("Resolved:\n%swant\n%s", got, g.Must(t, "resolved"))
		}
		// The resolver sees the normalized text and the store's path.
		if fb.path != path || fb.text != f.live.Normalized() {
			t.Fatalf("resolver got path %q text %q", fb.path, fb.text)
		}
	})
}

// resolvedText renders Plan.Resolved as a resolved section holds it.
func resolvedText(rs []hashline.Resolved) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%+v\n", r)
	}
	return b.String()
}

// updateApplyCase writes what the plan brought back into an apply case:
// the new text, or the refusal and its lines. A case whose plan turned
// from one to the other is rewritten by hand.
func updateApplyCase(t *testing.T, g *golden.File, p *hashline.Plan, err error, blocks bool) {
	t.Helper()
	spec, refused := g.Section("error")
	switch {
	case refused:
		got, he := gotCaseError(t, err, spec)
		g.Set("error", got)
		if _, ok := g.Section("lines"); ok {
			var b strings.Builder
			for i, l := range he.Details.Lines {
				if i > 0 {
					b.WriteString(" ")
				}
				b.WriteString(strconv.Itoa(l))
			}
			if len(he.Details.Lines) > 0 {
				b.WriteString("\n")
			}
			g.Set("lines", b.String())
		}
	case err == nil:
		setCaseText(t, g, "new", p.New.Raw())
		if blocks {
			g.Set("resolved", resolvedText(p.Resolved))
		}
	default:
		t.Fatalf("%s: the plan now fails: %v", g.Path, err)
	}
	g.Write(t)
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
