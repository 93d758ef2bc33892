package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hashline-ls/commands"
	"hashline-ls/internal/golden"
	"hashline-ls/internal/testenv"
	"hashline-ls/lsp/lsptest"
)

// scenario is a scripted session: the assistant reads and edits one file,
// always with the last tag the server gave it, while the user types.
type scenario struct {
	File  string `json:"file"`
	Text  string `json:"text"`
	Steps []struct {
		Do  string `json:"do"` // read, edit or type
		Ops string `json:"ops"`
		// A typed change replaces the text between two points, each a
		// 0-based line and byte column, as nvim_buf_set_text takes them.
		At   [2]int `json:"at"`
		To   [2]int `json:"to"`
		Text string `json:"text"`
	} `json:"steps"`
}

// TestScenarios runs each scenario of testdata/scenario in lsptest's fake
// editor as Neovim 0.7 and in Debian's real Neovim 0.7, and checks that
// both come to the golden transcript: every step's outcome and the buffer
// after it. The lsp tests trust the fake to behave as Neovim does; this
// holds it to the real one.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("testdata/scenario/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios under testdata/scenario (%v)", err)
	}
	// The server is built once, for the first scenario that runs Neovim,
	// into a folder that outlives that scenario.
	binDir, bin := t.TempDir(), ""
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var sc scenario
			if err := json.Unmarshal(raw, &sc); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			// -update rewrites the transcript from the fake editor; Neovim
			// must then agree with it.
			goldenPath := strings.TrimSuffix(file, ".json") + ".golden"
			fake := fakeTranscript(t, sc)
			want, ok := golden.Text(t, goldenPath, fake)
			if !ok {
				want = fake
			}
			if fake != want {
				t.Errorf("the fake editor's transcript differs from %s:\n%s", goldenPath, fake)
			}
			nvim := testenv.Editor(t, "nvim")
			if bin == "" {
				bin = buildServerIn(t, binDir)
			}
			if real := neovimTranscript(t, nvim, bin, file, sc); real != want {
				t.Errorf("Neovim's transcript differs from %s:\n%s", goldenPath, real)
			}
		})
	}
}

// fakeTranscript runs sc in the fake editor, announcing what Neovim 0.7
// announces and applying edits as it does: a stale version is skipped, and
// the didChange follows the answer after its 150 ms debounce.
func fakeTranscript(t *testing.T, sc scenario) string {
	e := lsptest.New(t, lsptest.Neovim())
	e.SetBehaviour(lsptest.ApplyBehaviour{StaleSkip: true, Delay: 150 * time.Millisecond})
	e.WriteFile(sc.File, sc.Text)
	e.Open(sc.File, 0)
	var b strings.Builder
	tag := ""
	for i, step := range sc.Steps {
		n := i + 1
		switch step.Do {
		case "read":
			r := e.Read(sc.File)
			tag = r.Tag
			fmt.Fprintf(&b, "%d read: ok %s\n", n, r.Tag)
		case "edit":
			r, err := e.Exec(commands.CmdEdit, map[string]any{"path": sc.File, "tag": tag, "ops": step.Ops})
			if err != nil {
				t.Fatalf("step %d: %v", n, err)
			}
			if r.OK {
				tag = r.Tag
				fmt.Fprintf(&b, "%d edit: ok %s\n", n, r.Tag)
				for _, w := range r.Warnings {
					fmt.Fprintf(&b, "    warning: %s\n", w.Kind)
				}
				break
			}
			d := r.Error.Details
			if d.LiveTag != "" {
				tag = d.LiveTag
			}
			fmt.Fprintf(&b, "%d edit: %s live %s\n", n, r.Error.Code, d.LiveTag)
			if d.Content != "" {
				for _, l := range strings.Split(strings.TrimSuffix(d.Content, "\n"), "\n") {
					b.WriteString("    " + l + "\n")
				}
			}
		case "type":
			text := e.BufferText(sc.File)
			e.TypeAt(sc.File, offset(t, text, step.At), offset(t, text, step.To), step.Text, false)
			fmt.Fprintf(&b, "%d type\n", n)
		default:
			t.Fatalf("step %d: unknown step %q", n, step.Do)
		}
		for _, l := range strings.Split(e.BufferText(sc.File), "\n") {
			b.WriteString("|" + l + "\n")
		}
	}
	return b.String()
}

// offset is the byte offset of a line and byte column in text.
func offset(t *testing.T, text string, at [2]int) int {
	off := 0
	for range at[0] {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			t.Fatalf("line %d is past the end of %q", at[0], text)
		}
		off += i + 1
	}
	end := len(text)
	if i := strings.IndexByte(text[off:], '\n'); i >= 0 {
		end = off + i
	}
	if off+at[1] > end {
		t.Fatalf("column %d is past the end of line %d of %q", at[1], at[0], text)
	}
	return off + at[1]
}

// neovimTranscript runs sc in Neovim through testdata/scenario.lua.
func neovimTranscript(t *testing.T, nvim, bin, file string, sc scenario) string {
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	testenv.WriteFiles(t, root, map[string]string{sc.File: sc.Text})
	script := absPath(t, "testdata/scenario.lua")
	scenarioPath := absPath(t, file)
	results := filepath.Join(base, "results.txt")
	cmd := headlessNvim(nvim, root, base, []string{"-u", script}, "HASHLINE_BIN="+bin, "HASHLINE_ROOT="+root, "HASHLINE_RESULTS="+results, "HASHLINE_SCENARIO="+scenarioPath)
	out, err := runNvim(t, cmd)
	b, rerr := os.ReadFile(results)
	if err != nil || rerr != nil || strings.Contains(string(b), "\nerror: ") || strings.HasPrefix(string(b), "error: ") {
		log, _ := os.ReadFile(filepath.Join(base, "server.log"))
		t.Fatalf("nvim: %v; results: %v\n%s\nnvim output:\n%s\nserver log:\n%s", err, rerr, b, out, log)
	}
	return string(b)
}
