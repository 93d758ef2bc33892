package hashline_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/internal/golden"
)

// The vectors of docs/contract.md §3.5: the first two are kli's own, so anchors minted
// here agree with anchors kli mints for the same line.
func TestLineHashVectors(t *testing.T) {
	t.Parallel()
	cases := []struct{ line, want string }{
		{"", "c5"},
		{"(defun hello ())", "21"},
		{"def greet(name):", "fb"},
		{`    return f"hello {name}"`, "5d"},
		{"fn main() {", "92"},
		{"}", "14"},
		{"x = 1  ", "05"},
		{"héllo wörld 🎉", "c6"},
	}
	for _, c := range cases {
		if got := hashline.LineHash(c.line); got != c.want {
			t.Errorf("LineHash(%q) = %s, want %s", c.line, got, c.want)
		}
	}
}

// A line's ending is not part of it, but its trailing whitespace is, and a
// file's BOM belongs to no line.
func TestLineHashOfTextLines(t *testing.T) {
	t.Parallel()
	tx := hashline.NewText("\uFEFFdef greet(name):\r\nx = 1  \r\n}")
	for n, want := range map[int]string{1: "fb", 2: "05", 3: "14"} {
		if got := hashline.LineHash(tx.Line(n)); got != want {
			t.Errorf("line %d (%q): hash %s, want %s", n, tx.Line(n), got, want)
		}
	}
	if hashline.LineHash("x = 1") == hashline.LineHash("x = 1  ") {
		t.Error("trailing whitespace does not change the line hash")
	}
}

func TestRenderLineAnchors(t *testing.T) {
	t.Parallel()
	tx := hashline.NewText("def greet(name):\n    return f\"hello {name}\"\n\n")
	tag := string(tx.Tag())
	v := hashline.RenderWindowAs(hashline.AnchorLine, "src/a.py", tx, 1, 100)
	want := "[src/a.py#" + tag + "]\n1:fb|def greet(name):\n2:5d|    return f\"hello {name}\"\n3:c5|\n"
	if v.Content != want {
		t.Fatalf("Content =\n%s\nwant\n%s", v.Content, want)
	}
	if v.Seen.String() != "1-3" || len(v.Clipped) != 0 {
		t.Fatalf("Seen %s Clipped %v", v.Seen, v.Clipped)
	}
	// A window keeps absolute numbers.
	v = hashline.RenderWindowAs(hashline.AnchorLine, "src/a.py", tx, 2, 1)
	if want := "[src/a.py#" + tag + "]\n2:5d|    return f\"hello {name}\"\n"; v.Content != want {
		t.Fatalf("window = %q, want %q", v.Content, want)
	}
	// Tag style is unchanged by the second style's existence.
	if got := hashline.RenderWindowAs(hashline.AnchorTag, "src/a.py", tx, 1, 1).Content; got != "[src/a.py#"+tag+"]\n1:def greet(name):\n" {
		t.Fatalf("tag style = %q", got)
	}
	// grep rows carry the same anchors.
	r := hashline.RenderRowsAs(hashline.AnchorLine, "src/a.py", tx, []int{1, 3}, hashline.MaxLineChars)
	if want := "[src/a.py#" + tag + "]\n1:fb|def greet(name):\n3:c5|\n"; r.Content != want {
		t.Fatalf("rows = %q, want %q", r.Content, want)
	}
	if r.Seen.String() != "1,3" {
		t.Fatalf("rows seen %s", r.Seen)
	}
}

