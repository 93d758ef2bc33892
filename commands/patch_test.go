package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
)

// readLine reads path in the per-line style and returns the anchor LINE:HH
// of every row, as a model would copy them from the output.
func readLine(t *testing.T, s *Server, path string, extra ...string) map[int]string {
	t.Helper()
	args := map[string]any{"path": path, "anchors": "line"}
	for i := 0; i+1 < len(extra); i += 2 {
		args[extra[i]] = extra[i+1]
	}
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, args))
	return rowAnchors(t, r.Content)
}

// rowAnchors parses the N:HH|text rows under a header.
func rowAnchors(t *testing.T, content string) map[int]string {
	t.Helper()
	anchors := map[int]string{}
	rows := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	for _, row := range rows[1:] {
		a, _, ok := strings.Cut(row, "|")
		var n int
		var h string
		if _, err := fmt.Sscanf(a, "%d:%s", &n, &h); !ok || err != nil || len(h) != 2 {
			t.Fatalf("row %q is not N:HH|text", row)
		}
		anchors[n] = a
	}
	return anchors
}

// snapshot returns the bytes of every named file under dir.
func snapshot(t *testing.T, dir string, names ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range names {
		out[n] = readFile(t, filepath.Join(dir, n))
	}
	return out
}

func sameFiles(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	for n, want := range before {
		if got := readFile(t, filepath.Join(dir, n)); got != want {
			t.Errorf("%s changed: %q, want %q", n, got, want)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".hashline-") {
			t.Errorf("leftover temporary file %s", e.Name())
		}
	}
}

func problemsOf(e *ErrorResult) []string {
	var out []string
	for _, p := range e.Error.Details.Problems {
		out = append(out, fmt.Sprintf("%s:%d:%s", p.Path, p.Line, p.Code))
	}
	return out
}

func TestReadAndGrepLineAnchors(t *testing.T) {
	s, _ := newServer(t, map[string]string{"src/a.py": "def greet(name):\n    return f\"hello {name}\"\n\n"})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "src/a.py", "anchors": "line"}))
	want := "[src/a.py#" + r.Tag + "]\n1:fb|def greet(name):\n2:5d|    return f\"hello {name}\"\n3:c5|\n"
	if r.Content != want || r.Tag != string(hashline.TagOf("def greet(name):\n    return f\"hello {name}\"\n\n")) {
		t.Fatalf("read = %q, want %q", r.Content, want)
	}
	// The default stays the tag style.
	if r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "src/a.py", "anchors": "tag"})); !strings.Contains(r.Content, "]\n1:def greet(name):\n") {
		t.Fatalf("tag read = %q", r.Content)
	}
	g := mustOK[*GrepResult](t, call(t, s, CmdGrep, map[string]any{"pattern": "return", "anchors": "line"}))
	if !strings.Contains(g.Content, "]\n2:5d|    return f\"hello {name}\"\n") {
		t.Fatalf("grep content = %q", g.Content)
	}
	// A match's text is the line itself, without the anchor.
	if len(g.Matches) != 1 || g.Matches[0].Line != 2 || g.Matches[0].Text != `    return f"hello {name}"` {
		t.Fatalf("grep matches = %+v", g.Matches)
	}
	// The grep counts as a read of the file: a patch may follow it.
	s2, _ := newServer(t, map[string]string{"a.txt": "x\ny\n"})
	mustOK[*GrepResult](t, call(t, s2, CmdGrep, map[string]any{"pattern": "y", "anchors": "line"}))
	mustOK[*PatchResult](t, call(t, s2, CmdPatch, map[string]any{"patch": "@@ a.txt\n= 2:" + hashline.LineHash("y") + "\n~Y\n"}))
}

