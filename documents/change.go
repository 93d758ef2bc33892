package documents

import (
	"errors"

	"hashline-ls/hashline"
)

// ErrNotApplied is returned by a sink that wrote nothing because the file
// is not the text the change was proven against any more: the editor
// refused it, or the file changed in between. The caller may run the gates
// once more against the text as it is now.
var ErrNotApplied = errors.New("the edit was not applied")

// Live is the text of a file as it is now.
type Live struct {
	Text *hashline.Text // nil when the file does not exist
	// Version is the editor's buffer version; Open is false when the text
	// came from disk, and then Version means nothing.
	Version int32
	Open    bool
	// Mode is the file's permission bits on disk (0 when unknown).
	Mode uint32
}

// Exists reports whether there is a file.
func (l Live) Exists() bool { return l.Text != nil }

// ChangeKind says what a FileChange does.
type ChangeKind int

const (
	Modify ChangeKind = iota + 1 // edit an existing file's text
	Create                       // create a new file with New as its text
	Delete                       // delete the file
	Rename                       // move the file to NewPath, with New as its text
)

// FileChange is one file's part of a change set. Paths are canonical and
// absolute.
type FileChange struct {
	Kind    ChangeKind
	Path    string
	NewPath string // Rename only
	// Old is the live text the change was proven against, with the buffer
	// version it had (nil for Create).
	Old *Live
	// Edits turn Old's raw text into New's (Modify, and Rename when the
	// content changes too).
	Edits []hashline.ByteEdit
	// Hunks are Edits as lines of Old, when known: they let a Landing
	// tell the edit itself from other changes (hashline.ShowsEdit).
	Hunks []hashline.Hunk
	New   *hashline.Text // the intended text afterwards; nil for Delete
}

// Left is the path the change leaves a file at: NewPath for a rename,
// Path otherwise; false for a delete, which leaves none.
func (fc FileChange) Left() (string, bool) {
	switch fc.Kind {
	case Delete:
		return "", false
	case Rename:
		return fc.NewPath, true
	}
	return fc.Path, true
}

// ChangeSet is everything one call writes, applied all or nothing.
type ChangeSet struct {
	// Label names the ops, for the editor's undo stack and review.
	Label string
	Files []FileChange
}

// Landed maps each path a change set left a file at to the text it holds
// now, as a Landing found it. A path deleted or moved away is absent.
type Landed map[string]*hashline.Text
