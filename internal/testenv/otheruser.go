package testenv

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// OtherUID is the user a test's stand-in process runs as: nobody.
const OtherUID = 65534

// AsOtherUser returns a command that runs this test binary again as
// OtherUID with env as its whole environment, from a copy in dir, which
// that user must be able to enter. The test's TestMain tells the run apart
// by env. Starting a process as another user needs root (on Windows, the
// other user's password); without it the test is skipped, and why says
// what then covers the check instead.
func AsOtherUser(t testing.TB, dir, why string, env ...string) *exec.Cmd {
	t.Helper()
	skipUnlessRoot(t, why)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "as-other-user")
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := Program(bin)
	cmd.Env = env
	asOtherUser(cmd)
	return cmd
}

// DialAndReport is what a stand-in process does: it dials the Unix socket
// at path, writes hello, and prints what came back, or that the server
// closed the connection without a word, for the test to read on stdout.
// It returns the process's exit code.
func DialAndReport(path string, hello []byte) int {
	c, err := net.Dial("unix", path)
	if err != nil {
		fmt.Printf("dial: %v\n", err)
		return 1
	}
	defer c.Close()
	c.Write(hello)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(c)
	switch {
	case len(b) > 0:
		fmt.Printf("received %q\n", b)
	case err == nil || errors.Is(err, syscall.ECONNRESET):
		fmt.Println("closed by the server")
	default:
		fmt.Printf("read: %v\n", err)
	}
	return 0
}
