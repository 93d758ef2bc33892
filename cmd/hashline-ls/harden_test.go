package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
)

// swapRounds is how many calls each swap test makes: enough that the code
// before the fix failed nearly every run.
const swapRounds = 1500

// fifoRounds is swapRounds for the FIFO swap, whose window is narrower.
const fifoRounds = 5000

// swapWorkspace is a workspace holding sub/data.txt and sublink, a link to
// a folder outside it that holds its own data.txt, and a swap of the two
// running; inside is a descriptor on the real sub, wherever it is named.
func swapWorkspace(t *testing.T, insideText, outsideText string) (ws, outsideFile string, inside *os.File, stop func() int) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	testenv.WriteFiles(t, ws, map[string]string{"sub/data.txt": insideText})
	testenv.WriteFiles(t, outside, map[string]string{"data.txt": outsideText})
	if err := os.Symlink(outside, filepath.Join(ws, "sublink")); err != nil {
		t.Fatal(err)
	}
	inside, err = os.Open(filepath.Join(ws, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inside.Close() })
	stop = testenv.Swap(t, filepath.Join(ws, "sub"), filepath.Join(ws, "sublink"))
	return ws, filepath.Join(outside, "data.txt"), inside, stop
}

// swapFIFOWorkspace is a workspace holding f.txt, with text, and a FIFO
// that trade places over and over.
func swapFIFOWorkspace(t *testing.T, text string) (ws string, stop func() int) {
	t.Helper()
	ws = t.TempDir()
	testenv.WriteFiles(t, ws, map[string]string{"f.txt": text})
	if err := testenv.Mkfifo(filepath.Join(ws, "fifo")); err != nil {
		t.Fatal(err)
	}
	return ws, testenv.Swap(t, filepath.Join(ws, "f.txt"), filepath.Join(ws, "fifo"))
}

// A folder swapped for a link to outside the workspace while the shell
// verbs read and edit through it: no read shows the outside file and no
// edit changes it (docs/design.md §7.1).
func TestVerbsFolderSwappedForLink(t *testing.T) {
	t.Run("read", func(t *testing.T) {
		ws, _, _, stop := swapWorkspace(t, "inside\n", "outside\n")
		served := 0
		// swapRounds reads, and on until one was served: on a loaded machine
		// the swaps may pause for a while.
		for i := 0; i < swapRounds || served == 0 && i < 10*swapRounds; i++ {
			out, errs, code := verb(t, ws, "", "read", "sub/data.txt")
			if strings.Contains(out+errs, "outside\n") && !strings.Contains(errs, "PATH_OUTSIDE_WORKSPACE") {
				t.Fatalf("read %d (after %d swaps) showed the outside file: %q %q", i, stop(), out, errs)
			}
			if code == 0 {
				served++
			}
		}
		t.Logf("%d swaps, %d reads served", stop(), served)
		if served == 0 {
			t.Fatal("no read was served: the test proves nothing")
		}
	})
	t.Run("edit", func(t *testing.T) {
		// The two files hold one text, so an edit that reaches the outside
		// one passes its tag check.
		ws, outsideFile, inside, stop := swapWorkspace(t, "x\n", "x\n")
		tag := string(hashline.TagOf("x\n"))
		landed := 0
		for i := 0; i < swapRounds || landed == 0 && i < 10*swapRounds; i++ {
			_, _, code := verb(t, ws, "PUT >1:\n+y\n", "edit", "sub/data.txt", "--tag", tag)
			if b, _ := os.ReadFile(outsideFile); string(b) != "x\n" {
				t.Fatalf("edit %d (after %d swaps) replaced the outside file: %q", i, stop(), b)
			}
			if code == 0 {
				landed++
				testenv.ResetIn(t, inside, "data.txt", "x\n")
			}
		}
		t.Logf("%d swaps, %d edits landed", stop(), landed)
		if landed == 0 {
			t.Fatal("no edit landed: the test proves nothing")
		}
	})
}