// A clipped row still shows the hash of the whole line, since that is what
// an anchor must match, but the line is left out of what was seen.
func TestRenderLineAnchorsClipped(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", hashline.MaxLineChars+5)
	tx := hashline.NewText("a\n" + long + "\nb\xffc\nz\n")
	tag := string(tx.Tag())
	v := hashline.RenderWindowAs(hashline.AnchorLine, "f.txt", tx, 1, 10)
	rows := strings.Split(strings.TrimSuffix(v.Content, "\n"), "\n")
	if len(rows) != 5 || rows[0] != "[f.txt#"+tag+"]" || rows[1] != "1:"+hashline.LineHash("a")+"|a" || rows[4] != "4:"+hashline.LineHash("z")+"|z" {
		t.Fatalf("rows = %.200q", rows)
	}
	wantLong := "2:" + hashline.LineHash(long) + "|" + strings.Repeat("é", hashline.MaxLineChars) +
		fmt.Sprintf(" … [line 2 clipped: %d of %d characters shown]", hashline.MaxLineChars, hashline.MaxLineChars+5)
	if rows[2] != wantLong {
		t.Fatalf("clipped row = %.80q…%q", rows[2], rows[2][len(rows[2])-60:])
	}
	if want := "3:" + hashline.LineHash("b\xffc") + "|b\uFFFDc … [line 3 is not valid UTF-8"; !strings.HasPrefix(rows[3], want) {
		t.Fatalf("invalid row = %q, want prefix %q", rows[3], want)
	}
	if fmt.Sprint(v.Clipped) != "[2 3]" || v.Seen.String() != "1,4" {
		t.Fatalf("Clipped %v Seen %s", v.Clipped, v.Seen)
	}
	r := hashline.RenderRowsAs(hashline.AnchorLine, "f.txt", tx, []int{2, 4}, hashline.MaxLineChars)
	if fmt.Sprint(r.Clipped) != "[2]" || r.Seen.String() != "4" || !strings.Contains(r.Content, "\n2:"+hashline.LineHash(long)+"|éé") {
		t.Fatalf("rows Clipped %v Seen %s", r.Clipped, r.Seen)
	}
}

func TestParsePatch(t *testing.T) {
	t.Parallel()
	src := "@@ src/a.py\n" +
		"= 1:fb..2:5d\n" +
		"~def greet(person):\n" +
		"~    return f\"hi {person}\"\n" +
		"\n" +
		"+ 3:c5\n" +
		"~\n" +
		"~  ~kept verbatim \n" +
		"- 4:14\n" +
		"@@ b.txt\n" +
		"<\n" +
		"~head\n" +
		"+\n" +
		"~tail\n" +
		"< 2:05\n" +
		"~before two\n" +
		"- 3:14..9:92\n"
	secs, problems := hashline.ParsePatch(src)
	if len(problems) != 0 {
		t.Fatalf("problems: %+v", problems)
	}
	got := describeSections(secs)
	want := "@@ src/a.py (line 1)\n" +
		"= 1:fb..2:5d [def greet(person):|    return f\"hi {person}\"] line 2\n" +
		"+ 3:c5 [|  ~kept verbatim ] line 6\n" +
		"- 4:14 [] line 9\n" +
		"@@ b.txt (line 10)\n" +
		"< start [head] line 11\n" +
		"+ end [tail] line 13\n" +
		"< 2:05 [before two] line 15\n" +
		"- 3:14..9:92 [] line 17\n"
	if got != want {
		t.Fatalf("sections =\n%s\nwant\n%s", got, want)
	}
	// A one-line range names one anchor, as the op's From and To.
	if op := secs[0].Ops[2]; op.From == nil || op.To == nil || *op.From != *op.To {
		t.Fatalf("- 4:14: From %v To %v", op.From, op.To)
	}
}

// CRLF patches split like LF ones: no CR reaches a payload row.
func TestParsePatchCRLF(t *testing.T) {
	t.Parallel()
	secs, problems := hashline.ParsePatch("@@ a.txt\r\n= 1:c5\r\n~x\r\n~\r\n")
	if len(problems) != 0 {
		t.Fatalf("problems: %+v", problems)
	}
	if got := describeSections(secs); got != "@@ a.txt (line 1)\n= 1:c5 [x|] line 2\n" {
		t.Fatalf("sections = %q", got)
	}
}

func describeSections(secs []hashline.PatchSection) string {
	var b strings.Builder
	for _, s := range secs {
		fmt.Fprintf(&b, "@@ %s (line %d)\n", s.Path, s.Line)
		for _, op := range s.Ops {
			where := "start"
			if op.Kind == '+' {
				where = "end"
			}
			if op.From != nil {
				where = op.From.String()
				if *op.To != *op.From {
					where += ".." + op.To.String()
				}
			}
			fmt.Fprintf(&b, "%c %s [%s] line %d\n", op.Kind, where, strings.Join(op.Payload, "|"), op.Line)
		}
	}
	return b.String()
}

