package testenv

import (
	"errors"
	"os/exec"
	"testing"
)

func skipUnlessRoot(t testing.TB, why string) {
	t.Skip("running a process as another user on Windows needs that user's password (CreateProcessWithLogonW); " + why)
}

func asOtherUser(*exec.Cmd) {}

// Mkfifo fails: Windows has no FIFOs among files.
func Mkfifo(string) error { return errors.New("no FIFOs among files on Windows") }
