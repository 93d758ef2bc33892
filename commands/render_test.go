package commands

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/internal/golden"
)

const greetRead = "[greet.py#15E4]\n1:def greet(name):\n2:    return f\"hello {name}\"\n"

// TestRender compares the text of each result with testdata/render/NAME.txt.
// The results are built by hand, so every field the text shows can be set,
// failures no shell call can produce among them.
func TestRender(t *testing.T) {
	diff := "--- a/greet.py\n+++ b/greet.py\n@@ -2 +2 @@\n-    return 1\n+    return 2\n"
	for _, tc := range []struct {
		name string
		res  Result
	}{
		{"read", &ReadResult{OK: true, Content: greetRead, Tag: "15E4", Path: "greet.py", Offset: 1, LineCount: 2, TotalLines: 2, FileBytes: 40}},
		{"read_notice", &ReadResult{OK: true, Content: greetRead, Notice: "showing lines 1-2 of 900"}},
		{"edit", &EditResult{OK: true, Path: "greet.py", Tag: "771F", Header: "[greet.py#771F]", Diff: diff,
			Warnings: []hashline.Warning{{Kind: hashline.WarnLanded, Message: "the editor reformatted line 2"}}}},
		{"edit_removed", &EditResult{OK: true, Path: "old.txt", Removed: true}},
		{"edit_removed_diff", &EditResult{OK: true, Path: "old.txt", Removed: true, Diff: "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"}},
		{"write", &WriteResult{OK: true, Path: "n.txt", Tag: "AB12", Header: "[n.txt#AB12]", Created: true}},
		{"write_warnings", &WriteResult{OK: true, Path: "n.txt", Tag: "AB12", Header: "[n.txt#AB12]",
			Warnings: []hashline.Warning{{Kind: hashline.WarnStripped, Message: "removed the pasted header"}, {Kind: hashline.WarnDrift, Message: "the file had changed"}}}},
		{"grep_content", &GrepResult{OK: true, Content: "[a.go#1111]\n3:x\n"}},
		{"grep_files", &GrepResult{OK: true, Files: []string{"a.go", "b.go"}}},
		{"grep_counts", &GrepResult{OK: true, Counts: map[string]int{"b.go": 1, "a.go": 3}}},
		{"grep_none", &GrepResult{OK: true}},
		{"grep_none_files", &GrepResult{OK: true, Files: []string{}}},
		{"grep_none_notice", &GrepResult{OK: true, Counts: map[string]int{}, Notice: "x.bin is a binary or oversized file: grep searches text files only"}},
		{"grep_notice", &GrepResult{OK: true, Content: "[a.go#1111]\n3:x\n", Truncated: true, Notice: "stopped at maxResults (1 matches)"}},
		{"patch", &PatchResult{OK: true, Files: []PatchFile{{Path: "a", Tag: "1111", Header: "[a#1111]"}, {Path: "b", Tag: "2222", Header: "[b#2222]"}}}},
		{"patch_warning", &PatchResult{OK: true, Files: []PatchFile{{Path: "a", Tag: "1111", Header: "[a#1111]"}},
			Warnings: []hashline.Warning{{Kind: hashline.WarnLanded, Message: "a: the text that landed differs"}}}},
		{"describe", &DescribeResult{OK: true, Version: Version, Guidance: "# Guide\n\nRead, then edit.\n",
			Tools: []Tool{{Name: "hashline_read", Command: CmdRead, Description: "Read a file.", InputSchema: map[string]any{"type": "object"}}}}},
		{"session_ended", &SessionEndResult{OK: true, Ended: true}},
		{"session_none", &SessionEndResult{OK: true}},
		{"error_tag_mismatch", &ErrorResult{Error: ErrorObject{Code: hashline.CodeTagMismatch, Retriable: true,
			Message: "greet.py changed since the read tagged 15E4: rebuild the ops against the lines below (tag 9A0C), or read again",
			Details: hashline.Details{LiveTag: "9A0C", Lines: []int{2}, Content: "[greet.py#9A0C]\n2:    return f\"hey {name}\"\n"}}}},
		{"error_lines_unseen_terminate", &ErrorResult{Terminate: true, Error: ErrorObject{Code: hashline.CodeLinesUnseen, Retriable: true,
			Message: "line 9 was never shown",
			Details: hashline.Details{Op: 2, OpText: "PUT 9.=9:", Merged: true, Content: "[f#AAAA]\n9:x\n"}}}},
		{"error_lines_unseen", &ErrorResult{Error: ErrorObject{Code: hashline.CodeLinesUnseen, Retriable: true,
			Message: "line(s) 7-8 were never shown to you: read them with offset 7 and limit 2, then retry",
			Details: hashline.Details{LiveTag: "15E4", Lines: []int{7, 8}, Content: "[f#15E4]\n7:a\n8:b\n"}}}},
		{"error_budget_exhausted", &ErrorResult{Terminate: true, Error: ErrorObject{Code: hashline.CodeTagUnknown, Retriable: true,
			Message: "this session has no read of f under tag 1111 [MUTATION_RETRY_BUDGET_EXHAUSTED: 3 failed attempts on this file in this turn]",
			Details: hashline.Details{LiveTag: "2222", Lines: []int{1}, Content: "[f#2222]\n1:a\n",
				Exhausted: &hashline.Exhausted{Code: hashline.CodeRetryBudgetExhausted, Retriable: true, Kind: "edit", LastCode: hashline.CodeTagUnknown, Attempts: 3,
					Recovery: "read the file again and build the ops against the tag and line numbers of that read"}}}}},
		{"error_tool_failed", &ErrorResult{Error: ErrorObject{Code: hashline.CodeToolFailed, Retriable: true,
			Message: "the editor refused the edit of f twice, though the file did not change: check the editor, then retry",
			Details: hashline.Details{LiveTag: "2222"}}}},
		{"error_invalid_argument", &ErrorResult{Error: ErrorObject{Code: hashline.CodeInvalidArgument,
			Message: "argument path: missing: fix it and send the call again", Details: hashline.Details{Field: "path"}}}},
		{"error_limit", &ErrorResult{Error: ErrorObject{Code: hashline.CodeAmplificationLimit,
			Message: "the ops add 20001 lines: split the edit", Details: hashline.Details{Limit: 20000}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := textOf(tc.res)
			goldenPath := filepath.Join("testdata", "render", tc.name+".txt")
			want, ok := golden.Text(t, goldenPath, got)
			if !ok {
				return
			}
			if got != want {
				t.Errorf("text differs from %s (run go test -update and review the diff):\ngot:\n%s\nwant:\n%s", goldenPath, got, want)
			}
			if got == "" || !strings.HasSuffix(got, "\n") {
				t.Errorf("text %q is empty or does not end in a newline", got)
			}
		})
	}
}

// Execute renders every result it returns, success or failure.
func TestExecuteRenders(t *testing.T) {
	s, _ := newServer(t, map[string]string{"greet.py": "def greet(name):\n    return f\"hello {name}\"\n"})
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "greet.py"}))
	if r.Text != r.Content {
		t.Fatalf("read text %q, want its content %q", r.Text, r.Content)
	}
	e := mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "greet.py", "tag": r.Tag, "ops": "PUT 1:\n+x"}), hashline.CodeParseFailed)
	if !strings.HasPrefix(e.Text, "EDIT_PARSE_FAILED: "+e.Error.Message+"\n") || !strings.HasSuffix(e.Text, "retriable: false\n") {
		t.Fatalf("edit failure text %q", e.Text)
	}
	d := mustOK[*DescribeResult](t, call(t, s, CmdDescribe, map[string]any{}))
	if !strings.HasPrefix(d.Text, d.Guidance) || !strings.Contains(d.Text, "## hashline_edit (command hashline.edit)") {
		t.Fatalf("describe text %.200q", d.Text)
	}
	se := mustOK[*SessionEndResult](t, call(t, s, CmdSessionEnd, map[string]any{}))
	if se.Text != "session ended: its reads, registers and repeat counts are dropped\n" {
		t.Fatalf("session.end text %q", se.Text)
	}
	bad := mustFail(t, call(t, s, CmdRead, map[string]any{"path": 3}), hashline.CodeInvalidArgument)
	if !strings.HasPrefix(bad.Text, "INVALID_ARGUMENT: ") || !strings.Contains(bad.Text, "\nargument: path\n") {
		t.Fatalf("invalid argument text %q", bad.Text)
	}
}

