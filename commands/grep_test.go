package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

func grepOK(t *testing.T, s *Server, args map[string]any) *GrepResult {
	t.Helper()
	return mustOK[*GrepResult](t, call(t, s, CmdGrep, args))
}

func matchedFiles(r *GrepResult) []string {
	var out []string
	for _, m := range r.Matches {
		if len(out) == 0 || out[len(out)-1] != m.Path {
			out = append(out, m.Path)
		}
	}
	return out
}

func TestGrepContent(t *testing.T) {
	a, b := "alpha\nbeta\nalphabet\n", "x\r\nalpha  \r\n"
	s, _ := newServer(t, map[string]string{"a.txt": a, "c.txt": "none\n", "sub/b.txt": b})
	r := grepOK(t, s, map[string]any{"pattern": "alpha"})
	ta, tb := string(hashline.TagOf(a)), string(hashline.TagOf(b))
	want := "[a.txt#" + ta + "]\n1:alpha\n3:alphabet\n\n[sub/b.txt#" + tb + "]\n2:alpha  \n"
	if r.Content != want {
		t.Fatalf("content = %q, want %q", r.Content, want)
	}
	if !reflect.DeepEqual(r.Tags, map[string]string{"a.txt": ta, "sub/b.txt": tb}) {
		t.Fatalf("tags = %v", r.Tags)
	}
	wantMatches := []GrepMatch{{"a.txt", 1, "alpha"}, {"a.txt", 3, "alphabet"}, {"sub/b.txt", 2, "alpha  "}}
	if !reflect.DeepEqual(r.Matches, wantMatches) || r.Truncated || r.Notice != "" || r.Counts != nil || r.Files != nil {
		t.Fatalf("result = %+v", r)
	}
	raw, _ := json.Marshal(r)
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"counts", "files", "notice"} {
		if _, ok := obj[k]; ok {
			t.Errorf("content mode result has %s: %s", k, raw)
		}
	}

	// No match: empty list and map, never null.
	r = grepOK(t, s, map[string]any{"pattern": "zzz"})
	raw, _ = json.Marshal(r)
	if !strings.Contains(string(raw), `"matches":[]`) || !strings.Contains(string(raw), `"tags":{}`) || r.Content != "" {
		t.Fatalf("no-match result = %s", raw)
	}
	raw, _ = json.Marshal(grepOK(t, s, map[string]any{"pattern": "zzz", "mode": "count"}))
	if !strings.Contains(string(raw), `"counts":{}`) {
		t.Fatalf("empty count result = %s", raw)
	}
	raw, _ = json.Marshal(grepOK(t, s, map[string]any{"pattern": "zzz", "mode": "filesWithMatches"}))
	if !strings.Contains(string(raw), `"files":[]`) {
		t.Fatalf("empty files result = %s", raw)
	}
}

func TestGrepHitIsEditAnchor(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	r := grepOK(t, s, map[string]any{"pattern": "^two$"})
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": r.Tags["a.txt"], "ops": "PUT 2.=2:\n+TWO"}))
	if got := readFile(t, filepath.Join(dir, "a.txt")); got != "one\nTWO\nthree\n" {
		t.Fatalf("file = %q", got)
	}

	// In a session that only grepped, an unmatched line is not an anchor.
	r = grepOK(t, s, map[string]any{"pattern": "TWO", "session": "other"})
	mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": r.Tags["a.txt"], "ops": "PUT 3.=3:\n+THREE", "session": "other"}), hashline.CodeLinesUnseen)
	if got := readFile(t, filepath.Join(dir, "a.txt")); got != "one\nTWO\nthree\n" {
		t.Fatalf("refused edit wrote: %q", got)
	}
}

