// Package confined opens and changes files beneath a root folder without
// following links out of it, however the tree changes meanwhile
// (docs/design.md §7.1). A name is looked up once, relative to a descriptor already open
// beneath the root; everything after works on what was opened: its metadata
// from fstat, a new file staged and renamed inside the opened folder. Only
// regular files are read, and they are opened without blocking, so a FIFO
// or a device put in a file's place is refused instead of hanging the
// reader. The package also holds the one lock hashline processes take
// across processes (lock.go).
//
// docs/design.md §7 describes the disk path under races.
package confined

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unsafe"
)

var (
	// ErrOutside is a name that leads out of its root: a link, or a folder
	// swapped for one, since the name was checked.
	ErrOutside = errors.New("leads outside its root")
	// ErrNotRegular is a name that holds no regular file: a folder, a FIFO,
	// a socket, a device or a link.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is a file over the size its reader takes.
	ErrTooLarge = errors.New("over the size limit")
)

// Info is a file's metadata, as fstat saw it on the opened descriptor.
type Info struct {
	Mode     fs.FileMode
	Size     int64
	Links    uint64
	UID, GID uint32
	ID       ID
}

// ID names a file on its device: two descriptors with one ID are one file.
type ID struct{ Dev, Ino uint64 }

// File is a regular file opened beneath a root.
type File struct {
	*os.File
	Info Info
}

// ReadFile reads the regular file rel beneath root, refusing one larger
// than limit bytes.
func ReadFile(root, rel string, limit int64) ([]byte, Info, error) {
	r, err := OpenRoot(root)
	if err != nil {
		return nil, Info{}, err
	}
	defer r.Close()
	return r.ReadFile(rel, limit)
}

// ReadRegular reads a file a user named directly, not beneath any root (a
// shell verb's --ops FILE), under the same rules: a regular file only,
// opened without blocking, refused over limit bytes.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, readFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rf, err := regular(f)
	if err != nil {
		return nil, err
	}
	return rf.ReadAll(limit)
}

// OpenDir opens the folder rel beneath root; rel "" is root itself.
func OpenDir(root, rel string) (*Dir, error) {
	r, err := OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.OpenDir(rel)
}

// MakeDir opens the folder rel beneath root, creating the missing folders
// on its way one at a time, each inside the one opened before it.
func MakeDir(root, rel string, perm fs.FileMode) (*Dir, error) {
	r, err := OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.MakeDir(rel, perm)
}

// ReadFile reads the regular file rel beneath the folder, refusing one
// larger than limit bytes.
func (r *Root) ReadFile(rel string, limit int64) ([]byte, Info, error) {
	f, err := r.open(rel, readFlags, 0)
	if err != nil {
		return nil, Info{}, err
	}
	defer f.Close()
	rf, err := regular(f)
	if err != nil {
		return nil, Info{}, err
	}
	b, err := rf.ReadAll(limit)
	return b, rf.Info, err
}

// MakeDir opens the folder rel beneath the folder, creating the missing
// folders on its way one at a time, each inside the one opened before it.
func (r *Root) MakeDir(rel string, perm fs.FileMode) (*Dir, error) {
	d, err := r.OpenDir("")
	if err != nil {
		return nil, err
	}
	for _, name := range strings.Split(filepath.ToSlash(rel), "/") {
		if name == "" || name == "." {
			continue
		}
		next, err := d.makeDir(name, perm)
		d.Close()
		if err != nil {
			return nil, err
		}
		d = next
	}
	return d, nil
}

// regular checks that f, just opened, is a regular file, and closes it when
// it is not.
func regular(f *os.File) (*File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: f.Name(), Err: ErrNotRegular}
	}
	info, err := fileInfo(f, fi)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &File{File: f, Info: info}, nil
}

// ReadAll reads the file from its start, refusing more than limit bytes.
func (f *File) ReadAll(limit int64) ([]byte, error) {
	if f.Info.Size > limit {
		return nil, &fs.PathError{Op: "read", Path: f.Name(), Err: ErrTooLarge}
	}
	// One byte more than fstat said, so a file that grew is seen growing.
	b := make([]byte, 0, f.Info.Size+1)
	r := io.NewSectionReader(f, 0, limit+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(b)) > limit {
		return nil, &fs.PathError{Op: "read", Path: f.Name(), Err: ErrTooLarge}
	}
	return b, nil
}

