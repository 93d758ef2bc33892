//go:build unix

package confined

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Dir is a folder opened beneath a root. The names its methods take are
// single path elements, looked up in this folder, never through a link:
// whatever happens to the path that led here, they act on this folder.
type Dir struct {
	f    *os.File
	name string // the folder's absolute path when opened, for messages
}

// Close releases the folder, and any lock held through it.
func (d *Dir) Close() error { return d.f.Close() }

func (d *Dir) fd() int { return int(d.f.Fd()) }

// ID is the folder's identity on its device.
func (d *Dir) ID() (ID, error) {
	fi, err := d.f.Stat()
	if err != nil {
		return ID{}, err
	}
	return infoOf(fi).ID, nil
}

// check refuses a name that is not one path element.
func (d *Dir) check(op, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return &fs.PathError{Op: op, Path: filepath.Join(d.name, name), Err: fs.ErrInvalid}
	}
	return nil
}

// Open opens the regular file name in the folder with flag (O_RDONLY or
// O_RDWR), without following a link and without blocking on a FIFO.
func (d *Dir) Open(name string, flag int) (*File, error) {
	if err := d.check("open", name); err != nil {
		return nil, err
	}
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Openat(d.fd(), name, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, classify("open", filepath.Join(d.name, name), err)
	}
	return regular(os.NewFile(uintptr(fd), filepath.Join(d.name, name)))
}

// Exists reports whether the folder holds anything called name.
func (d *Dir) Exists(name string) (bool, error) {
	if err := d.check("stat", name); err != nil {
		return false, err
	}
	var st unix.Stat_t
	err := unix.Fstatat(d.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	if errors.Is(err, unix.ENOENT) {
		return false, nil
	}
	return err == nil, err
}

// createStaged creates the new file tmp in the folder, for Stage.
func (d *Dir) createStaged(tmp string) (*os.File, error) {
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Openat(d.fd(), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	})
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), filepath.Join(d.name, tmp)), nil
}

func (d *Dir) removeStaged(tmp string) { _ = unix.Unlinkat(d.fd(), tmp, 0) }

// writeStaged writes data to the staged file f and gives it the mode perm
// and, when like is given, like's owner and group.
func (d *Dir) writeStaged(f *os.File, _, data string, perm fs.FileMode, like *Info) error {
	if _, err := f.WriteString(data); err != nil {
		return err
	}
	if like != nil {
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		if got := infoOf(fi); got.UID != like.UID || got.GID != like.GID {
			// Before the mode: a change of owner clears set-id bits.
			if err := f.Chown(int(like.UID), int(like.GID)); err != nil {
				if errors.Is(err, fs.ErrPermission) {
					return ErrOwner
				}
				return err
			}
		}
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	return f.Sync()
}

// Rename renames from to to inside the folder, replacing to.
func (d *Dir) Rename(from, to string) error {
	return d.betweenNames("rename", from, to, func() error { return unix.Renameat(d.fd(), from, d.fd(), to) })
}

// Link gives the file from a second name, to, inside the folder; it fails
// with fs.ErrExist when to exists, which no concurrent writer can race.
func (d *Dir) Link(from, to string) error {
	return d.betweenNames("link", from, to, func() error { return unix.Linkat(d.fd(), from, d.fd(), to, 0) })
}

// Remove removes the file name from the folder.
func (d *Dir) Remove(name string) error {
	if err := d.check("remove", name); err != nil {
		return err
	}
	if err := unix.Unlinkat(d.fd(), name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.name, name), Err: err}
	}
	return nil
}

// makeDir opens the folder name inside d, creating it when missing.
func (d *Dir) makeDir(name string, perm fs.FileMode) (*Dir, error) {
	if err := d.check("mkdir", name); err != nil {
		return nil, err
	}
	if err := unix.Mkdirat(d.fd(), name, uint32(perm.Perm())); err != nil && !errors.Is(err, unix.EEXIST) {
		return nil, &fs.PathError{Op: "mkdir", Path: filepath.Join(d.name, name), Err: err}
	}
	fd, err := ignoringEINTR(func() (int, error) {
		return unix.Openat(d.fd(), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, classify("open", filepath.Join(d.name, name), err)
	}
	return &Dir{f: os.NewFile(uintptr(fd), filepath.Join(d.name, name)), name: filepath.Join(d.name, name)}, nil
}

func ignoringEINTR(open func() (int, error)) (int, error) {
	for {
		fd, err := open()
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}