// filesWithMatches and count show no line, so they mint a tag with an empty
// seen set: version checks pass, and every anchor is refused.
func TestGrepListModesSeeNothing(t *testing.T) {
	files := map[string]string{"a.txt": "hit\nx\nhit\n", "b.txt": "no\n", "c/d.txt": "hit\n"}
	for _, mode := range []string{GrepFilesWithMatches, GrepCount} {
		t.Run(mode, func(t *testing.T) {
			s, _ := newServer(t, files)
			r := grepOK(t, s, map[string]any{"pattern": "hit", "mode": mode})
			ta, td := string(hashline.TagOf(files["a.txt"])), string(hashline.TagOf(files["c/d.txt"]))
			if !reflect.DeepEqual(r.Tags, map[string]string{"a.txt": ta, "c/d.txt": td}) || len(r.Matches) != 0 || r.Matches == nil || r.Truncated {
				t.Fatalf("result = %+v", r)
			}
			if mode == GrepCount {
				if !reflect.DeepEqual(r.Counts, map[string]int{"a.txt": 2, "c/d.txt": 1}) || r.Files != nil {
					t.Fatalf("counts = %v files = %v", r.Counts, r.Files)
				}
				if want := "[a.txt#" + ta + "] 2\n[c/d.txt#" + td + "] 1\n"; r.Content != want {
					t.Fatalf("content = %q, want %q", r.Content, want)
				}
			} else {
				if !reflect.DeepEqual(r.Files, []string{"a.txt", "c/d.txt"}) || r.Counts != nil {
					t.Fatalf("files = %v counts = %v", r.Files, r.Counts)
				}
				if want := "[a.txt#" + ta + "]\n[c/d.txt#" + td + "]\n"; r.Content != want {
					t.Fatalf("content = %q, want %q", r.Content, want)
				}
			}
			for _, ops := range []string{"PUT 1.=1:\n+HIT", "PUT 2.=2:\n+X", "CUT 3.=3"} {
				e := mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": ta, "ops": ops, "turn": ops}), hashline.CodeLinesUnseen)
				if e.Error.Details.LiveTag != "" && e.Error.Details.LiveTag != ta {
					t.Fatalf("live tag %s", e.Error.Details.LiveTag)
				}
			}
		})
	}
}

func TestGrepIgnoreRules(t *testing.T) {
	s, _ := newServer(t, map[string]string{
		".gitignore":        "# comment\n\n*.log\nbuild/\n/rootonly.txt\r\n",
		".git/config":       "hit\n",
		".git/info/exclude": "excluded.txt\n",
		"app.log":           "hit\n",
		"build/out.txt":     "hit\n",
		"excluded.txt":      "hit\n",
		"keep/.gitignore":   "!keep.log\n",
		"keep/keep.log":     "hit\n",
		"keep/other.log":    "hit\n",
		"main.txt":          "hit\n",
		"nested/.gitignore": "secret.txt\n",
		"nested/secret.txt": "hit\n",
		"nested/open.txt":   "hit\n",
		"notdir/build":      "hit\n",
		"rootonly.txt":      "hit\n",
		"secret.txt":        "hit\n",
		"src/build/x.txt":   "hit\n",
		"sub/rootonly.txt":  "hit\n",
	})
	r := grepOK(t, s, map[string]any{"pattern": "hit", "mode": "filesWithMatches"})
	want := []string{"keep/keep.log", "main.txt", "nested/open.txt", "notdir/build", "secret.txt", "sub/rootonly.txt"}
	if !reflect.DeepEqual(r.Files, want) {
		t.Fatalf("files = %v, want %v", r.Files, want)
	}
	// Rules still apply below a folder named by path.
	r = grepOK(t, s, map[string]any{"pattern": "hit", "mode": "filesWithMatches", "path": "nested"})
	if !reflect.DeepEqual(r.Files, []string{"nested/open.txt"}) {
		t.Fatalf("nested files = %v", r.Files)
	}
	r = grepOK(t, s, map[string]any{"pattern": "hit", "mode": "filesWithMatches", "path": "keep"})
	if !reflect.DeepEqual(r.Files, []string{"keep/keep.log"}) {
		t.Fatalf("keep files = %v", r.Files)
	}
	// A name the caller gives outright is searched even when ignored.
	r = grepOK(t, s, map[string]any{"pattern": "hit", "mode": "filesWithMatches", "path": "build"})
	if !reflect.DeepEqual(r.Files, []string{"build/out.txt"}) {
		t.Fatalf("build files = %v", r.Files)
	}
	r = grepOK(t, s, map[string]any{"pattern": "hit", "path": "app.log"})
	if !reflect.DeepEqual(matchedFiles(r), []string{"app.log"}) {
		t.Fatalf("app.log matches = %v", r.Matches)
	}
}

