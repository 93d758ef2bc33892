package hashline_test

import (
	"strings"
	"testing"

	"hashline-ls/hashline"
)

const bom = "\uFEFF"

// The vectors are docs/contract.md §3.5's: other implementations (the editor plugins,
// kli) must mint the same tags, so they are pinned here literally.
func TestTagVectors(t *testing.T) {
	t.Parallel()
	greet := "def greet(name):\n    return f\"hello {name}\"\n\n"
	cases := []struct {
		name, raw string
		want      hashline.Tag
	}{
		{"empty", "", "B855"},
		{"a newline", "a\n", "25C7"},
		{"a", "a", "48BB"},
		{"rust main", "fn main() {\n    println!(\"hi\");\n}\n", "DF07"},
		{"python greet", greet, "15E4"},
		{"python greet CRLF", strings.ReplaceAll(greet, "\n", "\r\n"), "15E4"},
		{"python greet trailing spaces on line 1", strings.Replace(greet, "(name):", "(name):   ", 1), "15E4"},
		{"python greet BOM", bom + greet, "15E4"},
		// docs/contract.md §3.2 removes [ \t\r] at every line end, the last one too.
		{"python greet trailing tab, lone CR endings", strings.ReplaceAll(strings.Replace(greet, "(name):", "(name):\t", 1), "\n", "\r"), "15E4"},
		{"a with trailing blanks, no final newline", "a \t", "48BB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := hashline.TagOf(c.raw); got != c.want {
				t.Fatalf("TagOf(%q) = %s, want %s", c.raw, got, c.want)
			}
			if got := hashline.NewText(c.raw).Tag(); got != c.want {
				t.Fatalf("NewText(%q).Tag() = %s, want %s", c.raw, got, c.want)
			}
		})
	}
}

// Trailing whitespace and endings are set aside by the digest, but nothing
// else is: a changed character, an added blank line or a lost final newline
// each make a different version.
func TestDigestDistinguishesContent(t *testing.T) {
	t.Parallel()
	base := hashline.NewText("a\nb\n").Digest()
	same := []string{"a \nb\t\n", "a\r\nb\r\n", bom + "a\nb\n", "a\rb\r"}
	for _, raw := range same {
		if hashline.NewText(raw).Digest() != base {
			t.Errorf("Digest(%q) differs from Digest(%q), want equal", raw, "a\nb\n")
		}
	}
	differ := []string{"a\nb", "a\nb\n\n", "a\nc\n", " a\nb\n", "a\n\nb\n", "b\na\n"}
	for _, raw := range differ {
		if hashline.NewText(raw).Digest() == base {
			t.Errorf("Digest(%q) equals Digest(%q), want different", raw, "a\nb\n")
		}
	}
}

func TestLineAddressing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		raw   string
		lines []string
		final bool
		bom   bool
	}{
		{"empty file has no lines", "", nil, false, false},
		{"BOM only has no lines", bom, nil, false, true},
		{"lone newline is one empty line", "\n", []string{""}, true, false},
		{"lone CRLF is one empty line", "\r\n", []string{""}, true, false},
		{"lone CR is one empty line", "\r", []string{""}, true, false},
		{"two lines without final newline", "a\nb", []string{"a", "b"}, false, false},
		{"two lines with final newline", "a\nb\n", []string{"a", "b"}, true, false},
		{"trailing empty line", "a\n\n", []string{"a", ""}, true, false},
		{"CRLF endings", "a\r\nb\r\n", []string{"a", "b"}, true, false},
		{"lone CR endings", "a\rb\r", []string{"a", "b"}, true, false},
		{"CR then LF on separate lines is one CRLF", "a\r\nb", []string{"a", "b"}, false, false},
		{"two lone CRs are an empty line", "a\r\rb", []string{"a", "", "b"}, false, false},
		{"LF then CR", "a\n\rb", []string{"a", "", "b"}, false, false},
		{"mixed endings", "a\nb\r\nc\rd", []string{"a", "b", "c", "d"}, false, false},
		{"trailing whitespace kept in the line", "a  \r\nb\t\n", []string{"a  ", "b\t"}, true, false},
		{"BOM is not content", bom + "x\n", []string{"x"}, true, true},
		{"BOM in the middle is content", "x\n" + bom + "y", []string{"x", bom + "y"}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tx := hashline.NewText(c.raw)
			if tx.Len() != len(c.lines) {
				t.Fatalf("Len() = %d, want %d", tx.Len(), len(c.lines))
			}
			for i, want := range c.lines {
				if got := tx.Line(i + 1); got != want {
					t.Errorf("Line(%d) = %q, want %q", i+1, got, want)
				}
			}
			if len(c.lines) > 0 {
				got := tx.Lines(1, tx.Len())
				if strings.Join(got, "|") != strings.Join(c.lines, "|") {
					t.Errorf("Lines(1, %d) = %q, want %q", tx.Len(), got, c.lines)
				}
			}
			if tx.FinalNewline() != c.final {
				t.Errorf("FinalNewline() = %v, want %v", tx.FinalNewline(), c.final)
			}
			if tx.HasBOM() != c.bom {
				t.Errorf("HasBOM() = %v, want %v", tx.HasBOM(), c.bom)
			}
			if tx.Raw() != c.raw || tx.Size() != len(c.raw) {
				t.Errorf("Raw() = %q (Size %d), want the input %q unchanged", tx.Raw(), tx.Size(), c.raw)
			}
		})
	}
}

