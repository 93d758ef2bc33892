package documents

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"hashline-ls/hashline"
)

// Disk reads and writes files directly. It is the source and sink of the
// shell verbs and of editors that cannot apply workspace edits.
type Disk struct{}

// MaxFileBytes is the largest file read: bigger ones are refused rather than
// held in memory and rendered.
const MaxFileBytes = 64 << 20

// Live reads abs from disk.
func (Disk) Live(_ context.Context, abs string) (Live, error) {
	return ReadDisk(abs)
}

// ReadDisk reads abs; a missing file is a Live without text, not an error.
func ReadDisk(abs string) (Live, error) {
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return Live{}, nil
	}
	if err != nil {
		return Live{}, fmt.Errorf("stat %s: %w", abs, err)
	}
	if !fi.Mode().IsRegular() {
		return Live{}, hashline.Errorf(hashline.CodeInvalidArgument, "%s is not a regular file: name a file, not a folder or device", filepath.Base(abs))
	}
	if fi.Size() > MaxFileBytes {
		return Live{}, hashline.Errorf(hashline.CodeInvalidArgument, "%s is %d bytes, over the %d MiB this server reads: edit it with another tool", filepath.Base(abs), fi.Size(), MaxFileBytes>>20)
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return Live{}, fmt.Errorf("read %s: %w", abs, err)
	}
	return Live{Text: hashline.NewText(string(b)), Mode: uint32(fi.Mode().Perm())}, nil
}

// Apply writes cs to disk, all or nothing. Each file is replaced
// atomically; the files of a change set are all staged before the first
// rename, and when a later step fails the files already changed get their
// old bytes back.
func (Disk) Apply(_ context.Context, cs ChangeSet) (Landed, error) {
	// Stage every modified file first: most failures (a full disk, a
	// read-only folder) then happen before any file has changed.
	staged, err := stageModified(cs)
	defer func() {
		for _, tmp := range staged {
			os.Remove(tmp)
		}
	}()
	if err != nil {
		return nil, err
	}
	// The change was proven against the text read before; a file that has
	// changed since (another program wrote it) must not be overwritten.
	for _, fc := range cs.Files {
		if fc.Old != nil && fc.Old.Text != nil && !unchangedOnDisk(fc) {
			return nil, fmt.Errorf("%w: %s changed on disk since it was read", ErrNotApplied, fc.Path)
		}
	}
	var undo []func()
	fail := func(err error) (Landed, error) {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		return nil, err
	}
	for i, fc := range cs.Files {
		switch fc.Kind {
		case Modify:
			prev := fc.Old.Text.Raw()
			if err := renameFile(staged[i], fc.Path); err != nil {
				return fail(fmt.Errorf("replace %s: %w", fc.Path, err))
			}
			delete(staged, i)
			undo = append(undo, func() { _ = WriteFileAtomic(fc.Path, []byte(prev), 0) })
		case Create:
			if err := os.MkdirAll(filepath.Dir(fc.Path), 0o755); err != nil {
				return fail(fmt.Errorf("create folder for %s: %w", fc.Path, err))
			}
			if err := CreateFileAtomic(fc.Path, []byte(fc.New.Raw()), 0o644); err != nil {
				return fail(err)
			}
			undo = append(undo, func() { _ = os.Remove(fc.Path) })
		case Rename:
			mode := fs.FileMode(fc.Old.Mode)
			if err := os.MkdirAll(filepath.Dir(fc.NewPath), 0o755); err != nil {
				return fail(fmt.Errorf("create folder for %s: %w", fc.NewPath, err))
			}
			if err := CreateFileAtomic(fc.NewPath, []byte(fc.New.Raw()), mode); err != nil {
				return fail(err)
			}
			if err := os.Remove(fc.Path); err != nil {
				_ = os.Remove(fc.NewPath)
				return fail(fmt.Errorf("remove %s after copying it to %s: %w", fc.Path, fc.NewPath, err))
			}
			prev := fc.Old.Text.Raw()
			undo = append(undo, func() {
				_ = CreateFileAtomic(fc.Path, []byte(prev), mode)
				_ = os.Remove(fc.NewPath)
			})
		case Delete:
			if err := os.Remove(fc.Path); err != nil {
				return fail(fmt.Errorf("delete %s: %w", fc.Path, err))
			}
			prev, mode := fc.Old.Text.Raw(), fs.FileMode(fc.Old.Mode)
			undo = append(undo, func() { _ = CreateFileAtomic(fc.Path, []byte(prev), mode) })
		}
	}
	return NewLanding(cs).ReadBack(), nil
}

// stageModified stages the new text of every modified file, keyed by its
// index in cs; on failure it returns those staged so far.
func stageModified(cs ChangeSet) (map[int]string, error) {
	staged := map[int]string{}
	for i, fc := range cs.Files {
		if fc.Kind != Modify {
			continue
		}
		perm := fs.FileMode(0o644)
		if fi, err := os.Stat(fc.Path); err == nil {
			perm = fi.Mode().Perm()
		}
		tmp, err := stage(fc.Path, []byte(fc.New.Raw()), perm)
		if err != nil {
			return staged, err
		}
		staged[i] = tmp
	}
	return staged, nil
}

// unchangedOnDisk reports whether the disk still holds the text fc was
// proven against.
func unchangedOnDisk(fc FileChange) bool {
	b, err := os.ReadFile(fc.Path)
	return err == nil && string(b) == fc.Old.Text.Raw()
}

// renameFile is os.Rename; tests replace it to fail a rename midway.
var renameFile = os.Rename

// WriteFileAtomic replaces path with data through a temporary file in the
// same folder and a rename, so a reader sees the old bytes or the new ones,
// never a mix, and a crash leaves the old file whole. The file keeps its
// permission bits; perm applies only when it does not exist yet (0 means
// 0644).
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	} else if perm == 0 {
		perm = 0o644
	}
	tmp, err := stage(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("replace %s: %w", path, err)
	}
	return nil
}

// CreateFileAtomic writes a new file at path and fails if one exists: the
// staged file is linked into place, which no concurrent writer can race.
func CreateFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if perm == 0 {
		perm = 0o644
	}
	tmp, err := stage(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return hashline.Errorf(hashline.CodeInvalidArgument, "%s already exists: choose another name, or delete it first", filepath.Base(path))
		}
		return fmt.Errorf("create %s: %w", path, err)
	}
	return nil
}

// stage writes data to a new temporary file beside path and syncs it.
func stage(path string, data []byte, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".hashline-*")
	if err != nil {
		return "", fmt.Errorf("stage %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("stage %s: %w", path, werr)
	}
	return tmp, nil
}
