package confined

import (
	"errors"
	"sync"

	"golang.org/x/sys/unix"
)

// useWalk says whether a Root walks instead of calling openat2.
func useWalk() bool { return forceWalk || !openat2Works() }

// openat2Root opens the folder path for openat2 to look names up in.
func openat2Root(path string) (int, error) {
	return ignoringEINTR(func() (int, error) {
		return unix.Open(path, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
}

// openat2At opens rel beneath the folder dirfd with flag, following links
// only while they stay beneath it and never a magic link of /proc.
func openat2At(dirfd int, rel string, flag int, perm uint32) (int, error) {
	how := unix.OpenHow{
		Flags:   uint64(flag | unix.O_CLOEXEC),
		Mode:    uint64(perm),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	for tries := 0; ; tries++ {
		fd, err := unix.Openat2(dirfd, rel, &how)
		// EAGAIN: a rename raced the lookup, which the kernel refuses to
		// judge; looking again is safe.
		if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) && tries < lookups {
			continue
		}
		return fd, err
	}
}

// openat2Works reports whether the kernel has openat2 (Linux 5.6) and lets
// this process call it: some sandboxes refuse system calls they do not
// know with EPERM.
var openat2Works = sync.OnceValue(func() bool {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH}
	fd, err := unix.Openat2(unix.AT_FDCWD, ".", &how)
	if err == nil {
		unix.Close(fd)
	}
	return !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EPERM)
})