// EOL is the ending new lines get; Normalized is the text with the BOM
// dropped and every ending made LF.
func TestEOLAndNormalized(t *testing.T) {
	t.Parallel()
	type textCase struct{ name, raw, want string }
	for _, m := range []struct {
		method string
		of     func(*hashline.Text) string
		cases  []textCase
	}{
		{"EOL", (*hashline.Text).EOL, []textCase{
			{"no endings at all", "abc", "\n"},
			{"empty", "", "\n"},
			{"LF only", "a\nb\n", "\n"},
			{"CRLF only", "a\r\nb\r\n", "\r\n"},
			{"CR only", "a\rb\r", "\r"},
			{"CRLF majority", "a\r\nb\r\nc\n", "\r\n"},
			{"CR majority", "a\rb\rc\r\nd\n", "\r"},
			{"LF majority over CRLF", "a\nb\nc\r\n", "\n"},
			// Ties are broken by a fixed order, LF then CRLF, so moving lines
			// around never changes the ending new lines get.
			{"LF ties CRLF, CRLF first", "a\r\nb\n", "\n"},
			{"LF ties CRLF, LF first", "a\nb\r\n", "\n"},
			{"LF ties CR", "a\rb\n", "\n"},
			{"CRLF ties CR, CR first", "a\rb\r\n", "\r\n"},
			{"CRLF ties CR, CRLF first", "a\r\nb\r", "\r\n"},
			{"three-way tie", "a\rb\r\nc\n", "\n"},
			{"BOM does not count", bom + "a\r\nb", "\r\n"},
		}},
		{"Normalized", (*hashline.Text).Normalized, []textCase{
			{"LF text is returned as is", "a \nb\t\n", "a \nb\t\n"},
			{"empty", "", ""},
			{"BOM dropped", bom + "a\n", "a\n"},
			{"BOM only", bom, ""},
			{"CRLF to LF, trailing whitespace kept", "a  \r\nb\t\r\n", "a  \nb\t\n"},
			{"lone CR to LF", "a\rb\r", "a\nb\n"},
			{"mixed, no final newline", bom + "a\r\nb\nc\rd ", "a\nb\nc\nd "},
			{"empty lines kept", "\r\n\r\n", "\n\n"},
		}},
	} {
		for _, c := range m.cases {
			t.Run(m.method+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				if got := m.of(hashline.NewText(c.raw)); got != c.want {
					t.Fatalf("%s() of %q = %q, want %q", m.method, c.raw, got, c.want)
				}
			})
		}
	}
}

