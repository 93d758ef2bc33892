//go:build unix

package confined

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// Root is a folder held open, so that many paths are opened beneath it
// without looking the folder itself up each time, as a search of a tree
// does. Its methods are safe for concurrent use.
type Root struct {
	path string
	fd   int      // an O_PATH descriptor of the folder, for openat2; -1 when walk serves
	walk *os.Root // where openat2 is missing
}

// OpenRoot holds the folder path open. The folder itself is trusted: it
// is the root the rest is confined to.
func OpenRoot(path string) (*Root, error) {
	if useWalk() {
		r, err := os.OpenRoot(path)
		if err != nil {
			return nil, err
		}
		return &Root{path: path, fd: -1, walk: r}, nil
	}
	fd, err := openat2Root(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &Root{path: path, fd: fd}, nil
}

// Close lets the folder go.
func (r *Root) Close() error {
	if r.walk != nil {
		return r.walk.Close()
	}
	return unix.Close(r.fd)
}

// Path is the folder's path.
func (r *Root) Path() string { return r.path }

// open opens rel beneath the folder with flag. Links are followed only
// while they stay beneath it; a magic link of /proc never is.
func (r *Root) open(rel string, flag int, perm uint32) (*os.File, error) {
	path := filepath.Join(r.path, rel)
	if r.walk != nil {
		// os.Root looks rel up one element at a time, each relative to the
		// folder descriptor before it and with O_NOFOLLOW, following a
		// link itself only while it stays beneath the root: the standard
		// library's walk, kept by the Go team for exactly this use.
		//
		// A name swapped between a folder and a link while the walk opens
		// it (refused as a link) and reads the link (a folder again) gets
		// ENOTDIR or ELOOP, though it was a folder or a link at every
		// instant: a rename raced the lookup, which openat2 says with
		// EAGAIN, and looking again is safe.
		for tries := 0; ; tries++ {
			f, err := r.walk.OpenFile(rel, flag, fs.FileMode(perm))
			if err == nil {
				return f, nil
			}
			if tries < lookups && (errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ELOOP)) {
				continue
			}
			return nil, classify("open", path, err)
		}
	}
	fd, err := openat2At(r.fd, rel, flag, perm)
	if err != nil {
		return nil, classify("open", path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// OpenFD opens the file rel beneath the folder for reading, without
// blocking on a FIFO, and returns its descriptor, which the caller closes,
// for a reader that works with system calls alone. The caller checks it is
// a regular file (fstat).
func (r *Root) OpenFD(rel string) (int, error) {
	if r.walk == nil {
		fd, err := openat2At(r.fd, rel, readFlags, 0)
		if err != nil {
			return -1, classify("open", filepath.Join(r.path, rel), err)
		}
		return fd, nil
	}
	f, err := r.open(rel, readFlags, 0)
	if err != nil {
		return -1, err
	}
	defer f.Close()
	return unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
}

// OpenDir opens the folder rel beneath the folder; rel "" is the folder
// itself.
func (r *Root) OpenDir(rel string) (*Dir, error) {
	if rel == "" {
		rel = "."
	}
	f, err := r.open(rel, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, err
	}
	return &Dir{f: f, name: filepath.Join(r.path, rel)}, nil
}

// lookups is how many times a lookup that a rename raced is made again
// before its answer stands.
const lookups = 32

// readFlags open a file for reading without blocking on a FIFO or taking a
// terminal as the process's own.
const readFlags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY

// fileInfo is the Info of f, which fstat gave as fi.
func fileInfo(_ *os.File, fi fs.FileInfo) (Info, error) { return infoOf(fi), nil }

func infoOf(fi fs.FileInfo) Info {
	info := Info{Mode: fi.Mode(), Size: fi.Size()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		info.Links = uint64(st.Nlink)
		info.UID, info.GID = st.Uid, st.Gid
		info.ID = ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}
	}
	return info
}
