package commands

import (
	"context"
	"fmt"

	"hashline-ls/documents"
	"hashline-ls/hashline"
)

// Saver saves, through the editor, what a change set left in its buffers
// (docs/design.md §5.7): a terminal agent runs its tests on the disk next. It saves
// a file whose text before the change was the file on disk, through the
// editor's own save path so format-on-save runs, and leaves one that held
// the user's unsaved changes as it is.
type Saver interface {
	// Save saves the files of cs that landed, and returns what each holds
	// now, in the buffer and on disk, and the files it left unsaved.
	Save(ctx context.Context, cs documents.ChangeSet, landed documents.Landed) (documents.Landed, []Unsaved)
}

// Unsaved is a file a Saver left unsaved: the edit is in the editor's
// buffer only.
type Unsaved struct {
	Path string // canonical absolute
	Why  string // a clause, such as "its buffer held unsaved changes"
}

// save runs the Saver, if there is one, on what cs left, and words a
// warning for each file it left unsaved.
func (s *Server) save(ctx context.Context, cs documents.ChangeSet, landed documents.Landed) (documents.Landed, []hashline.Warning) {
	if s.Saver == nil {
		return landed, nil
	}
	landed, unsaved := s.Saver.Save(ctx, cs, landed)
	var out []hashline.Warning
	for _, u := range unsaved {
		name := u.Path
		if wp, err := s.Roots.Resolve(u.Path); err == nil {
			name = wp.Rel
		}
		out = append(out, hashline.Warning{Kind: hashline.WarnUnsaved, Message: fmt.Sprintf(
			"%s is not saved: %s; the edit is in the editor's buffer, and the disk keeps the old text until the file is saved there", name, u.Why)})
	}
	return landed, out
}
