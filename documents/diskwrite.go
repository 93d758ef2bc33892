package documents

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"hashline-ls/confined"
	"hashline-ls/hashline"
)

// Apply writes cs to disk, all or nothing (docs/design.md §6.1, docs/design.md §7). Every folder
// is opened beneath its root; from the compare of each file with the text
// it was proven against to its replacement, the folders are locked across
// processes, so of two processes holding one tag only one lands. A file is
// replaced atomically (a staged file renamed over it) unless it has other
// hard links, or an owner a rename would change: then it is written in
// place, which keeps them. Every file is staged before the first one
// changes, and when a later step fails the files already changed get their
// old bytes back.
func (d Disk) Apply(ctx context.Context, cs ChangeSet) (Landed, error) {
	tx := &diskTx{disk: d}
	defer tx.close()
	if err := tx.open(cs); err != nil {
		return nil, err
	}
	unlock, err := confined.Lock(ctx, tx.locked()...)
	if err != nil {
		return nil, diskError(cs.Files[0].Path, confined.Info{}, err)
	}
	defer unlock()
	if err := tx.check(); err != nil {
		return nil, err
	}
	// Most failures (a full disk, a read-only folder) then happen before
	// any file has changed.
	if err := tx.stage(); err != nil {
		return nil, err
	}
	for _, f := range tx.files {
		if err := tx.commit(f); err != nil {
			tx.rollback()
			return nil, err
		}
	}
	return NewLanding(cs).ReadBack(d), nil
}

// diskTx is one change set on its way to the disk.
type diskTx struct {
	disk  Disk
	files []*txFile
	dirs  []*confined.Dir // every folder opened, closed with the tx
	undo  []func()        // in the order the changes were made
}

// txFile is one file of the change set: its folder, opened beneath its
// root, and the file as the check found it.
type txFile struct {
	fc        FileChange
	root, rel string
	dir       *confined.Dir // nil for a Create: its folder may not exist yet
	base      string
	info      confined.Info  // as checked, when the file existed
	inPlace   *confined.File // open for writing, when written in place
	staged    string         // the staged new text, in dir
}

// old is the text the file was proven against, when known.
func (f *txFile) old() (string, bool) {
	if f.fc.Old == nil || f.fc.Old.Text == nil {
		return "", false
	}
	return f.fc.Old.Text.Raw(), true
}

// renameFile renames inside one folder; tests replace it to fail a rename
// midway.
var renameFile = func(d *confined.Dir, from, to string) error { return d.Rename(from, to) }

func (tx *diskTx) close() {
	for _, f := range tx.files {
		if f.staged != "" {
			_ = f.dir.Remove(f.staged)
		}
		if f.inPlace != nil {
			f.inPlace.Close()
		}
	}
	for _, d := range tx.dirs {
		d.Close()
	}
}

// open opens the folder of every file the change set has to find there.
func (tx *diskTx) open(cs ChangeSet) error {
	for _, fc := range cs.Files {
		root, rel, err := tx.disk.locate(fc.Path)
		if err != nil {
			return err
		}
		f := &txFile{fc: fc, root: root, rel: rel, base: filepath.Base(rel)}
		tx.files = append(tx.files, f)
		if fc.Kind == Create {
			continue
		}
		dir, err := confined.OpenDir(root, filepath.Dir(rel))
		if err != nil {
			return fmt.Errorf("stage %s: %w", fc.Path, diskError(rel, confined.Info{}, err))
		}
		tx.dirs = append(tx.dirs, dir)
		f.dir = dir
	}
	return nil
}

// locked are the folders of the files that are compared and then replaced.
func (tx *diskTx) locked() []*confined.Dir {
	var dirs []*confined.Dir
	for _, f := range tx.files {
		if f.dir != nil {
			dirs = append(dirs, f.dir)
		}
	}
	return dirs
}

// check finds each existing file as it was proven against; a file changed
// since (another program or process wrote it) must not be overwritten.
func (tx *diskTx) check() error {
	for _, f := range tx.files {
		if f.fc.Kind == Create {
			continue
		}
		file, err := f.dir.Open(f.base, os.O_RDONLY)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: %s is gone from the disk since it was read", ErrNotApplied, f.fc.Path)
		}
		if err != nil {
			return diskError(f.rel, confined.Info{}, err)
		}
		f.info = file.Info
		same := true
		if old, ok := f.old(); ok {
			same, err = file.Holds(old)
		}
		file.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", f.fc.Path, err)
		}
		if f.info.Mode.Perm()&0o222 == 0 {
			return readOnly(f.rel, f.info.Mode)
		}
		if !same {
			return fmt.Errorf("%w: %s changed on disk since it was read", ErrNotApplied, f.fc.Path)
		}
	}
	return nil
}

// stage writes the new text of every modified file beside it, or opens the
// file for a write in place when a rename would lose its other links or
// its owner.
func (tx *diskTx) stage() error {
	for _, f := range tx.files {
		if f.fc.Kind != Modify {
			continue
		}
		var err error
		if f.info.Links <= 1 {
			f.staged, err = f.dir.Stage(f.base, f.fc.New.Raw(), keptMode(f.info.Mode), &f.info)
			if err == nil {
				continue
			}
			if !errors.Is(err, confined.ErrOwner) {
				return fmt.Errorf("stage %s: %w", f.fc.Path, err)
			}
		}
		if err := f.openInPlace(); err != nil {
			return err
		}
	}
	return nil
}

