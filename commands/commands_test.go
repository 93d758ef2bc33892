package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
	"hashline-ls/workspace"
)

// newServer returns a disk-backed server over a fresh workspace holding files.
func newServer(t testing.TB, files map[string]string) (*Server, string) {
	t.Helper()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, files)
	roots, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &Server{Roots: roots, Sessions: hashline.NewSessions(), Source: documents.Disk{Roots: roots}, Sink: documents.Disk{Roots: roots}}, dir
}

func call(t *testing.T, s *Server, cmd string, args any) any {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(context.Background(), Call{Command: cmd, Args: raw})
	if err != nil {
		t.Fatalf("%s: protocol error %v", cmd, err)
	}
	return res
}

func mustOK[T any](t *testing.T, res any) T {
	t.Helper()
	r, ok := res.(T)
	if !ok {
		if e, isErr := res.(*ErrorResult); isErr {
			t.Fatalf("want success, got %s: %s", e.Error.Code, e.Error.Message)
		}
		t.Fatalf("want %T, got %T", r, res)
	}
	return r
}

func mustFail(t *testing.T, res any, code hashline.Code) *ErrorResult {
	t.Helper()
	e, ok := res.(*ErrorResult)
	if !ok {
		t.Fatalf("want %s, got success %+v", code, res)
	}
	if e.Error.Code != code {
		t.Fatalf("want %s, got %s: %s", code, e.Error.Code, e.Error.Message)
	}
	if e.OK {
		t.Fatal("error result has ok: true")
	}
	return e
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadEditRoundTrip(t *testing.T) {
	s, dir := newServer(t, map[string]string{"src/a.py": "def f():\r\n    return 1\r\n\r\nprint(f())"})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "src/a.py"}))
	want := "[src/a.py#" + r.Tag + "]\n1:def f():\n2:    return 1\n3:\n4:print(f())\n"
	if r.Content != want || r.TotalLines != 4 || r.LineCount != 4 || r.Truncated || r.Path != "src/a.py" {
		t.Fatalf("read = %+v", r)
	}
	e := mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "src/a.py", "tag": r.Tag, "ops": "PUT 2.=2:\n+    return 2\nPUT >$:\n+print('done')"}))
	got := readFile(t, filepath.Join(dir, "src/a.py"))
	if want := "def f():\r\n    return 2\r\n\r\nprint(f())\r\nprint('done')"; got != want {
		t.Fatalf("file = %q, want %q", got, want)
	}
	if e.Tag != string(hashline.TagOf(got)) || e.Header != "[src/a.py#"+e.Tag+"]" {
		t.Fatalf("edit result tag %s header %s", e.Tag, e.Header)
	}
	if !strings.Contains(e.Diff, "-    return 1\n+    return 2\n") {
		t.Fatalf("diff = %q", e.Diff)
	}
	// Re-grounded: the returned tag edits the lines this session authored.
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "src/a.py", "tag": e.Tag, "ops": "PUT 5.=5:\n+print('end')"}))
	if got := readFile(t, filepath.Join(dir, "src/a.py")); !strings.HasSuffix(got, "\r\nprint('end')") {
		t.Fatalf("second edit: %q", got)
	}
}

func TestReadWindowAndNotice(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 30; i++ {
		b.WriteString("line\n")
	}
	s, _ := newServer(t, map[string]string{"a.txt": b.String(), "empty.txt": "", "bin.dat": "a\x00b"})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a.txt", "offset": 11, "limit": 5}))
	if !strings.HasPrefix(r.Content, "[a.txt#") || !strings.Contains(r.Content, "]\n11:line\n") || !strings.HasSuffix(r.Content, "15:line\n") {
		t.Fatalf("content = %q", r.Content)
	}
	if !r.Truncated || r.Offset != 11 || r.LineCount != 5 || r.Notice != "showing lines 11-15 of 30: read with offset 16 for more" {
		t.Fatalf("read = %+v", r)
	}
	e := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "empty.txt"}))
	if e.TotalLines != 0 || e.LineCount != 0 || !strings.Contains(e.Notice, "empty") {
		t.Fatalf("empty read = %+v", e)
	}
	mustFail(t, call(t, s, CmdRead, map[string]any{"path": "bin.dat"}), hashline.CodeInvalidArgument)
	f := mustFail(t, call(t, s, CmdRead, map[string]any{"path": "a.txt", "offset": 31}), hashline.CodeInvalidArgument)
	if f.Error.Details.Field != "offset" {
		t.Fatalf("field = %q", f.Error.Details.Field)
	}
	mustFail(t, call(t, s, CmdRead, map[string]any{"path": "missing.txt"}), hashline.CodeInvalidArgument)
}

