package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"hashline-ls/internal/testenv"
)

// TestNeovimLazySpec runs the README's lazy.nvim spec the way lazy.nvim
// runs it, without lazy.nvim itself (testdata/nvim_plugin/lazy.lua): its
// build step in a copy of the repository, then its config, and checks that
// the plugin starts the binary that build made with no cmd in setup().
func TestNeovimLazySpec(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := lazySpecRe.FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no lazy.nvim spec: a ```lua block after \"With lazy.nvim\"")
	}
	base := t.TempDir()
	spec := filepath.Join(base, "spec.lua")
	if err := os.WriteFile(spec, m[1], 0o644); err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(base, "hashline-ls")
	copyRepository(t, clone)
	// The build in Neovim keeps this go's build cache: its default lies
	// under XDG_CACHE_HOME, which each session moves into its own folder.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	for _, nv := range testenv.Neovims(t) {
		t.Run(nv.Name, func(t *testing.T) {
			runPluginScript(t, nv.Use(t), "", "lazy.lua", nil, "HASHLINE_PLUGIN=", "HASHLINE_SPEC="+spec, "HASHLINE_CLONE="+clone,
				"GOCACHE="+string(bytes.TrimSpace(gocache)))
		})
	}
}

var lazySpecRe = regexp.MustCompile("(?s)With lazy\\.nvim[^\\n]*\\n+```lua\\n(.*?)\\n```")

// copyRepository copies the repository's files (tracked, and new ones git
// does not ignore) to dst, as a clone would hold them.
func copyRepository(t *testing.T, dst string) {
	t.Helper()
	out, err := exec.Command("git", "-C", "..", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, name := range bytes.Split(bytes.TrimRight(out, "\x00"), []byte{0}) {
		src := filepath.Join("..", string(name))
		data, err := os.ReadFile(src)
		if os.IsNotExist(err) {
			continue // deleted in the work tree
		} else if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dst, string(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