func TestPatchTwoFilesLands(t *testing.T) {
	s, dir := newServer(t, map[string]string{
		"a.py":     "def greet(name):\n    return f\"hello {name}\"\n",
		"lib/b.rs": "fn main() {\r\n    run();\r\n}\r\n",
	})
	if err := os.Chmod(filepath.Join(dir, "lib/b.rs"), 0o755); err != nil {
		t.Fatal(err)
	}
	mode := testenv.Mode(t, filepath.Join(dir, "lib/b.rs"))
	a := readLine(t, s, "a.py")
	b := readLine(t, s, "lib/b.rs")
	patch := "@@ a.py\n= " + a[2] + "\n~    return f\"hi {name}\"\n+ " + a[2] + "\n~\n~greet('x')\n" +
		"@@ lib/b.rs\n< " + b[2] + "\n~    setup();\n- " + b[3] + "\n+\n~}\n"
	res := mustOK[*PatchResult](t, call(t, s, CmdPatch, map[string]any{"patch": patch}))
	gotA, gotB := readFile(t, filepath.Join(dir, "a.py")), readFile(t, filepath.Join(dir, "lib/b.rs"))
	if want := "def greet(name):\n    return f\"hi {name}\"\n\ngreet('x')\n"; gotA != want {
		t.Fatalf("a.py = %q, want %q", gotA, want)
	}
	if want := "fn main() {\r\n    setup();\r\n    run();\r\n}\r\n"; gotB != want {
		t.Fatalf("lib/b.rs = %q, want %q", gotB, want)
	}
	if got := testenv.Mode(t, filepath.Join(dir, "lib/b.rs")); got != mode {
		t.Fatalf("mode = %v, want %v", got, mode)
	}
	if len(res.Files) != 2 || len(res.Warnings) != 0 {
		t.Fatalf("result = %+v", res)
	}
	for i, f := range []struct{ path, text string }{{"a.py", gotA}, {"lib/b.rs", gotB}} {
		tag := string(hashline.TagOf(f.text))
		if res.Files[i] != (PatchFile{Path: f.path, Tag: tag, Header: "[" + f.path + "#" + tag + "]"}) {
			t.Fatalf("files[%d] = %+v, want %s with tag %s", i, res.Files[i], f.path, tag)
		}
	}
	sameFiles(t, dir, map[string]string{"a.py": gotA})

	// The returned tag edits the file at once, no read in between.
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "a.py", "tag": res.Files[0].Tag, "ops": "PUT 4.=4:\n+greet('y')"}))
	if got := readFile(t, filepath.Join(dir, "a.py")); got != "def greet(name):\n    return f\"hi {name}\"\n\ngreet('y')\n" {
		t.Fatalf("follow-up edit: %q", got)
	}
	// So does a second patch with anchors of the text it authored.
	mustOK[*PatchResult](t, call(t, s, CmdPatch, map[string]any{"patch": "@@ lib/b.rs\n- 2:" + hashline.LineHash("    setup();") + "\n"}))
	if got := readFile(t, filepath.Join(dir, "lib/b.rs")); got != "fn main() {\r\n    run();\r\n}\r\n" {
		t.Fatalf("second patch: %q", got)
	}
}