// A file swapped for a FIFO while reads run: every read answers
// (docs/design.md §7.2). Before the fix, a read blocked opening the FIFO and never
// answered.
func TestVerbReadSwappedForFIFO(t *testing.T) {
	ws, stop := swapFIFOWorkspace(t, "text\n")
	refused := 0
	for i := 0; i < fifoRounds || refused == 0 && i < 10*fifoRounds; i++ {
		done := make(chan string, 1)
		go func() {
			_, errs, _ := verb(t, ws, "", "read", "f.txt")
			done <- errs
		}()
		select {
		case errs := <-done:
			if strings.Contains(errs, "not a regular file") {
				refused++
			}
		case <-time.After(5 * time.Second):
			// A read blocked in open cannot be called back; the process
			// ends with the test.
			t.Fatalf("read %d (after %d swaps) did not answer", i, stop())
		}
	}
	t.Logf("%d swaps, %d reads refused a FIFO", stop(), refused)
	if refused == 0 {
		t.Fatal("no read met the FIFO: the test proves nothing")
	}
}

// buildBinary builds hashline-ls for tests that run it as a user does;
// -short skips them.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	return build(t)
}

// build builds hashline-ls into a folder of the test's own, unless
// HASHLINE_BIN names one built already, as where the tests run without Go
// (the Windows tests under Wine).
func build(tb testing.TB) string {
	tb.Helper()
	if bin := os.Getenv("HASHLINE_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(tb.TempDir(), "hashline-ls")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		tb.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// verbIn is the built binary bin run with args in dir, as a user runs it
// from a shell there, with stdin on its standard input.
func verbIn(dir, stdin, bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
	return cmd
}

// Three edit processes started together on one 50,000-line file, each
// changing a different line with the same tag: one lands, the others are
// refused with EDIT_TAG_MISMATCH and the live tag, and the file holds
// exactly the change that was reported (docs/design.md §6.3). Before the fix,
// two processes exited 0 with one change in the file.
func TestConcurrentShellEdits(t *testing.T) {
	bin := buildBinary(t)
	ws := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 50000; i++ {
		fmt.Fprintf(&b, "line %d of the file\n", i)
	}
	text := b.String()
	tag := string(hashline.TagOf(text))
	lines := []int{100, 25000, 49900}
	races := 0
	for trial := 0; trial < 20; trial++ {
		testenv.WriteFiles(t, ws, map[string]string{"f.txt": text})
		type outcome struct {
			code         int
			stdout, errs string
		}
		outcomes := make([]outcome, len(lines))
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, n := range lines {
			cmd := verbIn(ws, fmt.Sprintf("PUT %d.=%d:\n+changed by %d\n", n, n, i), bin, "edit", "f.txt", "--tag", tag)
			var out, errs bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errs
			wg.Go(func() {
				<-start
				err := cmd.Run()
				outcomes[i] = outcome{cmd.ProcessState.ExitCode(), out.String(), errs.String()}
				if err != nil && cmd.ProcessState == nil {
					t.Errorf("run: %v", err)
				}
			})
		}
		close(start)
		wg.Wait()
		got := fileText(t, ws, "f.txt")
		liveTag := string(hashline.TagOf(got))
		landed := 0
		for i, o := range outcomes {
			change := fmt.Sprintf("changed by %d\n", i)
			switch o.code {
			case 0:
				landed++
				if !strings.Contains(got, change) {
					t.Fatalf("trial %d: edit %d exited 0 but its change is not in the file: %s", trial, i, o.stdout)
				}
			default:
				// A process that read the file before another landed is
				// refused as the file changed under it; one that started
				// after is a stale shell call, whose tag no call recorded.
				raced := strings.HasPrefix(o.errs, "EDIT_TAG_MISMATCH: ")
				if !raced && !strings.HasPrefix(o.errs, "EDIT_TAG_UNKNOWN: ") || !strings.Contains(o.errs, "live tag: "+liveTag) {
					t.Fatalf("trial %d: edit %d refused with %q, want EDIT_TAG_MISMATCH and the live tag %s", trial, i, o.errs, liveTag)
				}
				if raced {
					races++
				}
				if strings.Contains(got, change) {
					t.Fatalf("trial %d: edit %d was refused but its change is in the file", trial, i)
				}
			}
		}
		if landed != 1 {
			t.Fatalf("trial %d: %d edits landed, want exactly 1", trial, landed)
		}
	}
	t.Logf("%d edits were refused after the file changed under them", races)
}

// --content, --ops and --patch are read as stdin is, up to 64 MiB, and
// only from a regular file: a device never ends and a FIFO may never open
// (docs/design.md §7.4). Before the fix, write --content /dev/zero read
// until the process ran out of memory.
func TestVerbInputFilesBounded(t *testing.T) {
	ws := t.TempDir()
	testenv.WriteFiles(t, ws, map[string]string{"a.txt": "a\n"})
	fifo := filepath.Join(ws, "fifo")
	if err := testenv.Mkfifo(fifo); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(ws, "huge")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 65<<20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	tag := string(hashline.TagOf("a\n"))
	for _, input := range []struct{ name, want string }{
		{"/dev/zero", "is not a regular file"},
		{fifo, "is not a regular file"},
		{ws, "is not a regular file"},
		{huge, "is over 64 MiB"},
	} {
		for _, args := range [][]string{
			{"write", "a.txt", "--content", input.name},
			{"edit", "a.txt", "--tag", tag, "--ops", input.name},
			{"patch", "--patch", input.name},
		} {
			t.Run(args[0]+" "+filepath.Base(input.name), func(t *testing.T) {
				out, errs, code := verb(t, ws, "", args...)
				if code != 1 || out != "" || !strings.HasPrefix(errs, "INVALID_ARGUMENT: ") || !strings.Contains(errs, input.want) {
					t.Fatalf("%v = %d %q %q, want INVALID_ARGUMENT saying %q", args, code, out, errs, input.want)
				}
				if got := fileText(t, ws, "a.txt"); got != "a\n" {
					t.Fatalf("a.txt = %q", got)
				}
			})
		}
	}
}

// The grep verb while a folder is swapped for a link to outside, or a file
// for a FIFO: no match comes from outside and every grep answers; a FIFO
// ignore file is skipped with a warning (docs/design.md §7.1, docs/design.md §7.3).
func TestGrepVerbConfined(t *testing.T) {
	grepSoon := func(t *testing.T, ws string, args ...string) (string, string) {
		t.Helper()
		type answer struct{ out, errs string }
		done := make(chan answer, 1)
		go func() {
			out, errs, _ := verb(t, ws, "", append([]string{"grep"}, args...)...)
			done <- answer{out, errs}
		}()
		select {
		case a := <-done:
			return a.out, a.errs
		case <-time.After(10 * time.Second):
			t.Fatal("grep did not answer")
			return "", ""
		}
	}
	t.Run("folder swapped for a link", func(t *testing.T) {
		ws, _, _, stop := swapWorkspace(t, "hit inside\n", "hit outside\n")
		found := 0
		for i := 0; i < 300 || found == 0 && i < 3000; i++ {
			out, errs := grepSoon(t, ws, "hit")
			if strings.Contains(out+errs, "outside") {
				t.Fatalf("grep %d (after %d swaps) showed the outside file: %q %q", i, stop(), out, errs)
			}
			if strings.Contains(out, "hit inside") {
				found++
			}
		}
		t.Logf("%d swaps, %d greps found the inside file", stop(), found)
	})
	t.Run("file swapped for a FIFO", func(t *testing.T) {
		ws, _ := swapFIFOWorkspace(t, "hit\n")
		for i := 0; i < 300; i++ {
			grepSoon(t, ws, "hit")
		}
	})
	t.Run("a FIFO .gitignore", func(t *testing.T) {
		ws := t.TempDir()
		testenv.WriteFiles(t, ws, map[string]string{"f.txt": "hit\n"})
		if err := testenv.Mkfifo(filepath.Join(ws, ".gitignore")); err != nil {
			t.Fatal(err)
		}
		out, _ := grepSoon(t, ws, "hit")
		if !strings.Contains(out, "1:hit") || !strings.Contains(out, "skipped the ignore file(s) .gitignore (not a regular file)") {
			t.Fatalf("grep = %q, want the match and the warning", out)
		}
	})
}