// Every syntax problem of a patch, each with the substance of its message:
// what is wrong and what to write instead. The cases are golden files
// under testdata/kli/parse_problems: the patch, the line of its one problem
// (0 for a problem of the whole patch, whose message names no line) and
// what the message must contain, a piece a line. There is no -update: the
// pieces are chosen, not the whole message.
func TestParsePatchProblems(t *testing.T) {
	t.Parallel()
	golden.Run(t, "testdata/kli/parse_problems", 25, func(t *testing.T, g *golden.File) {
		line, err := strconv.Atoi(strings.TrimSpace(g.Must(t, "line")))
		if err != nil {
			t.Fatalf("%s: line: %v", g.Path, err)
		}
		_, problems := hashline.ParsePatch(g.Must(t, "patch"))
		if len(problems) != 1 {
			t.Fatalf("%d problems, want 1: %+v", len(problems), problems)
		}
		p := problems[0]
		if p.Code != hashline.CodeParseFailed || p.Line != line {
			t.Fatalf("problem %+v: want code %s at line %d", p, hashline.CodeParseFailed, line)
		}
		if line > 0 && !strings.HasPrefix(p.Message, fmt.Sprintf("patch line %d: ", line)) {
			t.Errorf("message %q does not name patch line %d", p.Message, line)
		}
		for _, w := range strings.Split(g.Value(t, "want"), "\n") {
			if !strings.Contains(p.Message, w) {
				t.Errorf("message %q lacks %q", p.Message, w)
			}
		}
	})
}

// A patch with many problems reports every one of them, in two files, each
// with its file and line, rather than stopping at the first.
func TestParsePatchGathersEveryProblem(t *testing.T) {
	t.Parallel()
	src := "- 1:c5\n" + // 1: before any header
		"@@ a.txt\n" + // 2
		"  = 1:c5\n" + // 3: indented
		"= 2:c5\n" + // 4: fine
		"~ok\n" + // 5
		"loose text\n" + // 6: not prefixed
		"- 3:c5\n" + // 7
		"~x\n" + // 8: payload under -
		"@@ b.txt\n" + // 9
		"+ 1:c5..2:c5\n" + // 10: range on +
		"- 4:c5..3:c5\n" + // 11: reversed
		"= 5:zz\n" + // 12: bad anchor
		"< 6:c5\n" + // 13: no payload
		"+ 7:c5\n" + // 14
		"~fine\n" // 15
	secs, problems := hashline.ParsePatch(src)
	wantProblems(t, problems, func(p hashline.Problem) string { return fmt.Sprintf("%s:%d", p.Path, p.Line) },
		":1 a.txt:3 a.txt:6 a.txt:8 b.txt:10 b.txt:11 b.txt:12 b.txt:13")
	if len(secs) != 2 || len(secs[0].Ops) != 2 || len(secs[1].Ops) != 2 {
		t.Fatalf("sections %s", describeSections(secs))
	}
	err := hashline.PatchError(problems)
	if err.Code != hashline.CodeParseFailed || len(err.Details.Problems) != 8 {
		t.Fatalf("PatchError %s with %d problems", err.Code, len(err.Details.Problems))
	}
	if !strings.HasPrefix(err.Message, "the patch has 8 problem(s) and nothing was written; 1) ") || !strings.Contains(err.Message, "; 8) ") {
		t.Fatalf("message %q", err.Message)
	}
}

// Payload rows that follow an op that could not be read belong to it: they
// are not a second problem.
func TestParsePatchNoCascade(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"@@ a.txt\n= 5:c5..3:c5\n~x\n~y\n",
		"@@ a.txt\n+ 1:zz\n~x\n",
		"= 1:c5\n~x\n@@ a.txt\n= 1:c5\n~y\n",
	} {
		_, problems := hashline.ParsePatch(src)
		if len(problems) != 1 {
			t.Errorf("%q: %d problems, want 1: %+v", src, len(problems), problems)
		}
	}
}

func TestParsePatchLimits(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("@@ a.txt\n")
	for i := 0; i <= hashline.MaxOpsPerCall; i++ {
		fmt.Fprintf(&b, "+ 1:c5\n~%d\n", i)
	}
	_, problems := hashline.ParsePatch(b.String())
	if len(problems) != 1 || problems[0].Code != hashline.CodeInvalidArgument || !strings.Contains(problems[0].Message, "split it into several patches") {
		t.Fatalf("too many ops: %+v", problems)
	}
	_, problems = hashline.ParsePatch("@@ a.txt\n+ 1:c5\n~" + strings.Repeat("x", hashline.MaxOpsBytes))
	if len(problems) != 1 || problems[0].Code != hashline.CodeInvalidArgument || !strings.Contains(problems[0].Message, "byte limit") {
		t.Fatalf("too large: %+v", problems)
	}
}

