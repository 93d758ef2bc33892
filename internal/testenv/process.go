package testenv

import (
	"io"
	"os"
	"os/exec"
	"testing"
)

// Self is a command that runs this test binary again with args, and with
// env added to this process's environment: a test's helper process, which
// the test's TestMain tells apart by env.
func Self(t testing.TB, env []string, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// StartPiped starts cmd with a pipe to its stdin and one from its stdout,
// for a test that talks to a process it runs, or fails the test. Ending
// the process is the caller's: some tests close stdin, others kill it.
func StartPiped(t testing.TB, cmd *exec.Cmd) (stdin io.WriteCloser, stdout io.Reader) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err = cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return stdin, stdout
}
