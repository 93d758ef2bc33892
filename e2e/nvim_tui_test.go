package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hashline-ls/internal/testenv"
)

// TestNeovimTUI runs each Neovim build's real interface in tmux, types as a
// person would, and has the plugin land an assistant's edit meanwhile: the
// screen shows the edit with no hit-enter prompt and no message, one u
// takes back the edit and nothing else, and the one-line notice, when
// turned on, asks for nothing either (testdata/nvim_tui.lua).
func TestNeovimTUI(t *testing.T) {
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		testenv.NotInstalled(t, "tmux", "install Debian's tmux")
	}
	bin := buildServer(t)
	for _, nv := range testenv.Neovims(t) {
		t.Run(nv.Name, func(t *testing.T) {
			s := startTUI(t, tmux, nv.Use(t), bin)
			s.waitFor("ready")
			s.keys("O", "typed by the user", "Escape")
			s.screenHas("typed by the user")

			s.keys("F5")
			s.waitFor("edit 1 ok")
			screen := s.screenHas("# added by the assistant 1")
			for _, bad := range []string{"Press ENTER", "Workspace edit", "Applied changes", "hashline: PUT"} {
				if strings.Contains(screen, bad) {
					t.Errorf("after the edit the screen shows %q:\n%s", bad, screen)
				}
			}

			s.keys("u")
			s.screenLacks("# added by the assistant 1")
			if got := s.lines(); len(got) != 5 || got[0] != "typed by the user" || got[4] != `print(greet("x"))` {
				t.Errorf("one u took back more or less than the edit: %q", got)
			}
			s.keys("u")
			if got := s.lines(); got[0] != "def greet(name):" {
				t.Errorf("the second u did not take back the typing: %q", got)
			}

			s.keys("F7")
			s.waitFor("notice on")
			s.keys("F5")
			s.waitFor("edit 2 ok")
			screen = s.screenHas("hashline: PUT >$:")
			if strings.Contains(screen, "Press ENTER") || strings.Contains(screen, "Workspace edit") {
				t.Errorf("the one-line notice came with more:\n%s", screen)
			}
		})
	}
}

// tuiSession is one Neovim in its own tmux server.
type tuiSession struct {
	t                 *testing.T
	tmux, sock, check string
}

func startTUI(t *testing.T, tmux, nvim, bin string) *tuiSession {
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	if err := copyTree("testdata/nvim_plugin/ws", root); err != nil {
		t.Fatal(err)
	}
	plugin, _ := filepath.Abs("../editors/neovim")
	script, _ := filepath.Abs("testdata/nvim_tui.lua")
	s := &tuiSession{t: t, tmux: tmux, sock: filepath.Join(base, "tmux.sock"), check: filepath.Join(base, "results.txt")}
	xdg := filepath.Join(base, "xdg")
	shell := fmt.Sprintf("cd %q && env HASHLINE_PLUGIN=%q HASHLINE_BIN=%q HASHLINE_LOG=%q HASHLINE_RESULTS=%q XDG_CONFIG_HOME=%q XDG_DATA_HOME=%q XDG_STATE_HOME=%q XDG_CACHE_HOME=%q %q --clean -u %q greet.py",
		root, plugin, bin, filepath.Join(base, "server.log"), s.check,
		filepath.Join(xdg, "config"), filepath.Join(xdg, "data"), filepath.Join(xdg, "state"), filepath.Join(xdg, "cache"), nvim, script)
	s.run("-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", shell)
	t.Cleanup(func() { _ = exec.Command(tmux, "-S", s.sock, "kill-server").Run() })
	return s
}

func (s *tuiSession) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command(s.tmux, append([]string{"-S", s.sock}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys sends keys as the terminal would, one tmux argument each, with a
// pause after, as between a person's keystrokes.
func (s *tuiSession) keys(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		if k == "O" || k == "u" || strings.Contains(k, " ") {
			s.run("send-keys", "-l", k)
		} else {
			s.run("send-keys", k)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (s *tuiSession) screen() string { return s.run("capture-pane", "-p") }

// until polls cond for up to 10 s.
func (s *tuiSession) until(what string, cond func() bool) {
	s.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	b, _ := os.ReadFile(s.check)
	s.t.Fatalf("waited 10 s for %s; results:\n%s\nscreen:\n%s", what, b, s.screen())
}

func (s *tuiSession) waitFor(line string) {
	s.t.Helper()
	s.until(fmt.Sprintf("%q in the results", line), func() bool {
		b, _ := os.ReadFile(s.check)
		return strings.Contains("\n"+string(b), "\n"+line+"\n")
	})
}

func (s *tuiSession) screenHas(text string) string {
	s.t.Helper()
	var screen string
	s.until(fmt.Sprintf("%q on the screen", text), func() bool {
		screen = s.screen()
		return strings.Contains(screen, text)
	})
	return screen
}

func (s *tuiSession) screenLacks(text string) {
	s.t.Helper()
	s.until(fmt.Sprintf("%q to leave the screen", text), func() bool { return !strings.Contains(s.screen(), text) })
}

var linesRe = regexp.MustCompile(`(?m)^lines (.*)$`)

// lines asks Neovim for the buffer's lines (<F6>).
func (s *tuiSession) lines() []string {
	s.t.Helper()
	before := 0
	if b, err := os.ReadFile(s.check); err == nil {
		before = len(linesRe.FindAllSubmatch(b, -1))
	}
	s.keys("F6")
	var got []string
	s.until("the buffer's lines", func() bool {
		b, _ := os.ReadFile(s.check)
		all := linesRe.FindAllSubmatch(b, -1)
		if len(all) <= before {
			return false
		}
		return json.Unmarshal(all[len(all)-1][1], &got) == nil
	})
	return got
}
