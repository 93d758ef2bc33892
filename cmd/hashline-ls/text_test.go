package main

import (
	"context"
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
)

// A verb prints exactly the text of the result the command returns for the
// same arguments on the same files: stdout for a success, stderr for a
// failure. The codes no shell call can produce (EDIT_TAG_MISMATCH,
// EDIT_LINES_UNSEEN and the repeat guard's, which need a session that
// remembers) have golden texts in commands/testdata/render instead.
func TestVerbPrintsResultText(t *testing.T) {
	greet := "def greet(name):\n    return f\"hello {name}\"\n"
	abc := "alpha\nbeta\ngamma\n"
	goFile := "package a\n\nfunc F() {\n\tif x {\n\t\ta()\n\t}\n}\n"
	files := map[string]string{
		"a.txt": abc, "b.txt": "one\ntwo\n", "greet.py": greet, "empty.txt": "",
		"a.go": goFile, "exists.txt": "x\n", "plain": "not a folder\n",
	}
	tagA, tagGo := string(hashline.TagOf(abc)), string(hashline.TagOf(goFile))
	type verbCase struct {
		name    string
		stdin   string
		argv    []string
		command string
		args    map[string]any
		code    hashline.Code // the failure's code, or "" for a success
	}
	edit := func(name, path, tag, ops string, code hashline.Code) verbCase {
		return verbCase{name, ops, []string{"edit", path, "--tag", tag}, commands.CmdEdit, map[string]any{"path": path, "tag": tag, "ops": ops}, code}
	}
	cases := []verbCase{
		{"read", "", []string{"read", "a.txt"}, commands.CmdRead, map[string]any{"path": "a.txt"}, ""},
		{"read window", "", []string{"read", "a.txt", "--offset", "2", "--limit", "1"}, commands.CmdRead, map[string]any{"path": "a.txt", "offset": 2, "limit": 1}, ""},
		{"read line anchors", "", []string{"read", "greet.py", "--anchors", "line"}, commands.CmdRead, map[string]any{"path": "greet.py", "anchors": "line"}, ""},
		{"read empty", "", []string{"read", "empty.txt"}, commands.CmdRead, map[string]any{"path": "empty.txt"}, ""},
		{"read missing", "", []string{"read", "none.txt"}, commands.CmdRead, map[string]any{"path": "none.txt"}, hashline.CodeInvalidArgument},
		{"grep content", "", []string{"grep", "a", "-i"}, commands.CmdGrep, map[string]any{"pattern": "a", "ignoreCase": true}, ""},
		{"grep files", "", []string{"grep", "e", "--mode", "filesWithMatches"}, commands.CmdGrep, map[string]any{"pattern": "e", "mode": "filesWithMatches"}, ""},
		{"grep count", "", []string{"grep", "a", "--mode", "count"}, commands.CmdGrep, map[string]any{"pattern": "a", "mode": "count"}, ""},
		{"grep no match", "", []string{"grep", "zzz"}, commands.CmdGrep, map[string]any{"pattern": "zzz"}, ""},
		{"grep max results", "", []string{"grep", "a", "--max-results", "1"}, commands.CmdGrep, map[string]any{"pattern": "a", "maxResults": 1}, ""},
		{"grep bad pattern", "", []string{"grep", "("}, commands.CmdGrep, map[string]any{"pattern": "("}, hashline.CodeInvalidArgument},
		{"write new", "new\n", []string{"write", "n.txt"}, commands.CmdWrite, map[string]any{"path": "n.txt", "content": "new\n"}, ""},
		{"write pasted header", "[b.txt#0000]\nthree\n", []string{"write", "b.txt"}, commands.CmdWrite, map[string]any{"path": "b.txt", "content": "[b.txt#0000]\nthree\n"}, ""},
		{"patch", "@@ a.txt\n= 2:" + hashline.LineHash("beta") + "\n~BETA\n@@ b.txt\n+ 2:" + hashline.LineHash("two") + "\n~three\n",
			[]string{"patch"}, commands.CmdPatch, nil, ""},
		{"patch refused", "@@ a.txt\n= 1:" + hashline.LineHash("alpha") + "\n~ALPHA\n@@ b.txt\n= 2:" + hashline.LineHash("TWO") + "\n~2\n",
			[]string{"patch"}, commands.CmdPatch, nil, hashline.CodeTagMismatch},
		{"describe", "", []string{"describe"}, commands.CmdDescribe, map[string]any{}, ""},
		edit("edit", "a.txt", tagA, "PUT 2.=2:\n+BETA\n", ""),
		edit("edit at the end of a changed file", "a.txt", "0000", "PUT >$:\n+delta\n", ""),
		edit("edit REM", "a.txt", tagA, "REM\n", ""),
		edit("edit without a tag", "a.txt", "", "PUT 2.=2:\n+x\n", hashline.CodeTagRequired),
		edit("edit stale tag", "a.txt", "0000", "PUT 2.=2:\n+x\n", hashline.CodeTagUnknown),
		edit("edit missing colon", "a.txt", tagA, "PUT 1.=1\n+b\n", hashline.CodeParseFailed),
		edit("edit overlap", "a.txt", tagA, "CUT 1.=2\nPUT >2:\n+x\n", hashline.CodeRangeInvalid),
		edit("edit block in plain text", "a.txt", tagA, "PUT 1*:\n+b\n", hashline.CodeBlockUnresolved),
		edit("edit paste before capture", "a.txt", tagA, "PUT >1\n", hashline.CodeRegisterEmpty),
		edit("edit two anonymous captures", "a.txt", tagA, "CUT 1.=1\nCUT 2.=2\nPUT >3\n", hashline.CodeRegisterAmbiguous),
		edit("edit repair tie", "a.go", tagGo, "PUT 6.=7:\n+\t\tc() }\n", hashline.CodeRepairAmbiguous),
		edit("edit restated line", "a.txt", tagA, "PUT 1.=1:\n+alpha\n", hashline.CodeNoChange),
		edit("edit too many lines", "a.txt", tagA, "PUT >$:\n"+strings.Repeat("+\n", hashline.MaxIRLines+1), hashline.CodeAmplificationLimit),
		edit("edit too many ops", "a.txt", tagA, strings.Repeat("PUT >$:\n+x\n", hashline.MaxOpsPerCall+1), hashline.CodeInvalidArgument),
		edit("edit header of another file", "a.txt", tagA, "[g.txt#0000]\nPUT 1.=1:\n+b\n", hashline.CodeInvalidArgument),
		edit("edit MV onto a file", "a.txt", tagA, "MV exists.txt\n", hashline.CodeInvalidArgument),
		edit("edit outside", "../x.txt", tagA, "PUT 1.=1:\n+b\n", hashline.CodePathOutsideWorkspace),
		edit("edit MV under a file", "a.txt", tagA, "MV plain/x.txt\n", hashline.CodeToolFailed),
	}
	for i := range cases {
		if cases[i].command == commands.CmdPatch {
			cases[i].args = map[string]any{"patch": cases[i].stdin}
		}
	}
	editCodes := map[hashline.Code]bool{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testenv.WriteFiles(t, dir, files)
			out, errs, code := verb(t, dir, tc.stdin, tc.argv...)
			// The same files again, in the same folder: the texts name paths
			// and may name absolute ones.
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			testenv.WriteFiles(t, dir, files)
			res := execute(t, dir, tc.command, tc.args)
			e, failed := res.(*commands.ErrorResult)
			switch {
			case res.Rendered() == "":
				t.Fatal("the result has no text")
			case tc.code == "" && failed:
				t.Fatalf("the command failed: %s", res.Rendered())
			case tc.code != "" && (!failed || e.Error.Code != tc.code):
				t.Fatalf("want %s, got %s", tc.code, res.Rendered())
			case failed && (code != 1 || out != "" || errs != res.Rendered()):
				t.Fatalf("exit %d, stdout %q\nstderr:\n%s\nwant exit 1 and stderr:\n%s", code, out, errs, res.Rendered())
			case !failed && (code != 0 || errs != "" || out != res.Rendered()):
				t.Fatalf("exit %d, stderr %q\nstdout:\n%s\nwant exit 0 and stdout:\n%s", code, errs, out, res.Rendered())
			}
			if failed && tc.command == commands.CmdEdit {
				editCodes[e.Error.Code] = true
			}
		})
	}
	// Every code an edit can fail with from a shell is among the cases.
	want := []hashline.Code{
		hashline.CodeTagRequired, hashline.CodeTagUnknown, hashline.CodeParseFailed, hashline.CodeRangeInvalid,
		hashline.CodeBlockUnresolved, hashline.CodeRegisterEmpty, hashline.CodeRegisterAmbiguous, hashline.CodeRepairAmbiguous,
		hashline.CodeNoChange, hashline.CodeAmplificationLimit, hashline.CodeInvalidArgument, hashline.CodePathOutsideWorkspace,
		hashline.CodeToolFailed,
	}
	var missing []string
	for _, c := range want {
		if !editCodes[c] {
			missing = append(missing, string(c))
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("no edit case failed with %s", strings.Join(missing, ", "))
	}
}

// execute runs one command as the verbs do, in dir, and returns its result.
func execute(t *testing.T, dir, command string, args map[string]any) commands.Result {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	srv, err := diskServer()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(args)
	res, err := srv.Run(context.Background(), commands.Call{Command: command, Args: raw})
	if err != nil {
		t.Fatalf("%s: protocol error %v", command, err)
	}
	return res
}