func TestGrepSkipsBinary(t *testing.T) {
	s, _ := newServer(t, map[string]string{"bin.dat": "hit\x00\x01", "text.txt": "hit\n"})
	r := grepOK(t, s, map[string]any{"pattern": "hit"})
	if !reflect.DeepEqual(matchedFiles(r), []string{"text.txt"}) {
		t.Fatalf("matches = %v", r.Matches)
	}
	r = grepOK(t, s, map[string]any{"pattern": "hit", "path": "bin.dat"})
	if len(r.Matches) != 0 || !strings.Contains(r.Notice, "binary") {
		t.Fatalf("named binary = %+v", r)
	}
}

func TestGrepGlobAndPath(t *testing.T) {
	s, _ := newServer(t, map[string]string{
		"main.go": "hit\n", "README.md": "hit\n", "src/a.go": "hit\n", "src/deep/b.go": "hit\n", "src/c.txt": "hit\n", "lib/d.go": "hit\n",
	})
	cases := []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"glob": "**/*.go"}, []string{"lib/d.go", "main.go", "src/a.go", "src/deep/b.go"}},
		{map[string]any{"glob": "*.go"}, []string{"lib/d.go", "main.go", "src/a.go", "src/deep/b.go"}},
		{map[string]any{"glob": "src/**"}, []string{"src/a.go", "src/c.txt", "src/deep/b.go"}},
		{map[string]any{"glob": "src/*.{go,txt}"}, []string{"src/a.go", "src/c.txt"}},
		{map[string]any{"path": "src"}, []string{"src/a.go", "src/c.txt", "src/deep/b.go"}},
		{map[string]any{"path": "src/deep/"}, []string{"src/deep/b.go"}},
		{map[string]any{"path": "src", "glob": "**/*.go"}, []string{"src/a.go", "src/deep/b.go"}},
		{map[string]any{"path": "src/c.txt"}, []string{"src/c.txt"}},
		{map[string]any{"path": filepath.Join(s.Roots.List()[0], "lib")}, []string{"lib/d.go"}},
		{map[string]any{"path": "."}, []string{"README.md", "lib/d.go", "main.go", "src/a.go", "src/c.txt", "src/deep/b.go"}},
		{map[string]any{"path": s.Roots.List()[0]}, []string{"README.md", "lib/d.go", "main.go", "src/a.go", "src/c.txt", "src/deep/b.go"}},
	}
	for _, c := range cases {
		c.args["pattern"], c.args["mode"] = "hit", "filesWithMatches"
		r := grepOK(t, s, c.args)
		if !reflect.DeepEqual(r.Files, c.want) {
			t.Errorf("%v: files = %v, want %v", c.args, r.Files, c.want)
		}
	}
	e := mustFail(t, call(t, s, CmdGrep, map[string]any{"pattern": "hit", "path": "nope"}), hashline.CodeInvalidArgument)
	if e.Error.Details.Field != "path" {
		t.Fatalf("missing path: field %q", e.Error.Details.Field)
	}
	mustFail(t, call(t, s, CmdGrep, map[string]any{"pattern": "hit", "path": "../elsewhere"}), hashline.CodePathOutsideWorkspace)
	e = mustFail(t, call(t, s, CmdGrep, map[string]any{"pattern": "hit", "glob": "src/[a"}), hashline.CodeInvalidArgument)
	if e.Error.Details.Field != "glob" {
		t.Fatalf("bad glob: field %q", e.Error.Details.Field)
	}
}

func TestGrepIgnoreCase(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "Hello\nhello\nHELLO\nbye\n"})
	if r := grepOK(t, s, map[string]any{"pattern": "hello"}); len(r.Matches) != 1 {
		t.Fatalf("case-sensitive matches = %v", r.Matches)
	}
	r := grepOK(t, s, map[string]any{"pattern": "hello", "ignoreCase": true})
	if len(r.Matches) != 3 || r.Matches[2].Text != "HELLO" {
		t.Fatalf("ignoreCase matches = %v", r.Matches)
	}
}

