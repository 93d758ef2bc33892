package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// verb runs the command line in dir, in process.
func verb(t *testing.T, dir, stdin string, args ...string) (string, string, int) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

var headerRe = regexp.MustCompile(`^\[([^#]+)#([0-9A-F]{4})\]\n`)

func TestVerbs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\nbeta\ngamma\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := verb(t, dir, "", "read", "a.txt")
	m := headerRe.FindStringSubmatch(out)
	if code != 0 || m == nil || m[1] != "a.txt" || !strings.HasSuffix(out, "1:alpha\n2:beta\n3:gamma\n") {
		t.Fatalf("read: %d %q", code, out)
	}
	tag := m[2]

	// Flags after the path, ops on stdin.
	out, errs, code := verb(t, dir, "PUT 2.=2:\n+BETA\n", "edit", "a.txt", "--tag", tag)
	if code != 0 || !strings.Contains(out, "-beta\n+BETA\n") || errs != "" {
		t.Fatalf("edit: %d %q %q", code, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "alpha\nBETA\ngamma\n" {
		t.Fatalf("file = %q", b)
	}

	// A shell call remembers nothing, so the old tag is unknown: exit 1,
	// CODE: message on stderr, and the live rows to retry with.
	out, errs, code = verb(t, dir, "PUT 2.=2:\n+x\n", "edit", "a.txt", "--tag", tag)
	if code != 1 || out != "" || !strings.HasPrefix(errs, "EDIT_TAG_UNKNOWN: ") || !strings.Contains(errs, "2:BETA\n") {
		t.Fatalf("stale edit: %d %q %q", code, out, errs)
	}

	// --json prints the result object as the command returns it.
	out, _, code = verb(t, dir, "", "read", "--json", "a.txt", "--offset", "2", "--limit", "1")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
		t.Fatalf("read --json: %d %v %q", code, err, out)
	}
	if r["ok"] != true || r["offset"] != 2.0 || r["lineCount"] != 1.0 || r["truncated"] != true || !strings.HasSuffix(r["content"].(string), "]\n2:BETA\n") {
		t.Fatalf("read --json = %v", r)
	}
	out, errs, code = verb(t, dir, "", "edit", "a.txt", "--tag", "ABCD", "--json")
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || r["ok"] != false || !strings.HasPrefix(errs, "EDIT_PARSE_FAILED: ops holds no operation") {
		t.Fatalf("edit --json failure: %d %q %q", code, out, errs)
	}

	// write from a file, stripping a pasted header.
	if err := os.WriteFile(filepath.Join(dir, "content"), []byte("[n.txt#0000]\nnew\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = verb(t, dir, "", "write", "n.txt", "--content", "content")
	// The warning follows the header on stdout, as in the result's text.
	if code != 0 || headerRe.FindString(out) == "" || !strings.Contains(out, "]\nwarning: removed the pasted header") || errs != "" {
		t.Fatalf("write: %d %q %q", code, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "n.txt")); string(b) != "new\n" {
		t.Fatalf("n.txt = %q", b)
	}

	out, _, code = verb(t, dir, "", "describe")
	if code != 0 || !strings.Contains(out, "## hashline_edit (command hashline.edit)") || !strings.Contains(out, "| PUT N.=M: |") {
		t.Fatalf("describe: %d %.200q", code, out)
	}
	out, _, code = verb(t, dir, "", "version")
	if code != 0 || !strings.HasPrefix(out, "hashline-ls ") {
		t.Fatalf("version: %d %q", code, out)
	}
	_, errs, code = verb(t, dir, "", "frobnicate")
	if code != 2 || !strings.Contains(errs, "unknown verb") {
		t.Fatalf("bad verb: %d %q", code, errs)
	}
	_, _, code = verb(t, dir, "", "read")
	if code != 2 {
		t.Fatalf("read without path: %d", code)
	}
}

// The built binary, as a user runs it.
func TestBinary(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.txt"), []byte("one\r\ntwo\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := verbIn(dir, "", bin, "read", "x.txt")
	out, err := cmd.Output()
	if err != nil || !strings.HasSuffix(string(out), "]\n1:one\n2:two\n") {
		t.Fatalf("read: %v %q", err, out)
	}
	tag := headerRe.FindStringSubmatch(string(out))[2]
	cmd = verbIn(dir, "PUT <1:\n+zero\n", bin, "edit", "x.txt", "--tag", tag)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("edit: %v %s", err, out)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "x.txt")); string(b) != "zero\r\none\r\ntwo\r\n" {
		t.Fatalf("x.txt = %q", b)
	}
	cmd = verbIn(dir, "", bin, "read", "/etc/hostname")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.HasPrefix(stderr.String(), "PATH_OUTSIDE_WORKSPACE: ") {
		t.Fatalf("outside read: %v %q", err, stderr.String())
	}
}

// read --outline and --symbol print the text of the result --json prints.
func TestVerbOutlineIsText(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\n// T is a type.\ntype T struct {\n\tn int\n}\n\nfunc (t T) N() int {\n\treturn t.n\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, argv := range [][]string{{"read", "p.go", "--outline"}, {"read", "p.go", "--symbol", "T.N"}, {"grep", "^N$", "--mode", "symbols"}} {
		out, errs, code := verb(t, dir, "", argv...)
		js, _, _ := verb(t, dir, "", append(argv, "--json")...)
		var r struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal([]byte(js), &r); err != nil || code != 0 || errs != "" || out != r.Text || !headerRe.MatchString(out) {
			t.Fatalf("%v: exit %d, printed %q, text %q (%v)", argv, code, out, r.Text, err)
		}
	}
	out, _, _ := verb(t, dir, "", "read", "p.go", "--outline")
	if !strings.Contains(out, "\n3-6 struct  4:type T struct {\n8-10 method T.N  8:func (t T) N() int {\n") {
		t.Fatalf("outline: %q", out)
	}
	_, errs, code := verb(t, dir, "", "read", "p.go", "--symbol", "T.N", "--limit", "2")
	if code != 1 || !strings.HasPrefix(errs, "INVALID_ARGUMENT: symbol reads exactly the lines of one declaration") {
		t.Fatalf("symbol with limit: %d %q", code, errs)
	}
}