func TestHostileArguments(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "x\n"})
	cases := []struct {
		cmd   string
		args  string
		code  hashline.Code
		field string
	}{
		{CmdRead, `{}`, hashline.CodeInvalidArgument, "path"},
		{CmdRead, `{"path": 7}`, hashline.CodeInvalidArgument, "path"},
		{CmdRead, `{"path": "a.txt", "limit": "ten"}`, hashline.CodeInvalidArgument, "limit"},
		{CmdRead, `{"path": "a.txt", "offset": 0}`, hashline.CodeInvalidArgument, "offset"},
		{CmdRead, `{"path": "a.txt", "offset": 1.5}`, hashline.CodeInvalidArgument, "offset"},
		{CmdRead, `{"path": "a.txt", "bogus": true}`, hashline.CodeInvalidArgument, "bogus"},
		{CmdRead, `{"path": ""}`, hashline.CodeInvalidArgument, "path"},
		{CmdRead, `{"path": "a\u0000b"}`, hashline.CodeInvalidArgument, "path"},
		{CmdRead, `{"path": "` + strings.Repeat("a/", 5000) + `"}`, hashline.CodeInvalidArgument, "path"},
		{CmdEdit, `{"path": "a.txt", "ops": "PUT 1.=1:\n+y"}`, hashline.CodeTagRequired, ""},
		{CmdEdit, `{"path": "a.txt", "tag": "XYZW", "ops": "PUT 1.=1:\n+y"}`, hashline.CodeTagRequired, ""},
		{CmdEdit, `{"path": "a.txt", "tag": 1234, "ops": "PUT 1.=1:\n+y"}`, hashline.CodeInvalidArgument, "tag"},
		{CmdEdit, `{"path": "a.txt", "tag": "ABCD"}`, hashline.CodeInvalidArgument, "ops"},
		{CmdEdit, `{"path": "a.txt", "tag": "ABCD", "ops": ["PUT"]}`, hashline.CodeInvalidArgument, "ops"},
		{CmdEdit, `{"path": "a.txt", "tag": "ABCD", "ops": "` + strings.Repeat("x", hashline.MaxOpsBytes+1) + `"}`, hashline.CodeInvalidArgument, "ops"},
		{CmdWrite, `{"path": "b.txt"}`, hashline.CodeInvalidArgument, "content"},
		{CmdWrite, `{"path": "b.txt", "content": null}`, hashline.CodeInvalidArgument, "content"},
		{CmdRead, `{"path": "a.txt", "session": 3}`, hashline.CodeInvalidArgument, "session"},
		{CmdRead, `{"path": "` + strings.Repeat("a/", 1<<19) + `"}`, hashline.CodeInvalidArgument, "path"},
		{CmdEdit, `{"path": "a.txt", "tag": "ABCD", "ops": "PUT >$:\n` + strings.Repeat("+"+strings.Repeat("x", 99)+`\n`, 3000) + `"}`, hashline.CodeInvalidArgument, "ops"},
		{CmdWrite, `{"path": "` + strings.Repeat(`\u0000`, 1<<20) + `", "content": "x"}`, hashline.CodeInvalidArgument, "path"},
	}
	for _, c := range cases {
		res, err := s.Run(context.Background(), Call{Command: c.cmd, Args: json.RawMessage(c.args)})
		if err != nil {
			t.Fatalf("%s %.60s: protocol error %v", c.cmd, c.args, err)
		}
		e := mustFail(t, res, c.code)
		if e.Error.Details.Field != c.field {
			t.Errorf("%s %.60s: field %q, want %q (%s)", c.cmd, c.args, e.Error.Details.Field, c.field, e.Error.Message)
		}
		if e.Error.Message == "" {
			t.Errorf("%s: empty message", c.cmd)
		}
	}
	// Protocol faults: not an object, unknown command.
	for _, args := range []string{`[1]`, `"x"`, `42`} {
		if _, err := s.Run(context.Background(), Call{Command: CmdRead, Args: json.RawMessage(args)}); err == nil {
			t.Errorf("args %s: want a protocol error", args)
		}
	}
	if _, err := s.Run(context.Background(), Call{Command: "hashline.nope", Args: json.RawMessage(`{}`)}); err == nil {
		t.Error("unknown command: want a protocol error")
	}
	// The file is untouched by all of it.
	if got := readFile(t, filepath.Join(s.Roots.List()[0], "a.txt")); got != "x\n" {
		t.Fatalf("a.txt = %q", got)
	}
}

