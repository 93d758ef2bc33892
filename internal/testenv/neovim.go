package testenv

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// Neovim is one Neovim build the plugin's tests run in.
type Neovim struct {
	Name    string // the subtest name: "v0.12.4", or where it comes from when absent
	Path    string // the nvim binary; "" when the build is absent
	Version string // "0.12.4"
	Major   int
	Minor   int
	missing string // why it is absent, and how to install it
}

// The builds e2e/scripts/install-neovim.sh unpacks into
// e2e/.cache/neovim/SUITE, beside Debian's nvim on PATH.
var neovimSuites = []string{"trixie", "sid"}

// Neovims returns every Neovim build the plugin's tests run in: the nvim on
// PATH (Debian bookworm's 0.7.2 in CI) and the builds of trixie (0.10.x)
// and sid (0.12.x or later) that e2e/scripts/install-neovim.sh unpacks into
// e2e/.cache/neovim. An absent build is listed too: Use skips it, or fails
// it where the editors are required.
func Neovims(t testing.TB) []Neovim {
	t.Helper()
	var out []Neovim
	if path, err := exec.LookPath("nvim"); err == nil {
		out = append(out, probeNeovim(t, path))
	} else {
		out = append(out, Neovim{Name: "PATH", missing: "nvim is not on PATH (" + err.Error() + "): install Debian's neovim"})
	}
	root, err := moduleRoot()
	if err != nil {
		root = "."
	}
	for _, suite := range neovimSuites {
		path := filepath.Join(root, "e2e", ".cache", "neovim", suite, "usr", "bin", "nvim")
		if exists(path) {
			out = append(out, probeNeovim(t, path))
			continue
		}
		out = append(out, Neovim{Name: suite, missing: "Neovim from Debian " + suite + " is not at " + path + ": run e2e/scripts/install-neovim.sh"})
	}
	return out
}

// Use returns the build's nvim, or skips the test (fails it where the
// editors are required) when the build is absent.
func (n Neovim) Use(t testing.TB) string {
	t.Helper()
	if n.Path != "" {
		return n.Path
	}
	if required(RequireEditors) {
		t.Fatalf("%s, and %s is set", n.missing, RequireEditors)
	}
	t.Skipf("%s; or set %s to fail instead", n.missing, RequireEditors)
	return ""
}

// NewestNeovim returns the newest Neovim build the tests run in, for a test
// of what only builds of major.minor or later do; it skips the test (fails
// it where the editors are required) when no such build is installed.
func NewestNeovim(t testing.TB, major, minor int) string {
	t.Helper()
	var newest Neovim
	for _, n := range Neovims(t) {
		if n.Path != "" && n.AtLeast(major, minor) && (newest.Path == "" || n.AtLeast(newest.Major, newest.Minor+1)) {
			newest = n
		}
	}
	if newest.Path == "" {
		newest.missing = fmt.Sprintf("no Neovim %d.%d or later is installed: run e2e/scripts/install-neovim.sh", major, minor)
		return newest.Use(t)
	}
	t.Logf("Neovim %s at %s", newest.Version, newest.Path)
	return newest.Path
}

// AtLeast reports whether the build is major.minor or later.
func (n Neovim) AtLeast(major, minor int) bool {
	return n.Major > major || n.Major == major && n.Minor >= minor
}

var nvimVersionRe = regexp.MustCompile(`NVIM v(\d+)\.(\d+)\.(\d+)`)

func probeNeovim(t testing.TB, path string) Neovim {
	t.Helper()
	out, err := exec.Command(path, "--version").Output()
	m := nvimVersionRe.FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("%s --version: %v %q", path, err, out)
	}
	major, _ := strconv.Atoi(string(m[1]))
	minor, _ := strconv.Atoi(string(m[2]))
	version := string(m[1]) + "." + string(m[2]) + "." + string(m[3])
	return Neovim{Name: "v" + version, Path: path, Version: version, Major: major, Minor: minor}
}