// Splice must give back every byte the hunks do not name: that is what lets
// an edit leave the rest of a file, and the editor's undo history, alone.
func TestSpliceRestoration(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		raw   string
		hunks []hashline.Hunk
		want  string
	}{
		{"replace middle line, LF", "a\nb\nc\n",
			[]hashline.Hunk{{Start: 1, End: 2, Lines: []string{"B"}}}, "a\nB\nc\n"},
		{"new lines take the dominant CRLF", "a\r\nb\r\nc\n",
			[]hashline.Hunk{{Start: 1, End: 2, Lines: []string{"x", "y"}}}, "a\r\nx\r\ny\r\nc\n"},
		{"new lines take the dominant lone CR", "a\rb\rc\r",
			[]hashline.Hunk{{Start: 3, End: 3, Lines: []string{"d"}}}, "a\rb\rc\rd\r"},
		{"BOM kept when line 1 is replaced", bom + "a\nb\n",
			[]hashline.Hunk{{Start: 0, End: 1, Lines: []string{"A"}}}, bom + "A\nb\n"},
		{"BOM kept when inserting at the head", bom + "a\n",
			[]hashline.Hunk{{Start: 0, End: 0, Lines: []string{"h"}}}, bom + "h\na\n"},
		{"BOM kept when every line is deleted", bom + "a\nb\n",
			[]hashline.Hunk{{Start: 0, End: 2}}, bom},
		{"final newline kept on append", "a\nb\n",
			[]hashline.Hunk{{Start: 2, End: 2, Lines: []string{"c"}}}, "a\nb\nc\n"},
		{"no final newline kept on append", "a\nb",
			[]hashline.Hunk{{Start: 2, End: 2, Lines: []string{"c", "d"}}}, "a\nb\nc\nd"},
		{"no final newline kept when the last line is replaced", "a\r\nb",
			[]hashline.Hunk{{Start: 1, End: 2, Lines: []string{"x", "y"}}}, "a\r\nx\r\ny"},
		{"delete last line of a file without final newline", "a\nb\nc",
			[]hashline.Hunk{{Start: 2, End: 3}}, "a\nb"},
		{"delete last two lines of a file without final newline", "a\r\nb\r\nc",
			[]hashline.Hunk{{Start: 1, End: 3}}, "a"},
		{"delete last line of a file with final newline", "a\nb\nc\n",
			[]hashline.Hunk{{Start: 2, End: 3}}, "a\nb\n"},
		{"delete the only line without final newline", "a",
			[]hashline.Hunk{{Start: 0, End: 1}}, ""},
		{"insert before the last line of a file without final newline", "a\nb",
			[]hashline.Hunk{{Start: 1, End: 1, Lines: []string{"x"}}}, "a\nx\nb"},
		{"empty file gains a final newline", "",
			[]hashline.Hunk{{Start: 0, End: 0, Lines: []string{"x", "y"}}}, "x\ny\n"},
		{"BOM-only file keeps the BOM and gains a final newline", bom,
			[]hashline.Hunk{{Start: 0, End: 0, Lines: []string{"x"}}}, bom + "x\n"},
		{"empty line inserted", "a\nb\n",
			[]hashline.Hunk{{Start: 1, End: 1, Lines: []string{""}}}, "a\n\nb\n"},
		{"untouched trailing whitespace and odd endings survive", "a \r\nb\t\nc\rd\r\n",
			[]hashline.Hunk{{Start: 1, End: 2, Lines: []string{"B"}}}, "a \r\nB\r\nc\rd\r\n"},
		{"two hunks", "a\nb\nc\nd\ne\n",
			[]hashline.Hunk{{Start: 0, End: 1, Lines: []string{"A"}}, {Start: 3, End: 4}}, "A\nb\nc\ne\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tx := hashline.NewText(c.raw)
			got := tx.Splice(c.hunks)
			if got != c.want {
				t.Fatalf("Splice = %q, want %q", got, c.want)
			}
			if again := hashline.ApplyEdits(c.raw, tx.Edits(c.hunks)); again != got {
				t.Fatalf("ApplyEdits(Edits) = %q, Splice = %q; want them equal", again, got)
			}
		})
	}
}

