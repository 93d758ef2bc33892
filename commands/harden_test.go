package commands

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"hashline-ls/hashline"
	"hashline-ls/hashline/blocks"
	"hashline-ls/internal/testenv"
)

// The report's HTML: PUT 2*: on long custom tags nested 25 deep, which
// tree-sitter-html answers with erroneous_end_tag nodes and no ERROR, is
// declined and writes nothing (docs/contract.md §10.4). Before the fix it
// replaced lines 2-50 instead of 2-51 and left a broken file.
func TestEditBlockOnHTMLTheParserLostTrackOf(t *testing.T) {
	const tag = "custom-element-with-a-long-name-here-xx"
	rows := []string{"<div>"}
	for i := 1; i <= 25; i++ {
		rows = append(rows, strings.Repeat(" ", i)+"<"+tag+">")
	}
	for i := 25; i >= 1; i-- {
		rows = append(rows, strings.Repeat(" ", i)+"</"+tag+">")
	}
	text := strings.Join(append(rows, "</div>"), "\n") + "\n"
	s, dir := newServer(t, map[string]string{"x.html": text})
	s.Blocks = blocks.New()
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "x.html"}))
	e := mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "x.html", "tag": r.Tag, "ops": "PUT 2*:\n+<p>replaced</p>"}), hashline.CodeBlockUnresolved)
	if !strings.Contains(e.Error.Message, "erroneous end tag") {
		t.Fatalf("message %q does not say why", e.Error.Message)
	}
	if got := readFile(t, filepath.Join(dir, "x.html")); got != text {
		t.Fatalf("x.html changed:\n%s", got)
	}
}

// grepSoon runs a grep that must answer within a failure bound: a read
// that blocks on a FIFO would never answer.
func grepSoon(t *testing.T, s *Server, args map[string]any) any {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan Result, 1)
	go func() {
		res, _ := s.Run(context.Background(), Call{Command: CmdGrep, Args: raw})
		done <- res
	}()
	select {
	case res := <-done:
		return res
	case <-time.After(10 * time.Second):
		t.Fatal("grep did not answer: it blocked on a read")
		return nil
	}
}

// Ignore files that are FIFOs, or links out of the workspace, are skipped
// with a warning, and grep answers (docs/design.md §7.3). Before the
// fix, a FIFO .gitignore hung grep, and a .gitignore linking to rules
// outside the workspace was read and obeyed.
func TestGrepIgnoreFilesConfined(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "rules"), []byte("*.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, at string
		make     func(path string) error
		why      string
	}{
		{"a FIFO .gitignore", ".gitignore", testenv.Mkfifo, "not a regular file"},
		{"a FIFO sub/.gitignore", "sub/.gitignore", testenv.Mkfifo, "not a regular file"},
		{"a FIFO .git/info/exclude", ".git/info/exclude", testenv.Mkfifo, "not a regular file"},
		{"a .gitignore linking out", ".gitignore", func(p string) error { return os.Symlink(filepath.Join(outside, "rules"), p) }, "outside the workspace"},
		{"a sub/.gitignore linking out", "sub/.gitignore", func(p string) error { return os.Symlink(filepath.Join(outside, "rules"), p) }, "outside the workspace"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, dir := newServer(t, map[string]string{"a.txt": "hit\n", "sub/b.txt": "hit\n", ".git/info/.keep": ""})
			if err := c.make(filepath.Join(dir, c.at)); err != nil {
				t.Fatal(err)
			}
			r := mustOK[*GrepResult](t, grepSoon(t, s, map[string]any{"pattern": "hit"}))
			if got := matchedFiles(r); !reflect.DeepEqual(got, []string{"a.txt", "sub/b.txt"}) {
				t.Fatalf("files = %v: the skipped ignore file's rules must not apply", got)
			}
			if !strings.Contains(r.Notice, c.at) || !strings.Contains(r.Notice, c.why) {
				t.Fatalf("notice %q does not warn that %s was skipped (%s)", r.Notice, c.at, c.why)
			}
		})
	}
}

// maxResults at the largest integer is no overflow: every match comes
// back, in every mode (docs/contract.md §19.2); one past it is refused.
func TestGrepMaxResultsAtTheLimit(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "hit\nhit\n", "b.txt": "hit\n"})
	for _, mode := range []string{GrepContent, GrepCount, GrepFilesWithMatches} {
		r := mustOK[*GrepResult](t, call(t, s, CmdGrep, json.RawMessage(`{"pattern":"hit","mode":"`+mode+`","maxResults":9223372036854775807}`)))
		if r.Truncated || len(r.Tags) != 2 || mode == GrepContent && len(r.Matches) != 3 {
			t.Fatalf("%s: %d matches, tags %v, truncated %v: want every match", mode, len(r.Matches), r.Tags, r.Truncated)
		}
	}
	mustFail(t, call(t, s, CmdGrep, json.RawMessage(`{"pattern":"hit","maxResults":9223372036854775808}`)), hashline.CodeInvalidArgument)
}

// A pattern over the cap is refused before it is compiled
// (docs/contract.md §19.2). Before, 100,000 characters were accepted.
func TestGrepPatternCapped(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "hit\n"})
	e := mustFail(t, call(t, s, CmdGrep, map[string]any{"pattern": strings.Repeat("a", 100000)}), hashline.CodeInvalidArgument)
	if e.Error.Details.Field != "pattern" || !strings.Contains(e.Error.Message, "100000 bytes") || len(e.Error.Message) > 300 {
		t.Fatalf("refusal = %q (field %q), want a short INVALID_ARGUMENT on pattern naming its size", e.Error.Message, e.Error.Details.Field)
	}
	mustOK[*GrepResult](t, call(t, s, CmdGrep, map[string]any{"pattern": strings.Repeat("(?:hit)?", 400) + "hit"}))
}

// An ignore file that links inside the workspace, relatively or by an
// absolute path, is read as before.
func TestGrepIgnoreFileLinkedInside(t *testing.T) {
	for _, abs := range []bool{false, true} {
		s, dir := newServer(t, map[string]string{"a.txt": "hit\n", "b.log": "hit\n", "shared/rules": "*.log\n"})
		target := filepath.Join("shared", "rules")
		if abs {
			target = filepath.Join(dir, target)
		}
		if err := os.Symlink(target, filepath.Join(dir, ".gitignore")); err != nil {
			t.Fatal(err)
		}
		r := mustOK[*GrepResult](t, grepSoon(t, s, map[string]any{"pattern": "hit"}))
		if got := matchedFiles(r); !reflect.DeepEqual(got, []string{"a.txt"}) || r.Notice != "" {
			t.Fatalf("absolute link %v: files %v, notice %q: want the linked rules applied", abs, got, r.Notice)
		}
	}
}
