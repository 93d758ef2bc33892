package main

import (
	"encoding/json"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
)

func TestGrepVerb(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.txt":      "Alpha\nbeta\n",
		"src/b.go":   "package b\n// alpha\n",
		"skip.log":   "alpha\n",
		".gitignore": "*.log\n",
	}
	testenv.WriteFiles(t, dir, files)
	ta, tb := hashline.TagOf(files["a.txt"]), hashline.TagOf(files["src/b.go"])

	out, errs, code := verb(t, dir, "", "grep", "alpha", "-i")
	if want := "[a.txt#" + string(ta) + "]\n1:Alpha\n\n[src/b.go#" + string(tb) + "]\n2:// alpha\n"; code != 0 || out != want || errs != "" {
		t.Fatalf("grep: %d %q %q, want %q", code, out, errs, want)
	}
	out, _, code = verb(t, dir, "", "grep", "alpha", "src", "--mode", "filesWithMatches")
	if code != 0 || out != "src/b.go\n" {
		t.Fatalf("grep filesWithMatches: %d %q", code, out)
	}
	out, _, code = verb(t, dir, "", "grep", "--ignore-case", "--mode", "count", "a")
	if code != 0 || out != "a.txt:2\nsrc/b.go:2\n" {
		t.Fatalf("grep count: %d %q", code, out)
	}
	out, errs, code = verb(t, dir, "", "grep", "a", "--glob", "**/*.go", "--max-results", "1")
	// The note follows the matches on stdout, as in the result's text.
	if code != 0 || !strings.HasPrefix(out, "[src/b.go#"+string(tb)+"]\n1:package b\nnote: stopped at maxResults") || errs != "" {
		t.Fatalf("grep glob: %d %q %q", code, out, errs)
	}
	out, _, code = verb(t, dir, "", "grep", "beta", "--json")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || r["ok"] != true || r["tags"].(map[string]any)["a.txt"] != string(ta) {
		t.Fatalf("grep --json: %d %v %q", code, err, out)
	}
	_, errs, code = verb(t, dir, "", "grep", "(")
	if code != 1 || !strings.HasPrefix(errs, "INVALID_ARGUMENT: argument pattern:") {
		t.Fatalf("bad pattern: %d %q", code, errs)
	}
	_, _, code = verb(t, dir, "", "grep")
	if code != 2 {
		t.Fatalf("grep without a pattern: exit %d", code)
	}
}
