package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/hashline"
)

// TestDryRunShowsTheChange: a dry run of edit, write and patch answers the
// unified diff the call would make, writes nothing, and leaves the session
// as it was: the read's tag still edits, and the real call's diff is the
// dry run's.
func TestDryRunShowsTheChange(t *testing.T) {
	const greet = "def greet(name):\n    return f\"hello {name}\"\n"
	s, dir := newServer(t, map[string]string{"greet.py": greet, "b.txt": "bee\n"})
	path := filepath.Join(dir, "greet.py")
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "greet.py"}))
	edit := map[string]any{"path": "greet.py", "tag": r.Tag, "ops": "PUT 2.=2:\n+    return f\"hi {name}\""}

	dry := mustOK[*DryRunResult](t, call(t, s, CmdEdit, with(edit, "dryRun", true)))
	want := "--- a/greet.py\n+++ b/greet.py\n@@ -1,2 +1,2 @@\n def greet(name):\n-    return f\"hello {name}\"\n+    return f\"hi {name}\"\n"
	if !dry.DryRun || dry.Diff != want || dry.Text != want {
		t.Fatalf("dry run of edit = %+v, want the diff\n%s", dry, want)
	}
	if got := readFile(t, path); got != greet {
		t.Fatalf("a dry run wrote %q", got)
	}
	// Twice, and the read's tag still edits: nothing was committed.
	mustOK[*DryRunResult](t, call(t, s, CmdEdit, with(edit, "dryRun", true)))
	e := mustOK[*EditResult](t, call(t, s, CmdEdit, edit))
	if e.Diff != want {
		t.Fatalf("the edit's diff\n%s\nis not the dry run's\n%s", e.Diff, want)
	}

	w := mustOK[*DryRunResult](t, call(t, s, CmdWrite, map[string]any{"path": "new.txt", "content": "one\n", "dryRun": true}))
	if w.Diff != "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+one\n" {
		t.Fatalf("dry run of a write that creates: %q", w.Diff)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("a dry run created the file (%v)", err)
	}
	same := mustOK[*DryRunResult](t, call(t, s, CmdWrite, map[string]any{"path": "b.txt", "content": "bee\n", "dryRun": true}))
	if same.Diff != "" || !strings.HasPrefix(same.Text, "no change") {
		t.Fatalf("dry run of a write of the same text = %+v", same)
	}

	rl := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "b.txt", "anchors": "line"}))
	anchor := strings.TrimPrefix(strings.SplitN(rl.Content, "\n", 3)[1], "1:")
	anchor = "1:" + strings.SplitN(anchor, "|", 2)[0]
	p := mustOK[*DryRunResult](t, call(t, s, CmdPatch, map[string]any{"patch": "@@ b.txt\n= " + anchor + "\n~BEE", "dryRun": true}))
	if p.Diff != "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-bee\n+BEE\n" {
		t.Fatalf("dry run of a patch: %q", p.Diff)
	}
	if got := readFile(t, filepath.Join(dir, "b.txt")); got != "bee\n" {
		t.Fatalf("a dry run patched b.txt: %q", got)
	}

	// MV and REM: the diff names where the file goes, or that it goes.
	rb := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "b.txt"}))
	for _, c := range []struct{ ops, want string }{
		{"MV c.txt", "rename from b.txt\nrename to c.txt\n"},
		{"PUT 1.=1:\n+BEE\nMV c.txt", "--- a/b.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-bee\n+BEE\n"},
		{"REM", "--- a/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bee\n"},
	} {
		d := mustOK[*DryRunResult](t, call(t, s, CmdEdit, map[string]any{"path": "b.txt", "tag": rb.Tag, "ops": c.ops, "dryRun": true}))
		if d.Diff != c.want {
			t.Errorf("dry run of %q: diff %q, want %q", c.ops, d.Diff, c.want)
		}
	}
	if got := readFile(t, filepath.Join(dir, "b.txt")); got != "bee\n" {
		t.Fatalf("a dry run of MV or REM changed b.txt: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "c.txt")); !os.IsNotExist(err) {
		t.Fatalf("a dry run of MV made c.txt (%v)", err)
	}
}

