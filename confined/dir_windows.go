package confined

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// Dir is a folder opened beneath a root. The names its methods take are
// single path elements, looked up in this folder: whatever happens to the
// path that led here, they act on this folder.
type Dir struct {
	f    *os.File // the folder: its identity and its listing
	root *os.Root // the folder again, for the names looked up in it
	name string   // the folder's absolute path when opened, for messages
	// lockf is the open lock file while Lock holds the folder; tryLock
	// sets it and unlock clears it, both on the goroutine that called
	// Lock.
	lockf *os.File
}

func newDir(root *os.Root, name string) (*Dir, error) {
	f, err := root.Open(".")
	if err != nil {
		root.Close()
		return nil, classify("open", name, err)
	}
	return &Dir{f: f, root: root, name: name}, nil
}

// Close releases the folder, and any lock held through it.
func (d *Dir) Close() error {
	if d.lockf != nil {
		d.unlock()
	}
	return errors.Join(d.f.Close(), d.root.Close())
}

func (d *Dir) handle() windows.Handle { return windows.Handle(d.f.Fd()) }

// ID is the folder's identity on its volume.
func (d *Dir) ID() (ID, error) {
	var bi windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(d.handle(), &bi); err != nil {
		return ID{}, &fs.PathError{Op: "stat", Path: d.name, Err: err}
	}
	return idOf(&bi), nil
}

// check refuses a name that is not one plain path element: besides "/"
// and "..", Windows reads "\" as a separator, "name:stream" as a file's
// alternate data stream, CON, NUL and the like as devices, and drops a
// trailing dot or space, so a file so named could not be opened again by
// the name it was given.
func (d *Dir) check(op, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\:`) ||
		!filepath.IsLocal(name) || strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return &fs.PathError{Op: op, Path: filepath.Join(d.name, name), Err: fs.ErrInvalid}
	}
	return nil
}

// isLink reports whether name in the folder is a symbolic link or a
// junction, which the methods here refuse where Unix's O_NOFOLLOW would.
// The check is by name, but os.Root would follow what is there only within
// this folder, so a link swapped in after it cannot lead out.
func (d *Dir) isLink(name string) bool {
	fi, err := d.root.Lstat(name)
	return err == nil && fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0
}

// Open opens the regular file name in the folder with flag (O_RDONLY or
// O_RDWR), sharing it for reading, writing and deletion as Unix does.
func (d *Dir) Open(name string, flag int) (*File, error) {
	if err := d.check("open", name); err != nil {
		return nil, err
	}
	path := filepath.Join(d.name, name)
	if d.isLink(name) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	var f *os.File
	err := retry(false, func() (err error) {
		f, err = d.root.OpenFile(name, flag, 0)
		return err
	})
	if err != nil {
		return nil, classify("open", path, err)
	}
	return regular(f)
}

// Exists reports whether the folder holds anything called name.
func (d *Dir) Exists(name string) (bool, error) {
	if err := d.check("stat", name); err != nil {
		return false, err
	}
	_, err := d.root.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// createStaged creates the new file tmp in the folder, for Stage.
func (d *Dir) createStaged(tmp string) (f *os.File, err error) {
	err = retry(false, func() error {
		f, err = d.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		return err
	})
	return f, err
}

func (d *Dir) removeStaged(tmp string) { _ = retry(true, func() error { return d.root.Remove(tmp) }) }

// writeStaged writes data to the staged file f, named after name, and
// gives it the mode perm, which on Windows is only whether it is
// read-only, and, when like is given, what the file now called name has
// beyond its bytes, as ReplaceFileW would keep it (keep_windows.go).
func (d *Dir) writeStaged(f *os.File, name, data string, perm fs.FileMode, like *Info) error {
	if _, err := f.WriteString(data); err != nil {
		return err
	}
	if like != nil {
		if err := d.keep(name, filepath.Base(f.Name())); err != nil {
			return err
		}
	}
	// The file is writable as created; the mode's only mark on Windows is
	// the read-only attribute.
	if perm&0o200 == 0 {
		if err := f.Chmod(perm); err != nil {
			return err
		}
	}
	return f.Sync()
}

// Rename renames from to to inside the folder, replacing to.
func (d *Dir) Rename(from, to string) error {
	return d.betweenNames("rename", from, to, func() error {
		return inner(retry(true, func() error { return d.root.Rename(from, to) }))
	})
}

// Link gives the file from a second name, to, inside the folder; it fails
// with fs.ErrExist when to exists, which no concurrent writer can race.
// Where the volume has no hard links (FAT, exFAT), from is renamed to to
// instead, which fails alike when to exists: from is then gone.
func (d *Dir) Link(from, to string) error {
	return d.betweenNames("link", from, to, func() error {
		err := retry(true, func() error { return d.root.Link(from, to) })
		if errors.Is(err, windows.ERROR_INVALID_FUNCTION) || errors.Is(err, windows.ERROR_NOT_SUPPORTED) {
			err = retry(true, func() error { return d.renameNoReplace(from, to) })
		}
		return inner(err)
	})
}

// Remove removes the file name from the folder.
func (d *Dir) Remove(name string) error {
	if err := d.check("remove", name); err != nil {
		return err
	}
	if err := retry(true, func() error { return d.root.Remove(name) }); err != nil {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.name, name), Err: inner(err)}
	}
	return nil
}

// makeDir opens the folder name inside d, creating it when missing.
func (d *Dir) makeDir(name string, perm fs.FileMode) (*Dir, error) {
	if err := d.check("mkdir", name); err != nil {
		return nil, err
	}
	path := filepath.Join(d.name, name)
	if err := d.root.Mkdir(name, perm); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, &fs.PathError{Op: "mkdir", Path: path, Err: inner(err)}
	}
	if d.isLink(name) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	sub, err := d.root.OpenRoot(name)
	if err != nil {
		return nil, classify("open", path, err)
	}
	return newDir(sub, path)
}

// inner is the system's error inside os.Root's.
func inner(err error) error {
	var le *os.LinkError
	var pe *fs.PathError
	switch {
	case errors.As(err, &le):
		return le.Err
	case errors.As(err, &pe):
		return pe.Err
	}
	return err
}
