package confined

import (
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// Root is a folder held open, so that many paths are opened beneath it
// without looking the folder itself up each time, as a search of a tree
// does. Its methods are safe for concurrent use.
type Root struct {
	path string
	r    *os.Root
}

// OpenRoot holds the folder path open. The folder itself is trusted: it
// is the root the rest is confined to.
func OpenRoot(path string) (*Root, error) {
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &Root{path: path, r: r}, nil
}

// Close lets the folder go.
func (r *Root) Close() error { return r.r.Close() }

// Path is the folder's path.
func (r *Root) Path() string { return r.path }

// open opens rel beneath the folder with flag. os.Root looks rel up one
// element at a time, each relative to the handle of the folder before it,
// with the object manager told not to follow a symbolic link or junction
// (OBJ_DONT_REPARSE); it follows one itself only while it stays beneath
// the root.
func (r *Root) open(rel string, flag int, perm uint32) (*os.File, error) {
	var f *os.File
	err := retry(false, func() (err error) {
		f, err = r.r.OpenFile(rel, flag, fs.FileMode(perm))
		return err
	})
	if err != nil {
		return nil, classify("open", filepath.Join(r.path, rel), err)
	}
	return f, nil
}

// OpenFD opens the file rel beneath the folder for reading and returns its
// handle, which the caller closes, for a reader that works with system
// calls alone. The caller checks it is a regular file.
func (r *Root) OpenFD(rel string) (int, error) {
	f, err := r.open(rel, readFlags, 0)
	if err != nil {
		return -1, err
	}
	defer f.Close()
	self := windows.CurrentProcess()
	var h windows.Handle
	if err := windows.DuplicateHandle(self, windows.Handle(f.Fd()), self, &h, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
		return -1, &fs.PathError{Op: "open", Path: f.Name(), Err: err}
	}
	return int(h), nil
}

// OpenDir opens the folder rel beneath the folder; rel "" is the folder
// itself.
func (r *Root) OpenDir(rel string) (*Dir, error) {
	if rel == "" {
		rel = "."
	}
	name := filepath.Join(r.path, rel)
	var sub *os.Root
	err := retry(false, func() (err error) {
		sub, err = r.r.OpenRoot(rel)
		return err
	})
	if err != nil {
		return nil, classify("open", name, err)
	}
	return newDir(sub, name)
}

// readFlags open a file for reading. Windows has no FIFOs among files, and
// a device's name opens no device beneath a folder's handle.
const readFlags = os.O_RDONLY

// fileInfo is the Info of f, whose Stat gave fi: the identity and the
// count of links come from the handle, as Stat does not give them.
func fileInfo(f *os.File, fi fs.FileInfo) (Info, error) {
	info := Info{Mode: fi.Mode(), Size: fi.Size()}
	var bi windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &bi); err != nil {
		return info, &fs.PathError{Op: "stat", Path: f.Name(), Err: err}
	}
	info.Links = uint64(bi.NumberOfLinks)
	info.ID = idOf(&bi)
	return info, nil
}

// idOf is a file's identity: its volume's serial number and its index on
// that volume.
func idOf(bi *windows.ByHandleFileInformation) ID {
	return ID{Dev: uint64(bi.VolumeSerialNumber), Ino: uint64(bi.FileIndexHigh)<<32 | uint64(bi.FileIndexLow)}
}
