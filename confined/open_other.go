//go:build unix && !linux

package confined

import "golang.org/x/sys/unix"

// useWalk says whether a Root walks: always, where there is no openat2.
func useWalk() bool { return true }

func openat2Root(string) (int, error)                 { return -1, unix.ENOSYS }
func openat2At(int, string, int, uint32) (int, error) { return -1, unix.ENOSYS }
