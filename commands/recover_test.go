package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"hashline-ls/hashline"
)

// docs/contract.md §14 through hashline.edit: a path that names no file is rebound to the
// one file this session read with that base name under that tag, with a
// warning naming the real path; anything less than one such file declines.

const utilGo = "package util\n\nfunc One() int { return 1 }\n"

func pathWarning(written, real, tag string) hashline.Warning {
	return hashline.Warning{Kind: hashline.WarnPath, Message: fmt.Sprintf(
		"%s names no file in the workspace; the edit went to %s, the one file this session read with that name and tag %s: use that path from here on", written, real, tag)}
}

func TestPathRecoveryRebinds(t *testing.T) {
	s, dir := newServer(t, map[string]string{"src/util/util.go": utilGo, "src/main.go": "package main\n"})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "src/util/util.go"}))
	mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "src/main.go"}))
	e := mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "util/util.go", "tag": r.Tag, "ops": "PUT 3.=3:\n+func One() int { return 2 }"}))
	if want := "package util\n\nfunc One() int { return 2 }\n"; readFile(t, filepath.Join(dir, "src/util/util.go")) != want {
		t.Fatalf("src/util/util.go = %q, want %q", readFile(t, filepath.Join(dir, "src/util/util.go")), want)
	}
	if w := []hashline.Warning{pathWarning("util/util.go", "src/util/util.go", r.Tag)}; e.Path != "src/util/util.go" || !reflect.DeepEqual(e.Warnings, w) {
		t.Fatalf("path %q warnings %+v, want src/util/util.go and %+v", e.Path, e.Warnings, w)
	}
	if _, err := os.Stat(filepath.Join(dir, "util")); !os.IsNotExist(err) {
		t.Fatal("the mistyped path was created")
	}
	// The returned tag edits the real path.
	mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "src/util/util.go", "tag": e.Tag, "ops": "PUT >$:\n+// end"}))
}

// The tag must match too: the same name under another tag is another
// version or another file.
func TestPathRecoveryNeedsTheTag(t *testing.T) {
	s, dir := newServer(t, map[string]string{"src/util/util.go": utilGo})
	mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "src/util/util.go"}))
	other := string(hashline.TagOf(utilGo + "// other\n"))
	e := mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "util.go", "tag": other, "ops": "PUT 3.=3:\n+x"}), hashline.CodeInvalidArgument)
	if e.Error.Message != "there is no file at util.go: edit changes existing files; create it with hashline_write, or check the name" {
		t.Fatalf("message %q", e.Error.Message)
	}
	if readFile(t, filepath.Join(dir, "src/util/util.go")) != utilGo {
		t.Fatal("src/util/util.go changed")
	}
}

// Two files of that name read under that tag: a tie, so no guess.
func TestPathRecoveryTieDeclines(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a/util.go": utilGo, "b/util.go": utilGo})
	ra := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a/util.go"}))
	rb := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "b/util.go"}))
	if ra.Tag != rb.Tag {
		t.Fatal("fixture: the two files differ")
	}
	e := mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "util.go", "tag": ra.Tag, "ops": "PUT 3.=3:\n+x"}), hashline.CodeInvalidArgument)
	if e.Error.Message != "there is no file at util.go: edit changes existing files; create it with hashline_write, or check the name" {
		t.Fatalf("message %q", e.Error.Message)
	}
	for _, p := range []string{"a/util.go", "b/util.go"} {
		if readFile(t, filepath.Join(dir, p)) != utilGo {
			t.Fatalf("%s changed", p)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "util.go")); !os.IsNotExist(err) {
		t.Fatal("util.go was created")
	}
}