// A warning a front end adds to a result it forwards reads as the
// renderer's own: in warnings, and as the text's last line.
func TestAppendWarning(t *testing.T) {
	w := hashline.Warning{Kind: hashline.WarnEditor, Message: "the editor went away"}
	edit := &EditResult{OK: true, Path: "a.txt", Header: "[a.txt#25C7]", Warnings: []hashline.Warning{{Kind: hashline.WarnLanded, Message: "landed"}}}
	for _, c := range []struct {
		name string
		res  Result
	}{
		{"a result with warnings", edit},
		{"a read, which has none", &ReadResult{OK: true, Content: greetRead}},
		{"an error", errorResult(hashline.Errorf(hashline.CodeTagUnknown, "read it first"))},
	} {
		t.Run(c.name, func(t *testing.T) {
			render(c.res)
			raw, _ := json.Marshal(c.res)
			out, err := AppendWarning(raw, w)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Text     string             `json:"text"`
				Warnings []hashline.Warning `json:"warnings"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if want := c.res.Rendered() + "warning: the editor went away\n"; got.Text != want {
				t.Fatalf("text %q, want %q", got.Text, want)
			}
			if len(got.Warnings) == 0 || got.Warnings[len(got.Warnings)-1] != w {
				t.Fatalf("warnings %+v", got.Warnings)
			}
		})
	}
	for _, bad := range []string{`[]`, `null`, `{"ok":true}`, `{"text":"x","warnings":3}`} {
		if _, err := AppendWarning(json.RawMessage(bad), w); err == nil {
			t.Errorf("AppendWarning(%s) took it", bad)
		}
	}
}
