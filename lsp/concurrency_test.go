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
	e := lsptest.New(t, lsptest.VSCode())
	e.SetBehaviour(lsptest.ApplyBehaviour{Unheld: lsptest.UnheldOpen})
	e.WriteFile("shared.txt", "head\n")
	e.Open("shared.txt", 1)
	for i := range sessions {
		var b strings.Builder
		for l := 1; l <= rounds+2; l++ {
			fmt.Fprintf(&b, "s%d line %d\n", i, l)
		}
		name := fmt.Sprintf("f%d.txt", i)
		e.WriteFile(name, b.String())
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
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	for i := range sessions {
		var b strings.Builder
		for l := 1; l <= rounds+2; l++ {
			if l <= rounds {
				fmt.Fprintf(&b, "s%d edited %d\n", i, l)
			} else {
				fmt.Fprintf(&b, "s%d line %d\n", i, l)
			}
		}
		name := fmt.Sprintf("f%d.txt", i)
		if got := e.BufferText(name); got != b.String() {
			t.Errorf("%s = %q, want %q", name, got, b.String())
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
