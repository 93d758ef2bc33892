// Package e2e runs hashline-ls under real editors.
package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hashline-ls/internal/testenv"
)

func buildServer(t testing.TB) string {
	t.Helper()
	return buildServerIn(t, t.TempDir())
}

// buildServerIn builds hashline-ls into dir, for a binary that outlives
// the test building it, and returns its path.
func buildServerIn(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "hashline-ls")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/hashline-ls")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

var summaryRe = regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed$`)

// TestNeovim runs a scripted session in Debian's Neovim (0.7) with its
// default didChange debounce: read, edit, the user changes the buffer, a
// stale edit is refused with the live tag, and an edit with that tag lands.
func TestNeovim(t *testing.T) {
	nvim := testenv.Editor(t, "nvim")
	bin := buildServer(t)
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	testenv.WriteFiles(t, root, map[string]string{"greet.py": "def greet(name):\n    return f\"hello {name}\"\n\nprint(greet(\"x\"))\n"})
	results := filepath.Join(base, "results.txt")
	script, _ := filepath.Abs("testdata/nvim_session.lua")
	testdata, _ := filepath.Abs("testdata/nvim_plugin")
	cmd := headlessNvim(nvim, root, filepath.Join(base, "xdg"), []string{"-u", script}, "HASHLINE_BIN="+bin, "HASHLINE_ROOT="+root, "HASHLINE_RESULTS="+results, "HASHLINE_TESTDATA="+testdata)
	out, err := runNvim(t, cmd)
	if errors.Is(err, errTimeout) {
		t.Fatalf("%v\n%s", err, out)
	}
	b, rerr := os.ReadFile(results)
	log, _ := os.ReadFile(filepath.Join(base, "server.log"))
	if rerr != nil || err != nil {
		t.Fatalf("nvim: %v, results: %v\nnvim output:\n%s\nserver log:\n%s", err, rerr, out, log)
	}
	t.Logf("neovim session:\n%s", b)
	m := summaryRe.FindStringSubmatch(string(b))
	if m == nil || m[2] != "0" || m[1] == "0" {
		t.Fatalf("neovim session failed:\n%s\nserver log:\n%s", b, log)
	}
	// The buffer was never saved; the file on disk is as it was.
	if disk, _ := os.ReadFile(filepath.Join(root, "greet.py")); !strings.Contains(string(disk), "hello {name}") {
		t.Fatalf("disk changed: %q", disk)
	}
}