// plan parses a one-file patch and plans it against text.
func plan(t *testing.T, text, patch string) (*hashline.Plan, []hashline.Problem) {
	t.Helper()
	secs, problems := hashline.ParsePatch("@@ f.txt\n" + patch)
	if len(problems) != 0 || len(secs) != 1 {
		t.Fatalf("parse %q: %+v", patch, problems)
	}
	return hashline.PlanPatch("/ws/f.txt", "f.txt", secs[0].Ops, hashline.NewText(text))
}

// anchor is LINE:HH for line n of text.
func anchor(text string, n int) string {
	return fmt.Sprintf("%d:%s", n, hashline.LineHash(hashline.NewText(text).Line(n)))
}

func TestPlanPatchApplies(t *testing.T) {
	t.Parallel()
	const five = "one\ntwo\nthree\nfour\nfive\n"
	a := func(n int) string { return anchor(five, n) }
	cases := []struct {
		name, text, patch, want string
	}{
		{"replace a range", five, "= " + a(2) + ".." + a(3) + "\n~TWO\n~THREE\n~2.5\n", "one\nTWO\nTHREE\n2.5\nfour\nfive\n"},
		{"replace one line", five, "= " + a(5) + "\n~FIVE\n", "one\ntwo\nthree\nfour\nFIVE\n"},
		{"delete a range", five, "- " + a(1) + ".." + a(2) + "\n", "three\nfour\nfive\n"},
		{"delete one line", five, "- " + a(5) + "\n", "one\ntwo\nthree\nfour\n"},
		{"insert after", five, "+ " + a(1) + "\n~1.5\n~\n", "one\n1.5\n\ntwo\nthree\nfour\nfive\n"},
		{"insert before", five, "< " + a(1) + "\n~zero\n", "zero\none\ntwo\nthree\nfour\nfive\n"},
		{"bare + appends", five, "+\n~six\n", five + "six\n"},
		{"bare < prepends", five, "<\n~zero\n", "zero\n" + five},
		{"bare + on an empty file", "", "+\n~only\n", "only\n"},
		{"bare < on an empty file", "", "<\n~only\n~two\n", "only\ntwo\n"},
		{"bare + keeps a missing final newline", "a\nb", "+\n~c\n", "a\nb\nc"},
		{"bare < keeps a missing final newline", "a\nb", "<\n~z\n", "z\na\nb"},
		// Inserts at a replaced range's edges land outside it, in order.
		{"inserts at both edges of a range", five,
			"< " + a(2) + "\n~before\n= " + a(2) + ".." + a(3) + "\n~mid\n+ " + a(3) + "\n~after\n",
			"one\nbefore\nmid\nafter\nfour\nfive\n"},
		{"ops written out of order", five,
			"- " + a(5) + "\n= " + a(1) + "\n~ONE\n", "ONE\ntwo\nthree\nfour\n"},
		{"two inserts at one gap keep their order", five,
			"+ " + a(1) + "\n~x\n< " + a(2) + "\n~y\n", "one\nx\ny\ntwo\nthree\nfour\nfive\n"},
		{"adjacent ranges", five,
			"= " + a(1) + ".." + a(2) + "\n~A\n= " + a(3) + ".." + a(4) + "\n~B\n", "A\nB\nfive\n"},
		// CRLF, a BOM and trailing whitespace on untouched lines survive,
		// and new lines take the file's ending.
		{"CRLF and BOM", "\uFEFFdef greet(name):\r\nx = 1  \r\n}\r\n",
			"= 2:05\n~x = 2\n~y = 3\n", "\uFEFFdef greet(name):\r\nx = 2\r\ny = 3\r\n}\r\n"},
		{"BOM with an insert at the start", "\uFEFFa\r\nb\r\n", "<\n~z\n", "\uFEFFz\r\na\r\nb\r\n"},
		{"CRLF without a final newline", "a\r\nb", "- 2:" + hashline.LineHash("b") + "\n", "a"},
		{"trailing whitespace of a kept line", "x = 1  \ny\n", "= 2:" + hashline.LineHash("y") + "\n~Y\n", "x = 1  \nY\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, problems := plan(t, c.text, c.patch)
			if len(problems) != 0 {
				t.Fatalf("problems: %+v", problems)
			}
			if got := p.New.Raw(); got != c.want {
				t.Fatalf("new text %q, want %q", got, c.want)
			}
			if p.Path != "/ws/f.txt" || p.Old.Raw() != c.text {
				t.Fatalf("plan path %q old %q", p.Path, p.Old.Raw())
			}
			if got := hashline.ApplyEdits(c.text, p.Edits); got != c.want {
				t.Fatalf("edits give %q, want %q", got, c.want)
			}
		})
	}
}