func TestGrepMaxResults(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "hit\nhit\nno\nhit\n", "b.txt": "hit\nhit\n", "c.txt": "hit\n"})
	r := grepOK(t, s, map[string]any{"pattern": "hit", "maxResults": 3})
	if len(r.Matches) != 3 || !r.Truncated || !strings.Contains(r.Notice, "maxResults") || !reflect.DeepEqual(matchedFiles(r), []string{"a.txt"}) {
		t.Fatalf("truncated in a file: %+v", r)
	}
	r = grepOK(t, s, map[string]any{"pattern": "hit", "maxResults": 4})
	if len(r.Matches) != 4 || !r.Truncated || len(r.Tags) != 2 || !strings.HasSuffix(r.Content, "\n\n[b.txt#"+r.Tags["b.txt"]+"]\n1:hit\n") {
		t.Fatalf("truncated across files: %+v", r)
	}
	// Exactly as many as there are is not truncated.
	r = grepOK(t, s, map[string]any{"pattern": "hit", "maxResults": 6})
	if len(r.Matches) != 6 || r.Truncated || r.Notice != "" {
		t.Fatalf("exact fit: %+v", r)
	}
	r = grepOK(t, s, map[string]any{"pattern": "hit", "maxResults": 2, "mode": "filesWithMatches"})
	if !reflect.DeepEqual(r.Files, []string{"a.txt", "b.txt"}) || !r.Truncated || !strings.Contains(r.Notice, "2 files") || len(r.Tags) != 2 {
		t.Fatalf("files truncated: %+v", r)
	}
	r = grepOK(t, s, map[string]any{"pattern": "hit", "maxResults": 1, "mode": "count"})
	if !reflect.DeepEqual(r.Counts, map[string]int{"a.txt": 3}) || !r.Truncated {
		t.Fatalf("count truncated: %+v", r)
	}
}

func TestGrepArguments(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "x\n"})
	e := mustFail(t, call(t, s, CmdGrep, map[string]any{"pattern": "(a"}), hashline.CodeInvalidArgument)
	if e.Error.Details.Field != "pattern" || !strings.Contains(e.Error.Message, "missing closing )") {
		t.Fatalf("bad regexp: %+v", e.Error)
	}
	for _, c := range []struct{ args, field string }{
		{`{}`, "pattern"},
		{`{"pattern": ""}`, "pattern"},
		{`{"pattern": 3}`, "pattern"},
		{`{"pattern": "x", "mode": "lines"}`, "mode"},
		{`{"pattern": "x", "maxResults": 0}`, "maxResults"},
		{`{"pattern": "x", "ignoreCase": "yes"}`, "ignoreCase"},
		{`{"pattern": "x", "context": 2}`, "context"},
	} {
		res, err := s.Run(context.Background(), Call{Command: CmdGrep, Args: json.RawMessage(c.args)})
		if err != nil {
			t.Fatal(err)
		}
		if e := mustFail(t, res, hashline.CodeInvalidArgument); e.Error.Details.Field != c.field {
			t.Errorf("%s: field %q, want %q", c.args, e.Error.Details.Field, c.field)
		}
	}
}

func TestGrepSymlinks(t *testing.T) {
	s, dir := newServer(t, map[string]string{"in.txt": "hit inside\n", "real/r.txt": "hit real\n"})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("hit secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"out.txt":  filepath.Join(outside, "secret.txt"),
		"outdir":   outside,
		"link.txt": filepath.Join(dir, "in.txt"),
		"linkdir":  filepath.Join(dir, "real"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	r := grepOK(t, s, map[string]any{"pattern": "hit"})
	if want := []string{"in.txt", "link.txt", "real/r.txt"}; !reflect.DeepEqual(matchedFiles(r), want) {
		t.Fatalf("files = %v, want %v", matchedFiles(r), want)
	}
	for _, m := range r.Matches {
		if strings.Contains(m.Text, "secret") {
			t.Fatalf("searched outside the workspace: %+v", m)
		}
	}
	// The link's tag edits the file it resolves to.
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "link.txt", "tag": r.Tags["link.txt"], "ops": "PUT 1.=1:\n+hit edited"}))
	if got := readFile(t, filepath.Join(dir, "in.txt")); got != "hit edited\n" {
		t.Fatalf("in.txt = %q", got)
	}
	mustFail(t, call(t, s, CmdGrep, map[string]any{"pattern": "hit", "path": "out.txt"}), hashline.CodePathOutsideWorkspace)
}

