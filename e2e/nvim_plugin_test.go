package e2e

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"hashline-ls/internal/testenv"
)

// TestNeovimPlugin runs the Neovim plugin (editors/neovim) in Debian's
// Neovim (0.7) against the built server, with Neovim's default didChange
// debounce. Each script in testdata/nvim_plugin/ is a headless session that
// loads the plugin from the runtimepath as a plugin manager would, checks
// one thing per line, and ends with "N passed, N failed".
func TestNeovimPlugin(t *testing.T) {
	nvim := testenv.Editor(t, "nvim")
	bin := buildServer(t)
	plugin, err := filepath.Abs("../editors/neovim")
	if err != nil {
		t.Fatal(err)
	}
	testdata, err := filepath.Abs("testdata/nvim_plugin")
	if err != nil {
		t.Fatal(err)
	}
	for _, script := range []string{
		"session.lua",  // the API, races with the user, unshown files, write, MV, REM, the commands, :checkhealth
		"adapters.lua", // the codecompanion and avante tool adapters, and the help file's tags
		"compat.lua",   // the start-up paths of Neovim 0.8-0.10 and 0.11, with their APIs stood in for
		"enable.lua",   // vim.lsp.enable("hashline") without setup(), on Neovim 0.11 and later
	} {
		t.Run(strings.TrimSuffix(script, ".lua"), func(t *testing.T) {
			if script == "enable.lua" {
				if major, minor := nvimVersion(t, nvim); major == 0 && minor < 11 {
					t.Skipf("vim.lsp.enable needs Neovim 0.11 or later; this is %d.%d", major, minor)
				}
			}
			runPluginScript(t, nvim, bin, plugin, testdata, script)
		})
	}
}

// nvimVersion is the major and minor version of the Neovim at path.
func nvimVersion(t *testing.T, nvim string) (major, minor int) {
	out, err := exec.Command(nvim, "--version").Output()
	m := nvimVersionRe.FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("%s --version: %v %q", nvim, err, out)
	}
	major, _ = strconv.Atoi(string(m[1]))
	minor, _ = strconv.Atoi(string(m[2]))
	return major, minor
}

var nvimVersionRe = regexp.MustCompile(`NVIM v(\d+)\.(\d+)`)

func runPluginScript(t *testing.T, nvim, bin, plugin, testdata, script string) {
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	if err := copyTree(filepath.Join(testdata, "ws"), root); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(base, "results.txt")
	serverLog := filepath.Join(base, "server.log")
	xdg := filepath.Join(base, "xdg")
	cmd := exec.Command(nvim, "--headless", "--clean", "-u", filepath.Join(testdata, script))
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"HASHLINE_BIN="+bin,
		"HASHLINE_ROOT="+root,
		"HASHLINE_RESULTS="+results,
		"HASHLINE_PLUGIN="+plugin,
		"HASHLINE_LOG="+serverLog,
		"HASHLINE_TMP="+base,
		"HASHLINE_TESTDATA="+testdata,
		// Neovim's own files (its LSP log among them) stay in the test's
		// folder, away from the user's.
		"XDG_CONFIG_HOME="+filepath.Join(xdg, "config"),
		"XDG_DATA_HOME="+filepath.Join(xdg, "data"),
		"XDG_STATE_HOME="+filepath.Join(xdg, "state"),
		"XDG_CACHE_HOME="+filepath.Join(xdg, "cache"),
	)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var runErr error
	select {
	case runErr = <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		runErr = errTimeout
	}
	b, readErr := os.ReadFile(results)
	report := func(format string, args ...any) {
		t.Helper()
		slog, _ := os.ReadFile(serverLog)
		clog, _ := os.ReadFile(filepath.Join(xdg, "cache", "nvim", "lsp.log"))
		t.Fatalf(format+"\nresults:\n%s\nnvim output:\n%s\nserver log:\n%s\nNeovim's LSP log:\n%s",
			append(args, b, out.String(), slog, clog)...)
	}
	if runErr != nil || readErr != nil {
		report("%s: nvim: %v; results: %v", script, runErr, readErr)
	}
	m := summaryRe.FindStringSubmatch(string(b))
	if m == nil || m[2] != "0" || m[1] == "0" {
		report("%s failed", script)
	}
	t.Logf("%s in %s:\n%s", script, time.Since(start).Round(time.Millisecond), b)
}

var errTimeout = errors.New("nvim did not finish within 60 s")

// copyTree copies the fixture folder src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