func TestPlanPatchProblems(t *testing.T) {
	t.Parallel()
	const five = "one\ntwo\nthree\nfour\nfive\n"
	a := func(n int) string { return anchor(five, n) }
	long := strings.Repeat("x", hashline.MaxLineChars+1)
	withLong := "a\n" + long + "\nc\n"
	cases := []struct {
		name, text, patch string
		code              hashline.Code
		line              int
		want              []string
	}{
		{"stale anchor", five, "= 2:" + hashline.LineHash("TWO") + "\n~2\n", hashline.CodeTagMismatch, 2,
			[]string{"f.txt, patch line 2: ", "anchor 2:" + hashline.LineHash("TWO") + " is stale", "line 2 is now " + a(2)[2:] + "|two", "re-read around line 2"}},
		{"stale range end", five, "- " + a(1) + "..3:" + hashline.LineHash("x") + "\n", hashline.CodeTagMismatch, 2,
			[]string{"anchor 3:" + hashline.LineHash("x") + " is stale", "re-read around line 3"}},
		{"stale one-line range is one problem", five, "- 2:00..2:00\n", hashline.CodeTagMismatch, 2,
			[]string{"anchor 2:00 is stale"}},
		{"anchor past the end", five, "+ 6:c5\n~x\n", hashline.CodeRangeInvalid, 2,
			[]string{"anchor 6:c5 is past the end of the file", "5 lines", "re-read the end of f.txt"}},
		{"anchor on an empty file", "", "- 1:c5\n", hashline.CodeRangeInvalid, 2,
			[]string{"anchor 1:c5 is past the end"}},
		{"overlapping ranges", five, "= " + a(1) + ".." + a(3) + "\n~x\n- " + a(3) + ".." + a(4) + "\n", hashline.CodeRangeInvalid, 4,
			[]string{"overlaps the one at patch line 2", "lines 1-3 and 3-4", "split or merge them"}},
		{"the same line twice", five, "- " + a(2) + "\n= " + a(2) + "\n~x\n", hashline.CodeRangeInvalid, 3,
			[]string{"overlaps"}},
		{"insert after a line inside a range", five, "= " + a(1) + ".." + a(3) + "\n~x\n+ " + a(2) + "\n~y\n", hashline.CodeRangeInvalid, 4,
			[]string{"this insert falls inside the range of patch line 2", "lines 1-3"}},
		{"insert before the last line of a range", five, "- " + a(2) + ".." + a(4) + "\n< " + a(4) + "\n~y\n", hashline.CodeRangeInvalid, 3,
			[]string{"falls inside the range"}},
		{"insert after the first line of a range", five, "+ " + a(2) + "\n~y\n- " + a(2) + ".." + a(3) + "\n", hashline.CodeRangeInvalid, 2,
			[]string{"falls inside the range of patch line 4"}},
		{"replace a line too long to show", withLong, "= 2:" + hashline.LineHash(long) + "\n~short\n", hashline.CodeLinesUnseen, 2,
			[]string{"line 2 is too long", "show it clipped", "hashline_write"}},
		{"delete a line too long to show", withLong, "- 1:" + hashline.LineHash("a") + "..3:" + hashline.LineHash("c") + "\n", hashline.CodeLinesUnseen, 2,
			[]string{"line 2 is too long"}},
		{"replace a line that is not UTF-8", "a\nb\xff\n", "= 2:" + hashline.LineHash("b\xff") + "\n~b\n", hashline.CodeLinesUnseen, 2,
			[]string{"not UTF-8"}},
		{"no change", five, "= " + a(2) + ".." + a(3) + "\n~two\n~three\n", hashline.CodeNoChange, 0,
			[]string{"f.txt: the ops leave the file exactly as it is"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, problems := plan(t, c.text, c.patch)
			if p != nil || len(problems) != 1 {
				t.Fatalf("plan %v, problems %+v: want one problem and no plan", p != nil, problems)
			}
			pr := problems[0]
			if pr.Code != c.code || pr.Line != c.line || pr.Path != "f.txt" {
				t.Fatalf("problem %+v: want %s at f.txt:%d", pr, c.code, c.line)
			}
			for _, w := range c.want {
				if !strings.Contains(pr.Message, w) {
					t.Errorf("message %q lacks %q", pr.Message, w)
				}
			}
		})
	}
}

