package testenv

import (
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
