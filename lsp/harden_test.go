package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/internal/testenv"
	"hashline-ls/lsp/lsptest"
)

// How many calls each swap test makes: enough that the code before the
// fix failed nearly every run.
const (
	readRounds = 600
	editRounds = 300
)

// swapped sets up, in a headless editor's workspace (the server reads and
// writes the disk itself), sub/data.txt and sublink, a link to a folder
// outside holding its own data.txt, and exchanges the two until the test
// ends. It returns the outside file, a descriptor on the real sub wherever
// it is named, and a func that stops the swaps and counts them.
func swapped(t *testing.T, e *lsptest.Editor, insideText, outsideText string) (outsideFile string, inside *os.File, stop func() int) {
	t.Helper()
	e.WriteFile("sub/data.txt", insideText)
	outside := t.TempDir()
	outsideFile = filepath.Join(outside, "data.txt")
	if err := os.WriteFile(outsideFile, []byte(outsideText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, e.Path("sublink")); err != nil {
		t.Fatal(err)
	}
	inside, err := os.Open(e.Path("sub"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inside.Close() })
	stop = testenv.Swap(t, e.Path("sub"), e.Path("sublink"))
	return outsideFile, inside, stop
}

// A folder swapped for a link to outside the workspace while the server
// reads and writes the disk through it: no read shows the outside file and
// no edit changes it (docs/design.md §7.1).
func TestDiskFolderSwappedForLink(t *testing.T) {
	t.Run("read", func(t *testing.T) {
		e := lsptest.New(t, lsptest.Options{Quiet: true})
		_, _, stop := swapped(t, e, "inside\n", "outside\n")
		served := 0
		// readRounds reads, and on until one was served: on a loaded
		// machine the swaps may pause for a while.
		for i := 0; i < readRounds || served == 0 && i < 10*readRounds; i++ {
			r, err := e.Exec(commands.CmdRead, map[string]any{"path": "sub/data.txt"})
			if err != nil {
				t.Fatal(err)
			}
			if r.OK && r.Tag != tagOf("inside\n") {
				t.Fatalf("read %d (after %d swaps) showed the outside file: %s", i, stop(), r.Raw)
			}
			if r.OK {
				served++
			}
		}
		t.Logf("%d swaps, %d reads served", stop(), served)
		if served == 0 {
			t.Fatal("no read was served: the test proves nothing")
		}
	})
	t.Run("edit", func(t *testing.T) {
		e := lsptest.New(t, lsptest.Options{Quiet: true})
		// One text on both sides, so an edit that reaches the outside file
		// passes its tag check.
		outsideFile, inside, stop := swapped(t, e, "x\n", "x\n")
		landed := 0
		for i := 0; i < editRounds || landed == 0 && i < 10*editRounds; i++ {
			r, err := e.Exec(commands.CmdEdit, map[string]any{"path": "sub/data.txt", "tag": tagOf("x\n"), "ops": "PUT >1:\n+y"})
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(outsideFile); string(b) != "x\n" {
				t.Fatalf("edit %d (after %d swaps) replaced the outside file: %q", i, stop(), b)
			}
			if r.OK {
				landed++
				testenv.ResetIn(t, inside, "data.txt", "x\n")
			} else if r.Error.Code == hashline.CodeToolFailed {
				t.Fatalf("edit %d: %s", i, r.Raw)
			}
		}
		t.Logf("%d swaps, %d edits landed", stop(), landed)
		if landed == 0 {
			t.Fatal("no edit landed: the test proves nothing")
		}
	})
}

// The wait for the editor's answer to applyEdit is the applyEditTimeoutMs
// setting, and its failure names it (docs/design.md §5.8). Before, it was a
// fixed 60 s.
func TestApplyEditTimeoutSetting(t *testing.T) {
	opts := lsptest.VSCode()
	opts.InitOptions = map[string]any{"hashline": map[string]any{"applyEditTimeoutMs": 200}}
	e := lsptest.New(t, opts)
	e.WriteFile("a.txt", "a\n")
	tag := e.Read("a.txt").Tag
	e.SetBehaviour(lsptest.ApplyBehaviour{Unanswered: true})
	r := e.Fail(commands.CmdEdit, map[string]any{"path": "a.txt", "tag": tag, "ops": "PUT 1.=1:\n+b"}, hashline.CodeToolFailed)
	if !strings.Contains(r.Error.Message, "did not answer workspace/applyEdit within 200ms (the applyEditTimeoutMs setting)") {
		t.Fatalf("edit = %s, want the applyEdit timeout named", r.Raw)
	}
	e.SetBehaviour(lsptest.ApplyBehaviour{})
	stillServes(t, e)
}

// A frame whose Content-Length lies, short or long, or noise between
// frames: the frame is answered (a parse error when what was read of it
// does not decode) and so is every request after it (docs/design.md §4.6).
// Before the fix, the server answered the parse error and then nothing,
// alive and deaf.
func TestLyingFrames(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":"lying","method":"workspace/executeCommand","params":{"command":"hashline.read","arguments":[{"path":"a.txt"}]}}`
	frame := func(length int) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", length, body) }
	for _, c := range []struct {
		name       string
		raw        string
		parseError bool // the lying frame is answered with a parse error
		answered   bool // the lying frame is answered at all
	}{
		{name: "10 bytes short", raw: frame(len(body) - 10), parseError: true, answered: true},
		{name: "40 bytes long", raw: frame(len(body) + 40), answered: true},
		{name: "noise before a frame", raw: "garbage\r\nmore: garbage\r\n" + frame(len(body)), answered: true},
		{name: "no number", raw: "Content-Length: many\r\n\r\n" + body},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := lsptest.New(t, lsptest.Options{Quiet: true})
			e.WriteFile("a.txt", "a\n")
			e.Wire().WriteBytes(c.raw)
			stillServes(t, e)
			stillServes(t, e)
			if !c.answered {
				return
			}
			select {
			case r := <-e.Wire().FrameAnswers():
				got := r.ID()
				if b, _ := json.Marshal(&got); string(b) != `"lying"` {
					t.Fatalf("answer for id %s, want \"lying\"", b)
				}
				if c.parseError != (rpcCode(r.Err()) == jsonrpc2.ParseError) {
					t.Fatalf("answer = %v %s, parse error wanted: %v", r.Err(), r.Result(), c.parseError)
				}
			case <-time.After(callTimeout):
				t.Fatal("the lying frame was never answered")
			}
		})
	}
}

