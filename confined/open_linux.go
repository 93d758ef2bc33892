package confined

import (
	"errors"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
)

// openBeneath opens rel beneath root with flag. Links are followed only
// while they stay beneath root; a magic link of /proc never is.
func openBeneath(root, rel string, flag int, perm uint32) (*os.File, error) {
	if forceWalk || !openat2Works() {
		return walkBeneath(root, rel, flag, perm)
	}
	rfd, err := ignoringEINTR(func() (int, error) {
		return unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: root, Err: err}
	}
	defer unix.Close(rfd)
	how := unix.OpenHow{
		Flags:   uint64(flag | unix.O_CLOEXEC),
		Mode:    uint64(perm),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	path := filepath.Join(root, rel)
	for tries := 0; ; tries++ {
		fd, err := unix.Openat2(rfd, rel, &how)
		// EAGAIN: a rename raced the lookup, which the kernel refuses
		// to judge; looking again is safe.
		if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) && tries < 32 {
			continue
		}
		if err != nil {
			return nil, classify("open", path, err)
		}
		return os.NewFile(uintptr(fd), path), nil
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