// One stale anchor in one file of two: nothing is written anywhere, and the
// answer names the anchor, the file and the line to re-read.
func TestPatchStaleAnchorWritesNothing(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "alpha\nbeta\ngamma\n"})
	a := readLine(t, s, "a.txt")
	b := readLine(t, s, "b.txt")
	// Someone changes b.txt after the read.
	if err := os.WriteFile(filepath.Join(dir, "b.txt"), []byte("alpha\nBETA\ngamma\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir, "a.txt", "b.txt")
	patch := "@@ a.txt\n= " + a[1] + "\n~ONE\n@@ b.txt\n= " + b[2] + "\n~Beta\n+ " + b[3] + "\n~delta\n"
	e := mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": patch}), hashline.CodeTagMismatch)
	sameFiles(t, dir, before)
	if got := problemsOf(e); strings.Join(got, " ") != "b.txt:5:EDIT_TAG_MISMATCH" {
		t.Fatalf("problems = %v", got)
	}
	for _, w := range []string{"the patch has 1 problem(s) and nothing was written", "b.txt, patch line 5", "anchor " + b[2] + " is stale", "line 2 is now " + hashline.LineHash("BETA") + "|BETA", "re-read around line 2"} {
		if !strings.Contains(e.Error.Message, w) {
			t.Errorf("message %q lacks %q", e.Error.Message, w)
		}
	}
	if !e.Error.Retriable {
		t.Error("a stale anchor is retriable after a re-read")
	}
	// The honest retry, after reading again, lands both.
	b = readLine(t, s, "b.txt")
	patch = "@@ a.txt\n= " + a[1] + "\n~ONE\n@@ b.txt\n= " + b[2] + "\n~Beta\n"
	mustOK[*PatchResult](t, call(t, s, CmdPatch, map[string]any{"patch": patch}))
	if got := snapshot(t, dir, "a.txt", "b.txt"); got["a.txt"] != "ONE\ntwo\nthree\n" || got["b.txt"] != "alpha\nBeta\ngamma\n" {
		t.Fatalf("retry: %q", got)
	}
}

func TestPatchNeedsARead(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
	before := snapshot(t, dir, "a.txt", "b.txt")
	one, two := "1:"+hashline.LineHash("one"), "1:"+hashline.LineHash("two")
	// Correct anchors are not enough: the file must have been read.
	e := mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": "@@ a.txt\n= " + one + "\n~ONE\n"}), hashline.CodeTagUnknown)
	if !strings.Contains(e.Error.Message, "a.txt was never read in this session: read it first") || !strings.Contains(e.Error.Message, `anchors "line"`) {
		t.Fatalf("message %q", e.Error.Message)
	}
	sameFiles(t, dir, before)
	// One file read, the other not: neither is written.
	readLine(t, s, "a.txt")
	e = mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": "@@ a.txt\n= " + one + "\n~ONE\n@@ b.txt\n= " + two + "\n~TWO\n"}), hashline.CodeTagUnknown)
	if got := problemsOf(e); strings.Join(got, " ") != "b.txt:0:EDIT_TAG_UNKNOWN" {
		t.Fatalf("problems = %v", got)
	}
	sameFiles(t, dir, before)
	// A read in another session does not count for this one.
	readLine(t, s, "b.txt", "session", "other")
	mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": "@@ b.txt\n= " + two + "\n~TWO\n", "turn": "t2"}), hashline.CodeTagUnknown)
	sameFiles(t, dir, before)
	// Nor does a session that ended.
	readLine(t, s, "b.txt", "session", "gone")
	mustOK[*SessionEndResult](t, call(t, s, CmdSessionEnd, map[string]any{"session": "gone"}))
	mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": "@@ b.txt\n= " + two + "\n~TWO\n", "session": "gone"}), hashline.CodeTagUnknown)
	sameFiles(t, dir, before)
	// A partial read (a window) counts as having read the file, as kli's
	// per-file record does; the anchors themselves are re-hashed anyway.
	readLine(t, s, "b.txt", "session", "window")
	mustOK[*PatchResult](t, call(t, s, CmdPatch, map[string]any{"patch": "@@ b.txt\n= " + two + "\n~TWO\n", "session": "window"}))
	if got := readFile(t, filepath.Join(dir, "b.txt")); got != "TWO\n" {
		t.Fatalf("b.txt = %q", got)
	}
}

// Every kind of problem, in two files, comes back in one answer, each with
// its file and patch line, and nothing is written.
func TestPatchGathersEveryProblem(t *testing.T) {
	long := strings.Repeat("x", hashline.MaxLineChars+1)
	s, dir := newServer(t, map[string]string{
		"a.txt":      "one\ntwo\nthree\nfour\nfive\n",
		"b.txt":      "alpha\nbeta\ngamma\ndelta\n" + long + "\n",
		"unread.txt": "u\n",
	})
	outside := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(outside, []byte("o\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := readLine(t, s, "a.txt")
	b := readLine(t, s, "b.txt")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\nTHREE\nfour\nfive\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir, "a.txt", "b.txt", "unread.txt")
	patch := strings.Join([]string{
		"@@ a.txt",  // 1
		"= " + a[3], // 2: stale (changed on disk)
		"~3",
		"- " + a[1] + ".." + a[2], // 4
		"= " + a[2],               // 5: overlaps line 4's range
		"~2",
		"  + " + a[5], // 7: indented marker
		"~x",
		"- " + a[4], // 9
		"~y",        // 10: payload under -
		"+ 9:c5",    // 11: past the end
		"~z",
		"@@ b.txt",                // 13
		"= " + b[1] + ".." + b[3], // 14
		"~all",
		"< " + b[2], // 16: inside line 14's range
		"~w",
		"= " + b[3] + ".." + b[4], // 18: overlaps line 14's range
		"~u",
		"+ " + b[4] + "..5:c5", // 20: range on +
		"~v",
		"< " + b[1],     // 22: no payload
		"- " + b[5],     // 23: a line shown clipped
		"@@ unread.txt", // 24
		"- 1:" + hashline.LineHash("u"),
		"@@ " + outside, // 26
		"- 1:" + hashline.LineHash("o"),
		"@@ missing.txt", // 28
		"- 1:c5",
	}, "\n") + "\n"
	e := mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": patch}), hashline.CodePathOutsideWorkspace)
	sameFiles(t, dir, before)
	if got := readFile(t, outside); got != "o\n" {
		t.Fatalf("outside file changed: %q", got)
	}
	want := []string{
		outside + ":26:PATH_OUTSIDE_WORKSPACE",
		"a.txt:2:EDIT_TAG_MISMATCH",
		"a.txt:5:EDIT_RANGE_INVALID",
		"a.txt:7:EDIT_PARSE_FAILED",
		"a.txt:10:EDIT_PARSE_FAILED",
		"a.txt:11:EDIT_RANGE_INVALID",
		"b.txt:16:EDIT_RANGE_INVALID",
		"b.txt:18:EDIT_RANGE_INVALID",
		"b.txt:20:EDIT_PARSE_FAILED",
		"b.txt:22:EDIT_PARSE_FAILED",
		"b.txt:23:EDIT_LINES_UNSEEN",
		"missing.txt:0:INVALID_ARGUMENT",
		"unread.txt:0:EDIT_TAG_UNKNOWN",
	}
	got := problemsOf(e)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems =\n%s\nwant\n%s\nmessage: %s", strings.Join(got, "\n"), strings.Join(want, "\n"), e.Error.Message)
	}
	for _, w := range []string{
		fmt.Sprintf("the patch has %d problem(s) and nothing was written", len(want)),
		"re-read around line 3",
		"split or merge them",
		"markers start in column 1",
		"a - op deletes and takes no ~ payload",
		"past the end of the file",
		"this insert falls inside the range of patch line 14",
		"line 5 is too long",
		"+ takes one anchor, not a range",
		"the < op has no ~ payload rows",
		"read it first",
		"there is no file at missing.txt",
		"@@ " + outside + " (patch line 26)",
	} {
		if !strings.Contains(e.Error.Message, w) {
			t.Errorf("message lacks %q", w)
		}
	}
}

// The same file named two ways is one file: its sections' ops are planned
// together, so they land together or collide.
func TestPatchSameFileTwoSpellings(t *testing.T) {
	s, dir := newServer(t, map[string]string{"src/a.txt": "one\ntwo\nthree\n"})
	a := readLine(t, s, "src/a.txt")
	abs := filepath.Join(dir, "src", "a.txt")
	patch := "@@ src/a.txt\n= " + a[1] + "\n~ONE\n@@ " + abs + "\n= " + a[3] + "\n~THREE\n@@ ./src/../src/a.txt\n+ " + a[3] + "\n~four\n"
	res := mustOK[*PatchResult](t, call(t, s, CmdPatch, map[string]any{"patch": patch}))
	got := readFile(t, abs)
	if got != "ONE\ntwo\nTHREE\nfour\n" {
		t.Fatalf("file = %q", got)
	}
	if len(res.Files) != 1 || res.Files[0].Path != "src/a.txt" || res.Files[0].Tag != string(hashline.TagOf(got)) {
		t.Fatalf("files = %+v", res.Files)
	}
	// Overlaps across the two sections are found as within one.
	a = readLine(t, s, abs)
	before := snapshot(t, dir, "src/a.txt")
	patch = "@@ src/a.txt\n- " + a[1] + ".." + a[2] + "\n@@ " + abs + "\n= " + a[2] + "\n~x\n"
	e := mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": patch}), hashline.CodeRangeInvalid)
	if got := problemsOf(e); strings.Join(got, " ") != "src/a.txt:4:EDIT_RANGE_INVALID" || !strings.Contains(e.Error.Message, "overlaps the one at patch line 2") {
		t.Fatalf("problems = %v: %s", got, e.Error.Message)
	}
	sameFiles(t, filepath.Join(dir, "src"), map[string]string{"a.txt": before["src/a.txt"]})
	// A syntax problem in a section spelled another way is filed under the
	// file's one name too.
	e = mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": "@@ " + abs + "\n  = " + a[2] + "\n~x\n@@ src/a.txt\n= " + a[1] + "\n~one\n", "turn": "t2"}), hashline.CodeParseFailed)
	if got := problemsOf(e); strings.Join(got, " ") != "src/a.txt:2:EDIT_PARSE_FAILED" {
		t.Fatalf("problems = %v: %s", got, e.Error.Message)
	}
}

func TestPatchNoChangeAndEmptyFile(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a.txt": "one\n", "empty.txt": ""})
	a := readLine(t, s, "a.txt")
	readLine(t, s, "empty.txt")
	e := mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": "@@ a.txt\n= " + a[1] + "\n~one\n"}), hashline.CodeNoChange)
	if !strings.Contains(e.Error.Message, "leave the file exactly as it is") {
		t.Fatalf("message %q", e.Error.Message)
	}
	// Into an empty file, with the bare markers. Its start and its end are
	// one gap, so the inserts land in the order they are written.
	mustOK[*PatchResult](t, call(t, s, CmdPatch, map[string]any{"patch": "@@ empty.txt\n<\n~first\n+\n~last\n"}))
	if got := readFile(t, filepath.Join(dir, "empty.txt")); got != "first\nlast\n" {
		t.Fatalf("empty.txt = %q", got)
	}
}

// A patch whose text cannot be parsed at all still answers with every
// problem and writes nothing.
func TestPatchArguments(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a.txt": "one\n"})
	before := snapshot(t, dir, "a.txt")
	mustFail(t, call(t, s, CmdPatch, map[string]any{}), hashline.CodeInvalidArgument)
	mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": 3}), hashline.CodeInvalidArgument)
	e := mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": ""}), hashline.CodeParseFailed)
	if !strings.Contains(e.Error.Message, "holds no section") {
		t.Fatalf("message %q", e.Error.Message)
	}
	e = mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": "@@\n- 1:c5\n"}), hashline.CodeParseFailed)
	if got := problemsOf(e); len(got) != 1 || !strings.Contains(e.Error.Message, "names no file") {
		t.Fatalf("problems = %v: %s", got, e.Error.Message)
	}
	// A file whose only op was refused is not also said to be unchanged.
	readLine(t, s, "a.txt")
	e = mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": "@@ a.txt\n  - 1:c5\n", "turn": "t2"}), hashline.CodeParseFailed)
	if got := problemsOf(e); strings.Join(got, " ") != "a.txt:2:EDIT_PARSE_FAILED" {
		t.Fatalf("problems = %v: %s", got, e.Error.Message)
	}
	e = mustFail(t, call(t, s, CmdPatch, map[string]any{"patch": "@@ a.txt\n", "turn": "t3"}), hashline.CodeParseFailed)
	if !strings.Contains(e.Error.Message, "holds no op") {
		t.Fatalf("message %q", e.Error.Message)
	}
	sameFiles(t, dir, before)
}

// describe publishes the patch tool and its guidance, so a model learns the
// language from the server itself.
func TestDescribePatch(t *testing.T) {
	s, _ := newServer(t, nil)
	d := mustOK[*DescribeResult](t, call(t, s, CmdDescribe, map[string]any{}))
	var tool *Tool
	for i := range d.Tools {
		if d.Tools[i].Name == "hashline_patch" {
			tool = &d.Tools[i]
		}
	}
	if tool == nil || tool.Command != CmdPatch || fmt.Sprint(tool.InputSchema["required"]) != "[patch]" {
		t.Fatalf("hashline_patch tool = %+v", tool)
	}
	if !strings.Contains(d.Guidance, "## Per-line anchors") || !strings.Contains(d.Guidance, "hashline_patch") {
		t.Error("the guide does not point to hashline_patch")
	}
	// The tool's description holds the whole language, since hosts pass
	// descriptions whole and may cut the guide.
	for _, cue := range []string{"+ LINE:HH inserts", "< LINE:HH inserts", "- A:HH..B:HH deletes", "= A:HH..B:HH replaces", "~text", "markers start in column 1", "re-read around line N", "Ranges may not overlap"} {
		if !strings.Contains(tool.Description, cue) {
			t.Errorf("hashline_patch's description lacks %q", cue)
		}
	}
	// The description's own example parses clean.
	_, ex, ok := strings.Cut(tool.Description, "For example:\n")
	if !ok {
		t.Fatal("hashline_patch's description has no example")
	}
	if _, problems := hashline.ParsePatch(ex); len(problems) != 0 {
		t.Fatalf("the description's example does not parse: %+v", problems)
	}
}