// A request whose id is "" is answered with the id "", not 0, and can be
// cancelled by it (docs/design.md §4.6). jsonrpc2 v0.10.0 takes "" for 0.
func TestEmptyStringID(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	e.WriteFile("a.txt", "a\n")
	e.Wire().WriteBytes(frameOf(`{"jsonrpc":"2.0","id":"","method":"workspace/executeCommand","params":{"command":"hashline.read","arguments":[{"path":"a.txt"}]}}`))
	e.Wire().WriteBytes(frameOf(`{"jsonrpc":"2.0","id":0,"method":"workspace/executeCommand","params":{"command":"hashline.describe","arguments":[{}]}}`))
	stillServes(t, e)
	var empty, zero map[string]json.RawMessage
	for deadline := time.Now().Add(callTimeout); empty == nil || zero == nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("answers on the wire: id \"\" %v, id 0 %v", empty, zero)
		}
		empty, _ = e.Wire().ResponseRaw(`""`)
		zero, _ = e.Wire().ResponseRaw(`0`)
	}
	var r, d lsptest.Result
	if json.Unmarshal(empty["result"], &r) != nil || !r.OK || r.Tag != tagOf("a\n") {
		t.Fatalf("the answer to id \"\" is not the read: %s", empty["result"])
	}
	if json.Unmarshal(zero["result"], &d) != nil || !d.OK || d.Tag != "" || !strings.Contains(string(zero["result"]), `"tools"`) {
		t.Fatalf("the answer to id 0 is not the describe: %.200s", zero["result"])
	}
}

func frameOf(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }
