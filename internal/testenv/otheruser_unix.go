//go:build unix

package testenv

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
)

func skipUnlessRoot(t testing.TB, why string) {
	if os.Getuid() != 0 {
		t.Skip("running a process as another user needs root; " + why)
	}
}

func asOtherUser(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: OtherUID, Gid: OtherUID}}
}

// Mkfifo makes a FIFO at path.
func Mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
