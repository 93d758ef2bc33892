// The registry runs in a process group of its own, which is Unix's.

//go:build unix

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"hashline-ls/commands"
	"hashline-ls/internal/testenv"
)

// TestNPX installs hashline-ls the way a terminal agent's one-line setup
// does, `npx -y hashline-ls@VERSION mcp`, from a real npm registry
// (verdaccio) started on loopback with the packages `make npm` wrote
// published to it, and drives what npx started with the TypeScript SDK's
// client: the five tools, a read, an edit and a stale edit.
func TestNPX(t *testing.T) {
	needNPM(t, "@modelcontextprotocol/sdk/package.json")
	root, _ := filepath.Abs("..")
	verdaccio := filepath.Join(root, ".cache/verdaccio/node_modules/verdaccio/bin/verdaccio")
	if _, err := os.Stat(verdaccio); err != nil {
		testenv.NotInstalled(t, "verdaccio", "run bash e2e/scripts/install-verdaccio.sh")
	}
	tarballs, _ := filepath.Glob(filepath.Join(root, "dist/npm/*.tgz"))
	if len(tarballs) == 0 {
		testenv.NotInstalled(t, "the npm packages in dist/npm", "run make npm")
	}
	if _, err := exec.LookPath("npx"); err != nil {
		testenv.NotInstalled(t, "npx", "install Node 20 with npm")
	}

	base := t.TempDir()
	registry := startRegistry(t, verdaccio, base)
	npmrc := filepath.Join(base, "npmrc")
	token := addRegistryUser(t, registry)
	host := strings.TrimPrefix(registry, "http:")
	if err := os.WriteFile(npmrc, fmt.Appendf(nil, "registry=%s\n%s:_authToken=%s\n", registry, host, token), 0o600); err != nil {
		t.Fatal(err)
	}
	// A fresh npm cache: npx must fetch everything from this registry.
	env := []string{
		"npm_config_userconfig=" + npmrc,
		"npm_config_registry=" + registry,
		"npm_config_cache=" + filepath.Join(base, "npm-cache"),
		"npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false",
	}
	// The platform packages first, so the launcher's optional dependencies
	// are there when it is published.
	for _, platformFirst := range []bool{true, false} {
		for _, tgz := range tarballs {
			if strings.HasPrefix(filepath.Base(tgz), "hashline-ls-"+commands.Version) == platformFirst {
				continue
			}
			cmd := exec.Command("npm", "publish", tgz, "--access", "public")
			cmd.Env = append(os.Environ(), env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("npm publish %s: %v\n%s", filepath.Base(tgz), err, out)
			}
		}
	}
	t.Logf("published %d packages to %s", len(tarballs), registry)

	ws := writeFiles(t, map[string]string{"greet.py": greetPy})
	wantRead := shellVerb(t, hostServer(t, root), ws, "read", "greet.py")
	report := runTSClient(t, "npx", []string{"-y", "hashline-ls@" + commands.Version}, env, ws)
	checkTSSession(t, report, ws, wantRead)

	// What ran is the binary npm installed from this platform's package,
	// and npm installed no other platform's.
	installed, _ := filepath.Glob(filepath.Join(base, "npm-cache/_npx/*/node_modules/@hashline-ls/*"))
	want := fmt.Sprintf("%s-%s", runtime.GOOS, map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH])
	if len(installed) != 1 || filepath.Base(installed[0]) != want {
		t.Fatalf("npx installed %v, want only @hashline-ls/%s", installed, want)
	}
	got, err := os.ReadFile(filepath.Join(installed[0], "bin/hashline-ls"))
	if err != nil {
		t.Fatal(err)
	}
	if built, _ := os.ReadFile(hostServer(t, root)); !bytes.Equal(got, built) {
		t.Fatalf("the binary npx installed is not the one make servers built")
	}
	t.Logf("npx ran @hashline-ls/%s@%s (%d bytes) through the hashline-ls launcher", want, commands.Version, len(got))
}

// hostServer is the binary `make servers` built for this machine, which
// the host's platform package carries.
func hostServer(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(root, "dist/servers", runtime.GOOS+"_"+runtime.GOARCH, "hashline-ls")
	if _, err := os.Stat(bin); err != nil {
		testenv.NotInstalled(t, bin, "run make servers")
	}
	return bin
}

// startRegistry starts verdaccio on a free loopback port with its storage
// in dir and no uplink (nothing is fetched from elsewhere), and returns
// its URL once it answers. It is stopped when the test ends.
func startRegistry(t *testing.T, verdaccio, dir string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	config := filepath.Join(dir, "verdaccio.yaml")
	yaml := fmt.Sprintf(`storage: %s
auth:
  htpasswd:
    file: %s
max_body_size: 200mb
uplinks: {}
packages:
  '**':
    access: $all
    publish: $authenticated
log: { type: stdout, format: pretty, level: warn }
`, filepath.Join(dir, "storage"), filepath.Join(dir, "htpasswd"))
	if err := os.WriteFile(config, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile, err := os.Create(filepath.Join(dir, "verdaccio.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", verdaccio, "--config", config, "--listen", addr)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		cmd.Wait()
		logFile.Close()
	})
	url := "http://" + addr + "/"
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(url + "-/ping")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logFile.Name())
			t.Fatalf("verdaccio did not answer on %s within 60 s: %v\n%s", addr, err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// addRegistryUser signs a user up with the registry, as npm adduser does,
// and returns the token that publishes.
func addRegistryUser(t *testing.T, registry string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": "hashline", "password": "test-only-password", "type": "user", "roles": []string{}})
	req, _ := http.NewRequest(http.MethodPut, registry+"-/user/org.couchdb.user:hashline", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var r struct {
		Token string `json:"token"`
	}
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &r) != nil || r.Token == "" {
		t.Fatalf("adding a registry user: %s\n%s", resp.Status, b)
	}
	return r.Token
}
