package lsp_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/lsp/lsptest"
)

// Eight sessions edit at once: each its own file, and all of them one
// shared file with appends made against a tag that goes stale at once.
// Every edit must land whole, and the final texts must be exact.
func TestConcurrentSessions(t *testing.T) {
	const sessions, rounds = 8, 5
	e := vscodeApplying(t, lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen})
	e.WriteFile("shared.txt", "head\n")
	e.Open("shared.txt", 1)
	for i := range sessions {
		name := fmt.Sprintf("f%d.txt", i)
		e.WriteFile(name, sessionText(i, rounds, 0))
		// Half the files are open; the editor opens the others when the
		// first edit reaches them.
		if i%2 == 0 {
			e.Open(name, int32(i))
		}
	}

	var wg sync.WaitGroup
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			editAsSession(t, e, i, rounds)
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	for i := range sessions {
		name := fmt.Sprintf("f%d.txt", i)
		if got, want := e.BufferText(name), sessionText(i, rounds, rounds); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	got := e.BufferText("shared.txt")
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	var want []string
	for i := range sessions {
		for k := 1; k <= rounds; k++ {
			want = append(want, fmt.Sprintf("s%d append %d", i, k))
		}
	}
	rest := slices.Clone(lines[1:])
	slices.Sort(rest)
	slices.Sort(want)
	if lines[0] != "head" || !slices.Equal(rest, want) || !strings.HasSuffix(got, "\n") {
		t.Fatalf("shared.txt = %q, want head then each append once", got)
	}
	// Each session's appends stay in its own order.
	for i := range sessions {
		last := 0
		for _, l := range lines[1:] {
			var s, k int
			if _, err := fmt.Sscanf(l, "s%d append %d", &s, &k); err == nil && s == i {
				if k != last+1 {
					t.Fatalf("session s%d appended out of order: %q", i, got)
				}
				last = k
			}
		}
	}
	r := e.Read("shared.txt")
	if r.Tag != tagOf(got) || r.Tag != string(hashline.TagOf(e.BufferText("shared.txt"))) {
		t.Fatalf("read of shared.txt = %s, want tag %s", r.Tag, tagOf(got))
	}
}

// sessionText is session i's file: rounds+2 lines, the first edited of
// them edited.
func sessionText(i, rounds, edited int) string {
	var b strings.Builder
	for l := 1; l <= rounds+2; l++ {
		if l <= edited {
			fmt.Fprintf(&b, "s%d edited %d\n", i, l)
		} else {
			fmt.Fprintf(&b, "s%d line %d\n", i, l)
		}
	}
	return b.String()
}

// editAsSession is session i's part: it reads its file and shared.txt,
// then rounds times edits a line of its file and appends to shared.txt
// with the tag of that first read.
func editAsSession(t *testing.T, e *lsptest.Editor, i, rounds int) {
	session := fmt.Sprintf("s%d", i)
	name := fmt.Sprintf("f%d.txt", i)
	call := func(command string, args map[string]any) (lsptest.Result, bool) {
		args["session"] = session
		r, err := e.Exec(command, args)
		if err != nil || !r.OK {
			t.Errorf("%s %s %v: %v %s", session, command, args, err, r.Raw)
			return r, false
		}
		return r, true
	}
	own, ok := call(commands.CmdRead, map[string]any{"path": name})
	if !ok {
		return
	}
	shared, ok := call(commands.CmdRead, map[string]any{"path": "shared.txt"})
	if !ok {
		return
	}
	tag := own.Tag
	for k := 1; k <= rounds; k++ {
		r, ok := call(commands.CmdEdit, map[string]any{"path": name, "tag": tag, "ops": fmt.Sprintf("PUT %d.=%d:\n+s%d edited %d", k, k, i, k)})
		if !ok {
			return
		}
		tag = r.Tag
		if _, ok := call(commands.CmdEdit, map[string]any{"path": "shared.txt", "tag": shared.Tag, "ops": fmt.Sprintf("PUT >$:\n+s%d append %d", i, k)}); !ok {
			return
		}
	}
}