// TestDryRunRefusal: a call the gates refuse is refused by its dry run the
// same way, and the dry run's refusal leaves no trace in the session: the
// lines it shows do not count as read, no register is filled, and the
// repeat guard does not count it.
func TestDryRunRefusal(t *testing.T) {
	s, dir := newServer(t, map[string]string{"a.txt": "1\n2\n3\n4\n5\n"})
	path := filepath.Join(dir, "a.txt")
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a.txt"}))
	changed := "1\n2\nthree\n4\n5\n"
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	live := string(hashline.TagOf(changed))
	stale := map[string]any{"path": "a.txt", "tag": r.Tag, "ops": "PUT 3.=3:\n+THREE", "dryRun": true}
	e := mustFail(t, call(t, s, CmdEdit, stale), hashline.CodeTagMismatch)
	if e.Error.Details.LiveTag != live || !strings.HasPrefix(e.Text, "EDIT_TAG_MISMATCH") {
		t.Fatalf("dry run refusal = %+v", e)
	}
	// The dry run showed lines 1-5 under the live tag but recorded none:
	// an edit against that tag is unknown to the session.
	retry := map[string]any{"path": "a.txt", "tag": live, "ops": "PUT 3.=3:\n+THREE"}
	mustFail(t, call(t, s, CmdEdit, with(retry, "dryRun", true)), hashline.CodeTagUnknown)
	mustFail(t, call(t, s, CmdEdit, with(retry, "dryRun", true)), hashline.CodeTagUnknown)
	if got := readFile(t, path); got != changed {
		t.Fatalf("a refused dry run wrote %q", got)
	}

	// The repeat guard: three failing dry runs in one turn, then the real
	// call is the first failure it counts.
	r = mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "a.txt"}))
	bad := map[string]any{"path": "a.txt", "tag": r.Tag, "ops": "PUT 1.=1\n+y", "turn": "t1"}
	for range 3 {
		if e := mustFail(t, call(t, s, CmdEdit, with(bad, "dryRun", true)), hashline.CodeParseFailed); e.Terminate {
			t.Fatal("a dry run counted against the repeat guard")
		}
	}
	if e := mustFail(t, call(t, s, CmdEdit, bad), hashline.CodeParseFailed); e.Terminate || e.Error.Details.Exhausted != nil {
		t.Fatalf("the first real failure after dry runs = %+v", e)
	}

	// Registers: a dry run's CUT @name fills none.
	mustOK[*DryRunResult](t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": r.Tag, "ops": "CUT 1.=1 @top", "dryRun": true}))
	mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "a.txt", "tag": r.Tag, "ops": "PUT >5 @top", "dryRun": true}), hashline.CodeRegisterEmpty)

	// Unseen lines: a dry run's reveal counts nothing as shown.
	s2, _ := newServer(t, map[string]string{"b.txt": "1\n2\n3\n4\n5\n"})
	rb := mustOK[*ReadResult](t, call(t, s2, CmdRead, map[string]any{"path": "b.txt", "limit": 2}))
	unseen := map[string]any{"path": "b.txt", "tag": rb.Tag, "ops": "PUT 4.=4:\n+FOUR"}
	if e := mustFail(t, call(t, s2, CmdEdit, with(unseen, "dryRun", true)), hashline.CodeLinesUnseen); e.Error.Details.Merged {
		t.Fatalf("a dry run merged the revealed lines: %+v", e.Error)
	}
	if e := mustFail(t, call(t, s2, CmdEdit, unseen), hashline.CodeLinesUnseen); !e.Error.Details.Merged {
		t.Fatalf("the real call's reveal = %+v", e.Error)
	}
	mustOK[*EditResult](t, call(t, s2, CmdEdit, unseen))
}

func with(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for key, val := range m {
		out[key] = val
	}
	return out
}