func TestConfinement(t *testing.T) {
	s, dir := newServer(t, map[string]string{"in.txt": "in\n"})
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(dir, secret)
	for _, p := range []string{rel, secret, "link.txt", "linkdir/secret.txt", "linkdir/new.txt", "../x.txt", "file://" + secret} {
		mustFail(t, call(t, s, CmdRead, map[string]any{"path": p}), hashline.CodePathOutsideWorkspace)
		mustFail(t, call(t, s, CmdWrite, map[string]any{"path": p, "content": "pwned\n"}), hashline.CodePathOutsideWorkspace)
		mustFail(t, call(t, s, CmdEdit, map[string]any{"path": p, "tag": "ABCD", "ops": "PUT 1.=1:\n+pwned"}), hashline.CodePathOutsideWorkspace)
	}
	if got := readFile(t, secret); got != "secret\n" {
		t.Fatalf("secret changed: %q", got)
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); !os.IsNotExist(err) {
		t.Fatal("a file was created outside the workspace")
	}
	// An edit may not move a file out either.
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "in.txt"}))
	mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "in.txt", "tag": r.Tag, "ops": "MV " + filepath.Join(outside, "moved.txt")}), hashline.CodePathOutsideWorkspace)
	if got := readFile(t, filepath.Join(dir, "in.txt")); got != "in\n" {
		t.Fatalf("in.txt = %q", got)
	}
}

func TestWrite(t *testing.T) {
	s, dir := newServer(t, map[string]string{"crlf.txt": "\uFEFFa\r\nb\r\n"})
	if err := os.Chmod(filepath.Join(dir, "crlf.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	mode := testenv.Mode(t, filepath.Join(dir, "crlf.txt")) // 0755, or on Windows 0666
	w := mustOK[*WriteResult](t, call(t, s, CmdWrite, map[string]any{"path": "new/dir/x.go", "content": "[x.go#ABCD]\n1:package x\n2:\n"}))
	if !w.Created || readFile(t, filepath.Join(dir, "new/dir/x.go")) != "package x\n\n" || len(w.Warnings) != 2 {
		t.Fatalf("write = %+v, file %q", w, readFile(t, filepath.Join(dir, "new/dir/x.go")))
	}
	// The returned tag edits at once.
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "new/dir/x.go", "tag": w.Tag, "ops": "PUT >1:\n+// doc"}))

	// Replacing a CRLF file with a BOM keeps both, and the mode bits.
	w = mustOK[*WriteResult](t, call(t, s, CmdWrite, map[string]any{"path": "crlf.txt", "content": "a\nc\n"}))
	if got := readFile(t, filepath.Join(dir, "crlf.txt")); got != "\uFEFFa\r\nc\r\n" || w.Created {
		t.Fatalf("crlf.txt = %q", got)
	}
	if got := testenv.Mode(t, filepath.Join(dir, "crlf.txt")); got != mode {
		t.Fatalf("mode = %v, want %v", got, mode)
	}
	if w.Tag != string(hashline.TagOf("a\nc\n")) {
		t.Fatalf("tag = %s", w.Tag)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".hashline-") {
			t.Fatalf("leftover %s", e.Name())
		}
	}
}

