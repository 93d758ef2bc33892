package testenv

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// exchange swaps a and b in one step (RENAME_EXCHANGE).
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// ResetIn writes text to name in the folder dir, wherever it is named now.
func ResetIn(t testing.TB, dir *os.File, name, text string) {
	t.Helper()
	fd, err := unix.Openat(int(dir.Fd()), name, unix.O_WRONLY|unix.O_TRUNC|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