// openInPlace opens the file for writing, and checks it is the file that
// was compared.
func (f *txFile) openInPlace() error {
	file, err := f.dir.Open(f.base, os.O_RDWR)
	if err != nil {
		return fmt.Errorf("open %s to write it in place: %w", f.fc.Path, diskError(f.rel, confined.Info{}, err))
	}
	if file.Info.ID != f.info.ID {
		file.Close()
		return fmt.Errorf("%w: %s was replaced on disk since it was read", ErrNotApplied, f.fc.Path)
	}
	f.inPlace = file
	return nil
}

// keptMode is the part of a file's mode a replacement keeps.
func keptMode(m fs.FileMode) fs.FileMode {
	return m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

// commit makes one file's change and notes how to undo it.
func (tx *diskTx) commit(f *txFile) error {
	switch f.fc.Kind {
	case Modify:
		return tx.replace(f)
	case Create:
		dir, err := tx.makeDir(f.root, f.rel)
		if err != nil {
			return err
		}
		if err := tx.create(dir, f.base, f.fc.New.Raw(), 0o644, nil); err != nil {
			return err
		}
		tx.undo = append(tx.undo, func() { _ = dir.Remove(f.base) })
	case Rename:
		return tx.move(f)
	case Delete:
		if err := f.dir.Remove(f.base); err != nil {
			return fmt.Errorf("delete %s: %w", f.fc.Path, err)
		}
		tx.undo = append(tx.undo, func() { tx.restore(f.dir, f) })
	}
	return nil
}

// replace puts a modified file's new text in place.
func (tx *diskTx) replace(f *txFile) error {
	old, known := f.old()
	if f.inPlace != nil {
		// Undo first: a write that fails midway has already changed bytes.
		if known {
			tx.undo = append(tx.undo, func() { _ = f.inPlace.Overwrite(old) })
		}
		if err := f.inPlace.Overwrite(f.fc.New.Raw()); err != nil {
			return fmt.Errorf("write %s in place: %w", f.fc.Path, err)
		}
		return nil
	}
	if err := renameFile(f.dir, f.staged, f.base); err != nil {
		return fmt.Errorf("replace %s: %w", f.fc.Path, err)
	}
	f.staged = ""
	if known {
		tx.undo = append(tx.undo, func() { putBack(f.dir, f.base, old, f.info) })
	}
	return nil
}

// putBack replaces name in dir with text again, as it was before: same
// mode, and the same owner where the process can give it.
func putBack(dir *confined.Dir, name, text string, info confined.Info) {
	tmp, err := dir.Stage(name, text, keptMode(info.Mode), &info)
	if errors.Is(err, confined.ErrOwner) {
		tmp, err = dir.Stage(name, text, keptMode(info.Mode), nil)
	}
	if err == nil && dir.Rename(tmp, name) != nil {
		_ = dir.Remove(tmp)
	}
}

// move writes a renamed file's text at its new path, then removes the old.
func (tx *diskTx) move(f *txFile) error {
	root, rel, err := tx.disk.locate(f.fc.NewPath)
	if err != nil {
		return err
	}
	dest, err := tx.makeDir(root, rel)
	if err != nil {
		return err
	}
	base := filepath.Base(rel)
	if err := tx.create(dest, base, f.fc.New.Raw(), keptMode(f.info.Mode), &f.info); err != nil {
		return err
	}
	if err := f.dir.Remove(f.base); err != nil {
		_ = dest.Remove(base)
		return fmt.Errorf("remove %s after copying it to %s: %w", f.fc.Path, f.fc.NewPath, err)
	}
	tx.undo = append(tx.undo, func() {
		tx.restore(f.dir, f)
		_ = dest.Remove(base)
	})
	return nil
}

// makeDir opens the folder of rel beneath root, creating what is missing.
func (tx *diskTx) makeDir(root, rel string) (*confined.Dir, error) {
	dir, err := confined.MakeDir(root, filepath.Dir(rel), 0o755)
	if err != nil {
		return nil, fmt.Errorf("create folder for %s: %w", filepath.Join(root, rel), diskError(rel, confined.Info{}, err))
	}
	tx.dirs = append(tx.dirs, dir)
	return dir, nil
}

// create makes a new file name in dir holding text, failing when one is
// there: the staged file is linked into place, which no concurrent writer
// can race. like, when given, lends it its owner and group where it can.
func (tx *diskTx) create(dir *confined.Dir, name, text string, perm fs.FileMode, like *confined.Info) error {
	tmp, err := dir.Stage(name, text, perm, like)
	if errors.Is(err, confined.ErrOwner) {
		tmp, err = dir.Stage(name, text, perm, nil)
	}
	if err != nil {
		return fmt.Errorf("stage %s: %w", filepath.Join(dir.Path(), name), err)
	}
	defer dir.Remove(tmp)
	if err := dir.Link(tmp, name); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return hashline.Errorf(hashline.CodeInvalidArgument, "%s already exists: choose another name, or delete it first", name)
		}
		return fmt.Errorf("create %s: %w", filepath.Join(dir.Path(), name), err)
	}
	return nil
}

// restore puts a removed file back in dir with its old text, mode and
// owner.
func (tx *diskTx) restore(dir *confined.Dir, f *txFile) {
	if old, ok := f.old(); ok {
		_ = tx.create(dir, f.base, old, keptMode(f.info.Mode), &f.info)
	}
}

// rollback undoes every change made, newest first.
func (tx *diskTx) rollback() {
	for i := len(tx.undo) - 1; i >= 0; i-- {
		tx.undo[i]()
	}
}