func TestMoveAndRemove(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "bee\n"})
	if err := os.Chmod(filepath.Join(dir, "a.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	mode := testenv.Mode(t, filepath.Join(dir, "a.txt")) // 0600, or on Windows 0666
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a.txt"}))
	mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": r.Tag, "ops": "MV b.txt"}), hashline.CodeInvalidArgument)
	e := mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": r.Tag, "ops": "PUT 2.=2:\n+TWO\nMV sub/c.txt"}))
	if e.Path != "sub/c.txt" || readFile(t, filepath.Join(dir, "sub/c.txt")) != "one\nTWO\n" {
		t.Fatalf("move: %+v", e)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); !os.IsNotExist(err) {
		t.Fatal("source still exists")
	}
	if got := testenv.Mode(t, filepath.Join(dir, "sub/c.txt")); got != mode {
		t.Fatalf("mode = %v, want %v", got, mode)
	}
	// The moved file's tag edits it at its new path.
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "sub/c.txt", "tag": e.Tag, "ops": "PUT >$:\n+three"}))

	rb := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "b.txt"}))
	mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "b.txt", "tag": rb.Tag, "ops": "REM\nPUT >$:\n+x"}), hashline.CodeParseFailed)
	d := mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "b.txt", "tag": rb.Tag, "ops": "REM"}))
	if !d.Removed {
		t.Fatalf("remove: %+v", d)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); !os.IsNotExist(err) {
		t.Fatal("b.txt still exists")
	}
}

func TestStaleEditWritesNothing(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a.txt": "1\n2\n3\n4\n5\n"})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a.txt"}))
	changed := "1\n2\nthree\n4\n5\n"
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	e := mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": r.Tag, "ops": "PUT 3.=3:\n+THREE"}), hashline.CodeTagMismatch)
	live := string(hashline.TagOf(changed))
	if e.Error.Details.LiveTag != live || !strings.Contains(e.Error.Details.Content, "3:three\n") || !e.Error.Retriable {
		t.Fatalf("error = %+v", e.Error)
	}
	if got := readFile(t, filepath.Join(dir, "a.txt")); got != changed {
		t.Fatalf("file changed: %q", got)
	}
	// The honest retry with the live tag and the lines shown applies.
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": live, "ops": "PUT 3.=3:\n+THREE"}))
	if got := readFile(t, filepath.Join(dir, "a.txt")); got != "1\n2\nTHREE\n4\n5\n" {
		t.Fatalf("retry: %q", got)
	}
}

func TestRepeatGuardThroughCommands(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "x\n"})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a.txt"}))
	args := map[string]any{"path": "a.txt", "tag": r.Tag, "ops": "PUT 1.=1\n+y", "turn": "t1"}
	mustFail(t, call(t, s, CmdEdit, args), hashline.CodeParseFailed)
	mustFail(t, call(t, s, CmdEdit, args), hashline.CodeParseFailed)
	e := mustFail(t, call(t, s, CmdEdit, args), hashline.CodeParseFailed)
	if !e.Terminate || e.Error.Details.Exhausted == nil || e.Error.Details.Exhausted.Code != hashline.CodeRetryBudgetExhausted ||
		!strings.Contains(e.Error.Details.Exhausted.Recovery, "PUT 1.=1:") {
		t.Fatalf("third failure = %+v", e)
	}
	// A new turn starts a fresh count.
	args["turn"] = "t2"
	if e := mustFail(t, call(t, s, CmdEdit, args), hashline.CodeParseFailed); e.Terminate {
		t.Fatal("new turn terminated at once")
	}
}

func TestDescribeAndSessionEnd(t *testing.T) {
	s, _ := newServer(t, nil)
	d := mustOK[*DescribeResult](t, call(t, s, CmdDescribe, map[string]any{}))
	names := map[string]bool{}
	for _, tool := range d.Tools {
		names[tool.Name] = true
		if tool.InputSchema["type"] != "object" || tool.Description == "" {
			t.Errorf("tool %s: %+v", tool.Name, tool)
		}
	}
	for _, n := range []string{"hashline_read", "hashline_edit", "hashline_write"} {
		if !names[n] {
			t.Errorf("describe lacks %s", n)
		}
	}
	for _, cue := range []string{"| PUT N.=M: |", "+ only", "Ranges name changed lines only", "counts old lines", "Re-ground after every edit",
		"Empty PUT as a delete", "No -old rows, no context rows", "Widened PUT for a pure insertion",
		">N* anchored on a closing line", "Body rows under a register paste", "`PUT 3-5:` as `PUT 3.=5:`"} {
		if !strings.Contains(d.Guidance, cue) {
			t.Errorf("guidance lacks %q", cue)
		}
	}
	// The guide is also the MCP server's instructions, which Claude Code
	// cuts at 4,096 characters; it stays well below, with room to grow.
	if n := utf8.RuneCountInString(d.Guidance); n > 3600 {
		t.Errorf("the guide has %d characters: over 3,600 it comes near the 4,096 Claude Code keeps of MCP instructions; move what does not fit into the tool descriptions", n)
	}
	e := mustOK[*SessionEndResult](t, call(t, s, CmdSessionEnd, map[string]any{"session": "nobody"}))
	if e.Ended {
		t.Fatal("ended a session that never existed")
	}
	s.Sessions.Get("a")
	if e := mustOK[*SessionEndResult](t, call(t, s, CmdSessionEnd, map[string]any{"session": "a"})); !e.Ended {
		t.Fatal("did not end session a")
	}
}

