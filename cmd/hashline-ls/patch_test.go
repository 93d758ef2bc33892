package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
)

func fileText(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadLineAnchorsVerb(t *testing.T) {
	dir := t.TempDir()
	body := "def greet(name):\n    return f\"hello {name}\"\n\n"
	testenv.WriteFiles(t, dir, map[string]string{"a.py": body})
	tag := string(hashline.TagOf(body))
	out, errs, code := verb(t, dir, "", "read", "a.py", "--anchors", "line")
	if want := "[a.py#" + tag + "]\n1:fb|def greet(name):\n2:5d|    return f\"hello {name}\"\n3:c5|\n"; code != 0 || out != want || errs != "" {
		t.Fatalf("read --anchors line: %d %q %q, want %q", code, out, errs, want)
	}
	// With a window, and as JSON.
	out, _, code = verb(t, dir, "", "read", "--anchors", "line", "a.py", "--offset", "2", "--limit", "1", "--json")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatalf("read --json: %d %v %q", code, err, out)
	}
	if r["content"] != "[a.py#"+tag+"]\n2:5d|    return f\"hello {name}\"\n" {
		t.Fatalf("content = %q", r["content"])
	}
	// An anchor style that does not exist is refused.
	if _, errs, code := verb(t, dir, "", "read", "a.py", "--anchors", "hash"); code != 1 || !strings.HasPrefix(errs, "INVALID_ARGUMENT: ") {
		t.Fatalf("--anchors hash: %d %q", code, errs)
	}
	// grep shows the same anchors.
	out, _, code = verb(t, dir, "", "grep", "return", "--anchors", "line")
	if code != 0 || !strings.Contains(out, "]\n2:5d|    return f\"hello {name}\"\n") {
		t.Fatalf("grep --anchors line: %d %q", code, out)
	}
}

// A shell call remembers nothing, so patch needs no earlier read: every
// anchor is still re-hashed against the file.
func TestPatchVerb(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"a.txt": "alpha\nbeta\n", "sub/b.txt": "one\r\ntwo\r\n"})
	patch := "@@ a.txt\n= 2:" + hashline.LineHash("beta") + "\n~BETA\n@@ sub/b.txt\n+ 2:" + hashline.LineHash("two") + "\n~three\n"
	out, errs, code := verb(t, dir, patch, "patch")
	ta, tb := string(hashline.TagOf("alpha\nBETA\n")), string(hashline.TagOf("one\r\ntwo\r\nthree\r\n"))
	if want := "[a.txt#" + ta + "]\n[sub/b.txt#" + tb + "]\n"; code != 0 || out != want || errs != "" {
		t.Fatalf("patch: %d %q %q, want %q", code, out, errs, want)
	}
	if fileText(t, dir, "a.txt") != "alpha\nBETA\n" || fileText(t, dir, "sub/b.txt") != "one\r\ntwo\r\nthree\r\n" {
		t.Fatalf("files: %q %q", fileText(t, dir, "a.txt"), fileText(t, dir, "sub/b.txt"))
	}

	// From a file, as JSON.
	testenv.WriteFiles(t, dir, map[string]string{"p.patch": "@@ a.txt\n- 1:" + hashline.LineHash("alpha") + "\n"})
	out, _, code = verb(t, dir, "", "patch", "--patch", "p.patch", "--json")
	var r struct {
		OK    bool `json:"ok"`
		Files []struct {
			Path, Tag, Header string
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || !r.OK || len(r.Files) != 1 || r.Files[0].Path != "a.txt" || r.Files[0].Tag != string(hashline.TagOf("BETA\n")) {
		t.Fatalf("patch --json: %d %v %q", code, err, out)
	}
	if got := fileText(t, dir, "a.txt"); got != "BETA\n" {
		t.Fatalf("a.txt = %q", got)
	}
}

func TestPatchVerbRefuses(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.txt": "alpha\nbeta\n", "b.txt": "one\ntwo\n"}
	testenv.WriteFiles(t, dir, files)
	unchanged := func() {
		t.Helper()
		for name, want := range files {
			if got := fileText(t, dir, name); got != want {
				t.Fatalf("%s = %q, want it untouched", name, got)
			}
		}
	}
	// One stale anchor of two files: exit 1, CODE: message on stderr, and
	// neither file written.
	stale := "@@ a.txt\n= 1:" + hashline.LineHash("alpha") + "\n~ALPHA\n@@ b.txt\n= 2:" + hashline.LineHash("TWO") + "\n~2\n"
	out, errs, code := verb(t, dir, stale, "patch")
	if code != 1 || out != "" || !strings.HasPrefix(errs, "EDIT_TAG_MISMATCH: the patch has 1 problem(s) and nothing was written") ||
		!strings.Contains(errs, "b.txt, patch line 5: anchor 2:"+hashline.LineHash("TWO")+" is stale") || !strings.Contains(errs, "re-read around line 2") {
		t.Fatalf("stale patch: %d %q %q", code, out, errs)
	}
	unchanged()
	// With --json the problems come back listed.
	out, _, code = verb(t, dir, stale, "patch", "--json")
	var r struct {
		OK    bool `json:"ok"`
		Error struct {
			Details struct {
				Problems []hashline.Problem `json:"problems"`
			} `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || r.OK || len(r.Error.Details.Problems) != 1 || r.Error.Details.Problems[0].Path != "b.txt" || r.Error.Details.Problems[0].Line != 5 {
		t.Fatalf("stale patch --json: %d %v %q", code, err, out)
	}
	unchanged()
	// Syntax problems, a missing file and a path outside: all listed.
	_, errs, code = verb(t, dir, "@@ a.txt\n  - 1:00\n@@ ../x.txt\n- 1:00\n@@ none.txt\n- 1:00\n", "patch")
	for _, w := range []string{"the patch has 3 problem(s)", "markers start in column 1", "outside the workspace", "there is no file at none.txt"} {
		if code != 1 || !strings.Contains(errs, w) {
			t.Errorf("problem patch: %d, stderr %q lacks %q", code, errs, w)
		}
	}
	unchanged()
	// patch takes no path argument.
	if _, errs, code := verb(t, dir, stale, "patch", "a.txt"); code != 2 || !strings.Contains(errs, "patch takes 0 path argument(s)") {
		t.Fatalf("patch with a path: %d %q", code, errs)
	}
	unchanged()
}
