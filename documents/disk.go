package documents

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"unsafe"

	"hashline-ls/confined"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// Disk reads and writes files directly. It is the source and sink of the
// shell verbs, of the MCP server on disk, and of editors that cannot apply
// workspace edits. Every file is opened beneath the root that holds it
// (package confined), so a link or a folder swapped in after the path was
// checked cannot carry a read or a write out of the workspace.
type Disk struct {
	// Roots are the folders files lie in; a Disk without roots refuses
	// every path.
	Roots *workspace.Roots
}

// MaxFileBytes is the largest file read: bigger ones are refused rather than
// held in memory and rendered.
const MaxFileBytes = 64 << 20

// Live reads abs from disk; a missing file is a Live without text, not an
// error.
func (d Disk) Live(_ context.Context, abs string) (Live, error) {
	b, info, err := d.read(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return Live{}, nil
	}
	if err != nil {
		return Live{}, err
	}
	return Live{Text: hashline.NewLazyText(stringOf(b)), Mode: uint32(info.Mode.Perm())}, nil
}

// LiveKnown is Live for a caller that read abs before as known: while the
// file holds known's bytes, it is compared with them a piece at a time, not
// read into a new copy, and known itself is returned, index and digest
// with it.
func (d Disk) LiveKnown(ctx context.Context, abs string, known *hashline.Text) (Live, error) {
	if known != nil {
		if info, ok := d.same(abs, known.Raw()); ok {
			return Live{Text: known, Mode: uint32(info.Mode.Perm())}, nil
		}
	}
	return d.Live(ctx, abs)
}

// stringOf views b as a string without copying a file's worth of bytes;
// b is never written again.
func stringOf(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// locate finds the root that holds abs, and abs beneath it.
func (d Disk) locate(abs string) (root, rel string, err error) {
	if d.Roots != nil {
		if root, rel, ok := d.Roots.Within(abs); ok {
			return root, rel, nil
		}
	}
	return "", "", &hashline.Error{Code: hashline.CodePathOutsideWorkspace, Details: hashline.Details{Field: "path"},
		Message: fmt.Sprintf("%s is not inside a workspace root (the roots changed since the path was checked): name a file inside one of them", abs)}
}

// read reads the regular file abs beneath its root.
func (d Disk) read(abs string) ([]byte, confined.Info, error) {
	root, rel, err := d.locate(abs)
	if err != nil {
		return nil, confined.Info{}, err
	}
	b, info, err := confined.ReadFile(root, rel, MaxFileBytes)
	if err != nil {
		return nil, info, diskError(rel, info, err)
	}
	return b, info, nil
}

// holds reports whether the file abs holds exactly text, without reading
// it whole.
func (d Disk) holds(abs, text string) bool {
	_, ok := d.same(abs, text)
	return ok
}

// same is holds, with the file's metadata when it holds text.
func (d Disk) same(abs, text string) (confined.Info, bool) {
	var info confined.Info
	ok := d.inFolder(abs, func(dir *confined.Dir, name string) bool {
		f, err := dir.Open(name, os.O_RDONLY)
		if err != nil {
			return false
		}
		defer f.Close()
		if f.Info.Size != int64(len(text)) {
			return false
		}
		same, err := f.Holds(text)
		info = f.Info
		return err == nil && same
	})
	return info, ok
}

// exists reports whether anything is at abs, beneath its root.
func (d Disk) exists(abs string) bool {
	return d.inFolder(abs, func(dir *confined.Dir, name string) bool {
		ok, _ := dir.Exists(name)
		return ok
	})
}

// inFolder opens the folder that holds abs beneath its root and asks f
// about abs's name there; a path it cannot open answers false.
func (d Disk) inFolder(abs string, f func(dir *confined.Dir, name string) bool) bool {
	root, rel, err := d.locate(abs)
	if err != nil {
		return false
	}
	dir, err := confined.OpenDir(root, filepath.Dir(rel))
	if err != nil {
		return false
	}
	defer dir.Close()
	return f(dir, filepath.Base(rel))
}

// diskError gives a failure to open or read rel its code and next step. A
// missing file stays fs.ErrNotExist, which callers take as no file.
func diskError(rel string, info confined.Info, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
	case errors.Is(err, confined.ErrOutside):
		return &hashline.Error{Code: hashline.CodePathOutsideWorkspace, Details: hashline.Details{Field: "path"},
			Message: fmt.Sprintf("%s now leads outside the workspace: a folder or link on its way changed after the path was checked, and nothing was read or written; look at what changed there, and name the file by its real path", rel)}
	case errors.Is(err, confined.ErrNotRegular):
		return &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "path"},
			Message: fmt.Sprintf("%s is not a regular file (a folder, link, FIFO, socket or device): name a regular file", rel)}
	case errors.Is(err, confined.ErrTooLarge):
		return &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "path"},
			Message: fmt.Sprintf("%s is %d bytes, over the %d MiB this server reads: edit it with another tool", rel, info.Size, MaxFileBytes>>20)}
	case errors.Is(err, confined.ErrBusy):
		return hashline.Errorf(hashline.CodeToolFailed, "another process is writing in the folder of %s and has held it for %s: retry once it has finished", rel, confined.MaxLockWait)
	}
	return fmt.Errorf("%s: %w", rel, err)
}

// readOnly is the refusal of a change to a file with no write bit: as
// root, nothing else would stop it.
func readOnly(rel string, mode fs.FileMode) error {
	return &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: "path"},
		Message: fmt.Sprintf("%s is read-only (mode %04o, no write bit), so hashline leaves it as it is: if it should change, make it writable first (%s), then retry", rel, mode.Perm(), makeWritable(rel))}
}

// makeWritable is the command that makes the read-only file rel writable.
func makeWritable(rel string) string {
	if runtime.GOOS == "windows" {
		return "attrib -r " + rel
	}
	return "chmod u+w " + rel
}
