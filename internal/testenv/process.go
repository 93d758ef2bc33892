package testenv

import (
	"io"
	"net"
	"os"
	"os/exec"
	"testing"
)

// Program is a command that runs the program bin, a test program of this
// repository's built for the platform under test: under the emulator
// HASHLINE_TEST_EXEC names where one runs them (scripts/qemu-test.sh sets
// qemu-aarch64, as go test -exec runs the test programs themselves).
func Program(bin string, args ...string) *exec.Cmd {
	if emulator := os.Getenv("HASHLINE_TEST_EXEC"); emulator != "" {
		return exec.Command(emulator, append([]string{bin}, args...)...)
	}
	return exec.Command(bin, args...)
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

// ServeEach serves each connection l accepts with serve, in a goroutine of
// its own, until l is closed.
func ServeEach(l net.Listener, serve func(net.Conn)) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go serve(c)
	}
}

// Main is a TestMain for a test binary that is also a test's helper
// process (see Self and AsOtherUser): run with env set, it is the helper,
// and exits with what helper returns for env's value; run without, it
// runs the tests.
func Main(m *testing.M, env string, helper func(value string) int) {
	if v := os.Getenv(env); v != "" {
		os.Exit(helper(v))
	}
	os.Exit(m.Run())
}