// Holds reports whether the file's bytes are exactly text, reading it a
// piece at a time rather than whole.
func (f *File) Holds(text string) (bool, error) {
	buf := make([]byte, 64<<10)
	off := int64(0)
	for {
		n, err := f.ReadAt(buf, off)
		if n > len(text) || string(buf[:n]) != text[:n] {
			return false, nil
		}
		text, off = text[n:], off+int64(n)
		if err == io.EOF {
			return text == "", nil
		}
		if err != nil {
			return false, err
		}
	}
}

// Overwrite replaces the file's bytes with text in place, keeping its
// inode, and so every hard link to it, its owner and its mode.
func (f *File) Overwrite(text string) error {
	if _, err := f.WriteAt(bytesOf(text), 0); err != nil {
		return err
	}
	if err := f.Truncate(int64(len(text))); err != nil {
		return err
	}
	return f.Sync()
}

// bytesOf views s as bytes, for writes, which only read them.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// classify turns the errors of a lookup beneath a root into this package's:
// a lookup that would leave the root is ErrOutside, a link where a file
// was expected is ErrNotRegular.
func classify(op, path string, err error) error {
	switch {
	case errors.Is(err, syscall.EXDEV):
		err = ErrOutside
	case errors.Is(err, syscall.ELOOP):
		err = ErrNotRegular
	case err != nil && strings.Contains(err.Error(), "escapes from parent"):
		// os.Root's walk says so in words only.
		err = ErrOutside
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}

func (d *Dir) String() string { return fmt.Sprintf("folder %s", d.name) }

// Read reads the regular file name in the folder, refusing one larger than
// limit bytes.
func (d *Dir) Read(name string, limit int64) ([]byte, Info, error) {
	f, err := d.Open(name, os.O_RDONLY)
	if err != nil {
		return nil, Info{}, err
	}
	defer f.Close()
	b, err := f.ReadAll(limit)
	return b, f.Info, err
}

// ErrOwner is a staged file that cannot be given the owner and group of
// the file it replaces (on Windows: its owner, or its alternate data
// streams): only a write in place keeps them.
var ErrOwner = errors.New("cannot keep the file's owner and group")

// Stage writes data to a new file in the folder, named after name, with
// the mode perm and, when like is given, like's owner and group (on
// Windows: what the file now called name has beyond its bytes, as
// ReplaceFileW keeps it); it returns the new file's name. When the owner
// or group cannot be given (only root, or an administrator, can give a
// file away), nothing is left and the error is ErrOwner.
func (d *Dir) Stage(name, data string, perm fs.FileMode, like *Info) (string, error) {
	if err := d.check("stage", name); err != nil {
		return "", err
	}
	tmp := fmt.Sprintf(".%s.hashline-%x", name, rand.Uint64())
	f, err := d.createStaged(tmp)
	if err != nil {
		return "", classify("stage", filepath.Join(d.name, tmp), err)
	}
	werr := d.writeStaged(f, name, data, perm, like)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		d.removeStaged(tmp)
		if errors.Is(werr, ErrOwner) {
			return "", werr
		}
		return "", &fs.PathError{Op: "stage", Path: filepath.Join(d.name, tmp), Err: werr}
	}
	return tmp, nil
}

// Path is the absolute path the folder had when it was opened.
func (d *Dir) Path() string { return d.name }

// Entries lists the folder, sorted by name, as os.ReadDir does. What could
// be listed comes back with the error that stopped the listing.
func (d *Dir) Entries() ([]fs.DirEntry, error) {
	es, err := d.f.ReadDir(-1)
	slices.SortFunc(es, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return es, err
}

// betweenNames checks from and to as names in d for op, then runs move,
// and reports its error as op's from the one name to the other: Rename
// and Link on every system.
func (d *Dir) betweenNames(op, from, to string, move func() error) error {
	if err := errors.Join(d.check(op, from), d.check(op, to)); err != nil {
		return err
	}
	if err := move(); err != nil {
		return &os.LinkError{Op: op, Old: filepath.Join(d.name, from), New: filepath.Join(d.name, to), Err: err}
	}
	return nil
}