// bufferSource serves one file from an editor buffer that differs from the
// disk, as an open document with unsaved typing does.
type bufferSource struct {
	documents.Disk
	abs, text string
}

func (b bufferSource) Live(ctx context.Context, abs string) (documents.Live, error) {
	if abs == b.abs {
		return documents.Live{Text: hashline.NewText(b.text), Open: true, Version: 7}, nil
	}
	return b.Disk.Live(ctx, abs)
}

func TestGrepSearchesOpenBuffers(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a.txt": "saved\n", "b.txt": "saved\n"})
	buffer := "saved\nunsaved typing\n"
	s.Source = bufferSource{Disk: documents.Disk{Roots: s.Roots}, abs: filepath.Join(s.Roots.List()[0], "a.txt"), text: buffer}
	r := grepOK(t, s, map[string]any{"pattern": "saved"})
	want := "[a.txt#" + string(hashline.TagOf(buffer)) + "]\n1:saved\n2:unsaved typing\n\n[b.txt#" + string(hashline.TagOf("saved\n")) + "]\n1:saved\n"
	if r.Content != want {
		t.Fatalf("content = %q, want %q", r.Content, want)
	}
	if r.Tags["a.txt"] != string(hashline.TagOf(buffer)) {
		t.Fatalf("tags = %v", r.Tags)
	}
	if got := readFile(t, filepath.Join(dir, "a.txt")); got != "saved\n" {
		t.Fatalf("disk changed: %q", got)
	}
}

// cancellingSource cancels the search as soon as the first file is read.
type cancellingSource struct {
	documents.Disk
	cancel context.CancelFunc
}

func (c cancellingSource) Live(ctx context.Context, abs string) (documents.Live, error) {
	c.cancel()
	return c.Disk.Live(ctx, abs)
}