// A deleted file does not recover onto its own history: its path is the
// path the edit names, and that history is what must not count.
func TestPathRecoveryExcludesItsOwnHistory(t *testing.T) {
	s, dir := newServer(t, map[string]string{"src/util.go": utilGo})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "src/util.go"}))
	if err := os.Remove(filepath.Join(dir, "src/util.go")); err != nil {
		t.Fatal(err)
	}
	e := mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "src/util.go", "tag": r.Tag, "ops": "PUT 3.=3:\n+x"}), hashline.CodeInvalidArgument)
	if e.Error.Message != "there is no file at src/util.go: edit changes existing files; create it with hashline_write, or check the name" {
		t.Fatalf("message %q", e.Error.Message)
	}
	if _, err := os.Stat(filepath.Join(dir, "src/util.go")); !os.IsNotExist(err) {
		t.Fatal("the deleted file was written again")
	}
	// With a copy read elsewhere under the same tag, that copy is the one
	// file left: the edit goes there.
	if err := os.MkdirAll(filepath.Join(dir, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lib", "util.go"), []byte(utilGo), 0o644); err != nil {
		t.Fatal(err)
	}
	mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "lib/util.go"}))
	ed := mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "src/util.go", "tag": r.Tag, "ops": "PUT 3.=3:\n+x"}))
	if ed.Path != "lib/util.go" || readFile(t, filepath.Join(dir, "lib/util.go")) != "package util\n\nx\n" {
		t.Fatalf("edit %+v, lib/util.go %q", ed, readFile(t, filepath.Join(dir, "lib/util.go")))
	}
	if w := []hashline.Warning{pathWarning("src/util.go", "lib/util.go", r.Tag)}; !reflect.DeepEqual(ed.Warnings, w) {
		t.Fatalf("warnings %+v, want %+v", ed.Warnings, w)
	}
}

// Rebinding comes before confinement: a mistyped absolute path outside the
// workspace that names a file this session read, by base name and tag,
// edits that file rather than failing as outside.
func TestPathRecoveryBeforeConfinement(t *testing.T) {
	s, dir := newServer(t, map[string]string{"pkg/util.go": utilGo})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "pkg/util.go"}))
	outside := filepath.Join(t.TempDir(), "elsewhere", "util.go")
	// The same path, unread or under another tag, is refused as outside.
	mustFail(t, call(t, s, CmdEdit, map[string]any{"path": outside, "tag": string(hashline.TagOf("other\n")), "ops": "PUT 3.=3:\n+x"}), hashline.CodePathOutsideWorkspace)

	e := mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": outside, "tag": r.Tag, "ops": "PUT 3.=3:\n+func One() int { return 3 }"}))
	if got := readFile(t, filepath.Join(dir, "pkg/util.go")); got != "package util\n\nfunc One() int { return 3 }\n" {
		t.Fatalf("pkg/util.go = %q", got)
	}
	if w := []hashline.Warning{pathWarning(outside, "pkg/util.go", r.Tag)}; e.Path != "pkg/util.go" || !reflect.DeepEqual(e.Warnings, w) {
		t.Fatalf("path %q warnings %+v, want %+v", e.Path, e.Warnings, w)
	}
	if _, err := os.Stat(filepath.Dir(outside)); !os.IsNotExist(err) {
		t.Fatal("something was created outside the workspace")
	}
}

// Drift recovery through hashline.edit: the file changed on disk between
// the read and the edit, above the anchor; the edit lands where the line
// went, and says so.
func TestDriftRecoveryThroughCommands(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a.go": utilGo})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a.go"}))
	changed := "// Package util is small.\n" + utilGo
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	e := mustOK[*EditResult](t, call(t, s, CmdEdit, map[string]any{"path": "a.go", "tag": r.Tag, "ops": "PUT 3.=3:\n+func One() int { return 2 }"}))
	want := "// Package util is small.\npackage util\n\nfunc One() int { return 2 }\n"
	if got := readFile(t, filepath.Join(dir, "a.go")); got != want {
		t.Fatalf("a.go = %q, want %q", got, want)
	}
	live := hashline.TagOf(changed)
	w := []hashline.Warning{
		{Kind: hashline.WarnRecovered, Message: fmt.Sprintf("external change: a.go changed outside this session since your read (tag %s, now %s); the lines you edit were unchanged, so the edit was applied to the current text", r.Tag, live)},
		{Kind: hashline.WarnRecovered, Message: "line remap: lines were added or removed above your anchors, so the edit landed lower in the file (by +1); use the line numbers of the new tag from here on"},
	}
	if !reflect.DeepEqual(e.Warnings, w) || e.Tag != string(hashline.TagOf(want)) || len(e.Resolved) != 0 {
		t.Fatalf("result %+v, want warnings %+v", e, w)
	}
}