// Every alternate spelling the guidance quotes is one the parser accepts,
// read as the canonical form it names.
func TestAlternatesMatchParser(t *testing.T) {
	for _, a := range hashline.Alternates {
		body := "\n+x"
		if strings.HasPrefix(a.Canonical, "CUT") {
			body = ""
		}
		got, err := hashline.Parse(a.Written + body)
		if err != nil {
			t.Errorf("%s: %v", a.Written, err)
			continue
		}
		if c := got.Ops[0].Canonical(); c != a.Canonical || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0].Message, a.Canonical) {
			t.Errorf("%s: read as %s with warnings %v, want %s", a.Written, c, got.Warnings, a.Canonical)
		}
	}
}

type panicSource struct{}

func (panicSource) Live(context.Context, string) (documents.Live, error) { panic("boom") }

func TestPanicBecomesToolFailed(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "x\n"})
	s.Source = panicSource{}
	e := mustFail(t, call(t, s, CmdRead, map[string]any{"path": "a.txt"}), hashline.CodeToolFailed)
	if !strings.Contains(e.Error.Message, "boom") {
		t.Fatalf("message = %q", e.Error.Message)
	}
}

// Sessions editing different files at once, and one file from many
// sessions: every edit either lands whole or is refused whole.
func TestConcurrentSessions(t *testing.T) {
	files := map[string]string{"shared.txt": "0\n"}
	for i := 0; i < 8; i++ {
		files[filepath.Join("s", string(rune('a'+i))+".txt")] = "start\n"
	}
	s, dir := newServer(t, files)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sess := string(rune('A' + i))
			own := filepath.Join("s", string(rune('a'+i))+".txt")
			for k := 0; k < 10; k++ {
				r, ok := call(t, s, CmdRead, map[string]any{"path": own, "session": sess}).(*ReadResult)
				if !ok {
					t.Error("read failed")
					return
				}
				if _, ok := call(t, s, CmdEdit, map[string]any{"path": own, "session": sess, "tag": r.Tag, "ops": "PUT >$:\n+" + sess}).(*EditResult); !ok {
					t.Error("own edit failed")
				}
				r, _ = call(t, s, CmdRead, map[string]any{"path": "shared.txt", "session": sess}).(*ReadResult)
				call(t, s, CmdEdit, map[string]any{"path": "shared.txt", "session": sess, "tag": r.Tag, "ops": "PUT >$:\n+" + sess})
			}
		}(i)
	}
	wg.Wait()
	for i := 0; i < 8; i++ {
		got := readFile(t, filepath.Join(dir, "s", string(rune('a'+i))+".txt"))
		if want := "start\n" + strings.Repeat(string(rune('A'+i))+"\n", 10); got != want {
			t.Errorf("session %d file = %q", i, got)
		}
	}
	// shared.txt: every line after the first is one whole append.
	for _, l := range strings.Split(strings.TrimSuffix(readFile(t, filepath.Join(dir, "shared.txt")), "\n"), "\n")[1:] {
		if len(l) != 1 || l[0] < 'A' || l[0] > 'H' {
			t.Fatalf("shared.txt has a torn line %q", l)
		}
	}
}

// Lists in results are [] when empty, never null: clients index them.
func TestEmptyListsAreArrays(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "a\n"})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a.txt"}))
	e := mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": r.Tag, "ops": "PUT 1.=1:\n+b"}))
	raw, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"warnings":[]`, `"resolved":[]`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("edit result %s lacks %s", raw, want)
		}
	}
}
