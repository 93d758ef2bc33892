// Package e2e runs hashline-ls under real editors.
package e2e

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hashline-ls/internal/testenv"
)

func buildServer(t testing.TB) string {
	t.Helper()
	return buildServerIn(t, t.TempDir())
}

// buildServerIn builds hashline-ls into dir, for a binary that outlives
// the test building it, and returns its path; HASHLINE_BIN names one built
// already (the arm64 server under qemu, hashline-ls.exe under Wine: see
// scripts/emulated.sh).
func buildServerIn(t testing.TB, dir string) string {
	t.Helper()
	if bin := os.Getenv("HASHLINE_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(dir, "hashline-ls")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/hashline-ls")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// absPath is rel made absolute, against the e2e folder the tests run in.
func absPath(t testing.TB, rel string) string {
	t.Helper()
	p, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	return p
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

// TestNeovimPlugin runs the Neovim plugin (editors/neovim) in every Neovim
// build testenv.Neovims finds (Debian's 0.7.2, and 0.10.x and 0.12.x from
// e2e/scripts/install-neovim.sh) against the built server, with Neovim's
// default didChange debounce. Each script in testdata/nvim_plugin/ is a
// headless session that loads the plugin from the runtimepath as a plugin
// manager would, checks one thing per line, and ends with "N passed, N
// failed".
func TestNeovimPlugin(t *testing.T) {
	bin := buildServer(t)
	for _, nv := range testenv.Neovims(t) {
		t.Run(nv.Name, func(t *testing.T) {
			nvim := nv.Use(t)
			for _, script := range []string{
				"session.lua",  // the API, races with the user, unshown files, write, MV, REM, the commands, :checkhealth
				"adapters.lua", // the codecompanion and avante tool adapters, and the help file's tags
				"startup.lua",  // how the server starts and buffers attach, on the path each version takes
				"enable.lua",   // vim.lsp.enable("hashline") without setup(), on Neovim 0.11 and later
			} {
				t.Run(strings.TrimSuffix(script, ".lua"), func(t *testing.T) {
					if script == "enable.lua" && !nv.AtLeast(0, 11) {
						t.Skipf("vim.lsp.enable needs Neovim 0.11 or later; this is %s", nv.Version)
					}
					runPluginScript(t, nvim, bin, script, nil)
				})
			}
		})
	}
}

// runPluginScript runs testdata/nvim_plugin/script headless in nvim, in a
// copy of testdata/nvim_plugin/ws, fails the test unless every check passed,
// and returns the results file. prepare, when set, adds files to the
// workspace first; env adds variables.
func runPluginScript(t testing.TB, nvim, bin, script string, prepare func(root string), env ...string) string {
	t.Helper()
	plugin := absPath(t, "../editors/neovim")
	testdata := absPath(t, "testdata/nvim_plugin")
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	if err := copyTree(filepath.Join(testdata, "ws"), root); err != nil {
		t.Fatal(err)
	}
	if prepare != nil {
		prepare(root)
	}
	results := filepath.Join(base, "results.txt")
	serverLog := filepath.Join(base, "server.log")
	xdg := filepath.Join(base, "xdg")
	cmd := headlessNvim(nvim, root, xdg, []string{"-u", filepath.Join(testdata, script)}, append([]string{
		"HASHLINE_BIN=" + bin,
		"HASHLINE_ROOT=" + root,
		"HASHLINE_RESULTS=" + results,
		"HASHLINE_PLUGIN=" + plugin,
		"HASHLINE_LOG=" + serverLog,
		"HASHLINE_TMP=" + base,
		"HASHLINE_TESTDATA=" + testdata,
	}, env...)...)
	start := time.Now()
	out, runErr := runNvim(t, cmd)
	b, readErr := os.ReadFile(results)
	report := func(format string, args ...any) {
		t.Helper()
		slog, _ := os.ReadFile(serverLog)
		clog, _ := os.ReadFile(lspLog(xdg))
		t.Fatalf(format+"\nresults:\n%s\nnvim output:\n%s\nserver log:\n%s\nNeovim's LSP log:\n%s",
			append(args, b, out, slog, clog)...)
	}
	if runErr != nil || readErr != nil {
		report("%s: nvim: %v; results: %v", script, runErr, readErr)
	}
	m := summaryRe.FindStringSubmatch(string(b))
	if m == nil || m[2] != "0" || m[1] == "0" {
		report("%s failed", script)
	}
	var checks []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "ok ") || summaryRe.MatchString(l) {
			checks = append(checks, l)
		}
	}
	t.Logf("%s in %s:\n%s", script, time.Since(start).Round(time.Millisecond), strings.Join(checks, "\n"))
	return string(b)
}

// lspLog is where Neovim writes its LSP log: the cache folder up to 0.9,
// the state folder since.
func lspLog(xdg string) string {
	for _, p := range []string{filepath.Join(xdg, "state", "nvim", "lsp.log"), filepath.Join(xdg, "cache", "nvim", "lsp.log")} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return filepath.Join(xdg, "cache", "nvim", "lsp.log")
}

// headlessNvim is nvim run from dir with --headless --clean and args,
// with env added to this process's environment, and Neovim's own files
// (its LSP log among them) in folders under xdg, away from the user's.
func headlessNvim(nvim, dir, xdg string, args []string, env ...string) *exec.Cmd {
	cmd := exec.Command(nvim, append([]string{"--headless", "--clean"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...),
		"XDG_CONFIG_HOME="+filepath.Join(xdg, "config"),
		"XDG_DATA_HOME="+filepath.Join(xdg, "data"),
		"XDG_STATE_HOME="+filepath.Join(xdg, "state"),
		"XDG_CACHE_HOME="+filepath.Join(xdg, "cache"))
	return cmd
}

var errTimeout = errors.New("nvim did not finish within 60 s")

// startKept starts cmd with what it writes on stdout and stderr kept, in
// the order written, or fails the test.
func startKept(t testing.TB, cmd *exec.Cmd) *strings.Builder {
	t.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return &out
}

// runNvim runs cmd, gathering its output, and kills it after 60 s.
func runNvim(t testing.TB, cmd *exec.Cmd) (output string, err error) {
	t.Helper()
	out := startKept(t, cmd)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		err = errTimeout
	}
	return out.String(), err
}

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