func TestEditsAreMinimal(t *testing.T) {
	t.Parallel()
	tx := hashline.NewText("a\r\nb\r\nc")
	got := tx.Edits([]hashline.Hunk{{Start: 1, End: 2, Lines: []string{"B"}}, {Start: 3, End: 3, Lines: []string{"d"}}})
	want := []hashline.ByteEdit{{Start: 3, End: 6, New: "B\r\n"}, {Start: 7, End: 7, New: "\r\nd"}}
	if len(got) != len(want) {
		t.Fatalf("Edits = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Edits[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A file with everything an editor can leave in it goes through a real
// Session edit; every byte outside the edited lines must come back as it was,
// compared region by region, so a change that happens to cancel out in the
// whole string cannot hide.
func TestRoundTripThroughPlanKeepsUntouchedBytes(t *testing.T) {
	t.Parallel()
	lines := []string{"one  \r\n", "two\t\r\n", "three\n", "four\r", "five \r\n", "six\r\n", "seven  "}
	raw := bom + strings.Join(lines, "")
	s := hashline.NewSession()
	live := hashline.NewText(raw)
	s.Read("f.txt", "f.txt", live, 1, 2000)
	if live.EOL() != "\r\n" || !live.HasBOM() || live.FinalNewline() {
		t.Fatalf("fixture: EOL %q BOM %v final %v, want CRLF, BOM, no final newline", live.EOL(), live.HasBOM(), live.FinalNewline())
	}

	plan, err := s.Plan(hashline.EditRequest{Path: "f.txt", Display: "f.txt", Tag: string(live.Tag()),
		Ops: "PUT 3.=3:\n+THREE\nPUT >$:\n+eight"}, live)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	want := bom + "one  \r\ntwo\t\r\nTHREE\r\nfour\rfive \r\nsix\r\nseven  \r\neight"
	got := plan.New.Raw()
	if got != want {
		t.Fatalf("new text = %q, want %q", got, want)
	}

	// Untouched regions: BOM and lines 1-2, then lines 4-7 (line 7 gains only
	// the ending that now separates it from the appended line).
	head := bom + lines[0] + lines[1]
	if got[:len(head)] != raw[:len(head)] {
		t.Errorf("head bytes = %q, want %q", got[:len(head)], raw[:len(head)])
	}
	oldMid := raw[len(head)+len(lines[2]):]
	newMid := got[len(head)+len("THREE\r\n"):]
	if newMid[:len(oldMid)] != oldMid {
		t.Errorf("bytes after the replaced line = %q, want %q", newMid[:len(oldMid)], oldMid)
	}
	if rest := newMid[len(oldMid):]; rest != "\r\neight" {
		t.Errorf("appended bytes = %q, want %q", rest, "\r\neight")
	}
	wantEdits := []hashline.ByteEdit{
		{Start: len(head), End: len(head) + len(lines[2]), New: "THREE\r\n"},
		{Start: len(raw), End: len(raw), New: "\r\neight"},
	}
	if len(plan.Edits) != len(wantEdits) {
		t.Fatalf("Edits = %+v, want %+v", plan.Edits, wantEdits)
	}
	for i := range wantEdits {
		if plan.Edits[i] != wantEdits[i] {
			t.Errorf("Edits[%d] = %+v, want %+v", i, plan.Edits[i], wantEdits[i])
		}
	}
	if !plan.New.HasBOM() || plan.New.FinalNewline() || plan.New.EOL() != "\r\n" || plan.New.Len() != 8 {
		t.Errorf("new text: BOM %v final %v EOL %q Len %d, want BOM, no final newline, CRLF, 8 lines",
			plan.New.HasBOM(), plan.New.FinalNewline(), plan.New.EOL(), plan.New.Len())
	}

	// Committing records the landed text with every line seen, so the next
	// edit, anywhere in the file, needs no read.
	s.Commit(plan, "f.txt", plan.New)
	plan2, err := s.Plan(hashline.EditRequest{Path: "f.txt", Display: "f.txt", Tag: string(plan.New.Tag()),
		Ops: "CUT 8.=8"}, plan.New)
	if err != nil {
		t.Fatalf("second Plan: %v", err)
	}
	if plan2.New.Raw() != raw[:len(head)]+"THREE\r\n"+oldMid {
		t.Fatalf("after deleting the appended line: %q, want %q", plan2.New.Raw(), raw[:len(head)]+"THREE\r\n"+oldMid)
	}
}