// Inserting next to a line read could only show clipped is fine: the line
// itself is kept.
func TestPlanPatchInsertBesideClippedLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", hashline.MaxLineChars+1)
	text := "a\n" + long + "\n"
	p, problems := plan(t, text, "+ 2:"+hashline.LineHash(long)+"\n~after\n< 2:"+hashline.LineHash(long)+"\n~before\n")
	if len(problems) != 0 {
		t.Fatalf("problems: %+v", problems)
	}
	if got := p.New.Raw(); got != "a\nbefore\n"+long+"\nafter\n" {
		t.Fatalf("new text %.40q", got)
	}
	// Exactly MaxLineChars characters is shown in full, so it may go.
	edge := strings.Repeat("y", hashline.MaxLineChars)
	p, problems = plan(t, edge+"\n", "- 1:"+hashline.LineHash(edge)+"\n")
	if len(problems) != 0 || p.New.Raw() != "" {
		t.Fatalf("line of exactly the limit: %+v", problems)
	}
}

// Every anchor is checked: all stale and out-of-range anchors of a file are
// reported together, and nothing is planned.
func TestPlanPatchGathersEveryProblem(t *testing.T) {
	t.Parallel()
	const five = "one\ntwo\nthree\nfour\nfive\n"
	a := func(n int) string { return anchor(five, n) }
	_, problems := plan(t, five,
		"= 1:00\n~x\n"+ // 2: stale
			"- "+a(2)+"..9:c5\n"+ // 4: past the end
			"+ 4:00\n~y\n"+ // 5: stale
			"= "+a(3)+".."+a(4)+"\n~z\n"+ // 7: fine alone
			"- "+a(4)+"\n") // 9: overlaps 7
	wantProblems(t, problems, func(p hashline.Problem) string { return fmt.Sprintf("%d:%s", p.Line, p.Code) },
		"2:EDIT_TAG_MISMATCH 4:EDIT_RANGE_INVALID 5:EDIT_TAG_MISMATCH 9:EDIT_RANGE_INVALID")
}

// wantProblems checks that problems, each shown as show says, are want,
// joined by spaces.
func wantProblems(t *testing.T, problems []hashline.Problem, show func(hashline.Problem) string, want string) {
	t.Helper()
	var got []string
	for _, p := range problems {
		got = append(got, show(p))
	}
	if strings.Join(got, " ") != want {
		t.Fatalf("problems %v, want %s: %+v", got, want, problems)
	}
}

// The shown anchors of a read and a patch built from them agree: a patch
// written from read output applies.
func TestPatchFromRenderedAnchors(t *testing.T) {
	t.Parallel()
	text := "def greet(name):\n    return f\"hello {name}\"\n\n"
	v := hashline.RenderWindowAs(hashline.AnchorLine, "f.txt", hashline.NewText(text), 1, 10)
	rows := strings.Split(v.Content, "\n")
	a2 := rows[2][:strings.IndexByte(rows[2], '|')]
	p, problems := plan(t, text, "= "+a2+"\n~    return f\"hi {name}\"\n")
	if len(problems) != 0 || a2 != "2:5d" {
		t.Fatalf("anchor %s problems %+v", a2, problems)
	}
	if got := p.New.Raw(); got != "def greet(name):\n    return f\"hi {name}\"\n\n" {
		t.Fatalf("new text %q", got)
	}
}

func TestPatchErrorOrder(t *testing.T) {
	t.Parallel()
	err := hashline.PatchError([]hashline.Problem{
		{Path: "b.txt", Line: 2, Code: hashline.CodeTagMismatch, Message: "b2"},
		{Path: "a.txt", Line: 9, Code: hashline.CodeRangeInvalid, Message: "a9"},
		{Path: "a.txt", Line: 3, Code: hashline.CodeParseFailed, Message: "a3"},
	})
	if err.Code != hashline.CodeParseFailed {
		t.Fatalf("code %s: want the first problem's, in file and line order", err.Code)
	}
	if want := "the patch has 3 problem(s) and nothing was written; 1) a3; 2) a9; 3) b2"; err.Message != want {
		t.Fatalf("message %q, want %q", err.Message, want)
	}
	if len(err.Details.Problems) != 3 || err.Details.Problems[2].Path != "b.txt" {
		t.Fatalf("details %+v", err.Details.Problems)
	}
}