func TestGrepCancelled(t *testing.T) {
	s, _ := newServer(t, map[string]string{"a.txt": "hit\n", "b.txt": "hit\n", "c/d.txt": "hit\n"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Source = cancellingSource{Disk: documents.Disk{Roots: s.Roots}, cancel: cancel}
	res, err := s.Run(ctx, Call{Command: CmdGrep, Args: json.RawMessage(`{"pattern": "hit"}`)})
	if err != nil {
		t.Fatal(err)
	}
	r := mustOK[*GrepResult](t, res)
	if !reflect.DeepEqual(matchedFiles(r), []string{"a.txt"}) || !r.Truncated || !strings.Contains(r.Notice, "cancelled after 1 files") {
		t.Fatalf("cancelled result = %+v", r)
	}
}

type progressLog struct {
	mu      sync.Mutex
	reports []string
}

func (p *progressLog) Report(message string, percentage int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reports = append(p.reports, fmt.Sprintf("%s %d", message, percentage))
}

func TestGrepReportsProgress(t *testing.T) {
	files := map[string]string{}
	for i := range 450 {
		files[fmt.Sprintf("d%d/f%03d.txt", i%3, i)] = "x\n"
	}
	s, _ := newServer(t, files)
	p := &progressLog{}
	res, err := s.Run(WithProgress(context.Background(), p), Call{Command: CmdGrep, Args: json.RawMessage(`{"pattern": "nothing"}`)})
	if err != nil {
		t.Fatal(err)
	}
	mustOK[*GrepResult](t, res)
	want := []string{"searched 200 files 0", "searched 400 files 0", "searched 450 files 100"}
	if !reflect.DeepEqual(p.reports, want) {
		t.Fatalf("reports = %v, want %v", p.reports, want)
	}
	// Without a Progress in the context nothing is reported, and nothing fails.
	mustOK[*GrepResult](t, call(t, s, CmdGrep, map[string]any{"pattern": "nothing"}))
}

func TestGrepClippedLine(t *testing.T) {
	long := "hit " + strings.Repeat("y", hashline.MaxLineChars)
	s, _ := newServer(t, map[string]string{"a.txt": "hit short\n" + long + "\n"})
	r := grepOK(t, s, map[string]any{"pattern": "hit"})
	if len(r.Matches) != 2 || !strings.HasPrefix(r.Matches[1].Text, "hit yyy") || !strings.Contains(r.Matches[1].Text, "clipped") ||
		len(r.Matches[1].Text) > hashline.MaxLineChars+100 || !strings.Contains(r.Notice, "a.txt:2") {
		t.Fatalf("clipped match: notice %q, text length %d", r.Notice, len(r.Matches[1].Text))
	}
	// The row shown is the row in content, and it is not an anchor.
	if !strings.Contains(r.Content, "\n2:"+r.Matches[1].Text+"\n") {
		t.Fatal("match text differs from the rendered row")
	}
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": r.Tags["a.txt"], "ops": "PUT 1.=1:\n+hit SHORT"}))
	r = grepOK(t, s, map[string]any{"pattern": "hit", "session": "fresh"})
	mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": r.Tags["a.txt"], "ops": "PUT 2.=2:\n+x", "session": "fresh"}), hashline.CodeLinesUnseen)
}

// With two workspace folders a relative path can name a file in each; the
// second one is shown by its absolute path so the tag edits the right file.
func TestGrepTwoRoots(t *testing.T) {
	one, two := t.TempDir(), t.TempDir()
	for _, d := range []string{one, two} {
		if err := os.WriteFile(filepath.Join(d, "a.txt"), []byte("hit "+filepath.Base(d)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(two, "b.txt"), []byte("hit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := workspace.New(one, two)
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Roots: roots, Sessions: hashline.NewSessions(), Source: documents.Disk{Roots: roots}, Sink: documents.Disk{Roots: roots}}
	r := grepOK(t, s, map[string]any{"pattern": "hit", "mode": "filesWithMatches"})
	second := filepath.ToSlash(filepath.Join(roots.List()[1], "a.txt"))
	if want := []string{"a.txt", second, "b.txt"}; !reflect.DeepEqual(r.Files, want) {
		t.Fatalf("files = %v, want %v", r.Files, want)
	}
	r = grepOK(t, s, map[string]any{"pattern": "hit"})
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": second, "tag": r.Tags[second], "ops": "PUT 1.=1:\n+edited"}))
	if got := readFile(t, filepath.Join(two, "a.txt")); got != "edited\n" {
		t.Fatalf("second root a.txt = %q", got)
	}
	if got := readFile(t, filepath.Join(one, "a.txt")); got == "edited\n" {
		t.Fatal("edited the first root's file")
	}
}

func TestDescribeListsGrep(t *testing.T) {
	tools := Tools()
	if tools[0].Name != "hashline_read" || tools[1].Name != "hashline_grep" || tools[1].Command != CmdGrep {
		t.Fatalf("tool order: %s, %s", tools[0].Name, tools[1].Name)
	}
	props := tools[1].InputSchema["properties"].(map[string]any)
	for _, k := range []string{"pattern", "path", "glob", "mode", "ignoreCase", "maxResults"} {
		if props[k] == nil {
			t.Errorf("schema lacks %s", k)
		}
	}
	found := false
	for _, c := range Commands() {
		found = found || c == CmdGrep
	}
	if !found {
		t.Fatal("Commands lacks hashline.grep")
	}
}

// cancellingProgress cancels the search at its first report.
type cancellingProgress struct{ cancel context.CancelFunc }

func (c cancellingProgress) Report(string, int) { c.cancel() }

// Off the disk, files are searched several at once, and a cancelled search
// still stops at the first file the result has not taken.
func TestGrepCancelledWhileReadingAhead(t *testing.T) {
	files := map[string]string{}
	for i := range 1000 {
		files[fmt.Sprintf("d%d/f%04d.txt", i%7, i)] = "hit\n"
	}
	s, _ := newServer(t, files)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := s.Run(WithProgress(ctx, cancellingProgress{cancel}), Call{Command: CmdGrep, Args: json.RawMessage(`{"pattern": "hit", "maxResults": 5000}`)})
	if err != nil {
		t.Fatal(err)
	}
	r := mustOK[*GrepResult](t, res)
	if len(r.Matches) != progressEvery || !r.Truncated || !strings.Contains(r.Notice, fmt.Sprintf("cancelled after %d files", progressEvery)) {
		t.Fatalf("cancelled result: %d matches, truncated %v, notice %q", len(r.Matches), r.Truncated, r.Notice)
	}
}
