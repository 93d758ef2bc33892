package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"hashline-ls/commands"
	"hashline-ls/documents"
	"hashline-ls/hashline"
)

// methodSaveDocument asks the editor to save one document through its own
// save path (package endpoint describes it). An editor offers it with
// initializationOptions {"hashline": {"saveDocument": true}}.
const methodSaveDocument = "hashline/saveDocument"

type saveParams struct {
	URI string `json:"uri"`
	// Version is the version of the document the edit left, as the
	// editor reported it: the editor saves only that text, so a person
	// who typed since keeps those changes unsaved.
	Version *int32 `json:"version,omitempty"`
}

type saveResult struct {
	Saved  bool   `json:"saved"`
	Reason string `json:"reason,omitempty"`
}

// saveTimeout bounds the wait for the editor's answer to a save: a
// format-on-save may take a while, a dialog longer.
const saveTimeout = 30 * time.Second

// saver is the commands.Saver of bridged sessions: after an edit landed in
// the editor's buffers, it asks the editor to save each file whose text
// before the edit was the file on disk, and waits until the disk holds
// what the buffer holds. The editor's own assistants have none: their user
// saves.
type saver struct{ s *Server }

func (v saver) Save(ctx context.Context, cs documents.ChangeSet, landed documents.Landed) (documents.Landed, []commands.Unsaved) {
	var unsaved []commands.Unsaved
	for _, fc := range cs.Files {
		path, ok := fc.Left()
		if !ok {
			continue
		}
		got := landed[path]
		if got == nil {
			continue
		}
		text, why := v.saveFile(ctx, fc, path, got.Raw())
		if why != "" {
			unsaved = append(unsaved, commands.Unsaved{Path: path, Why: why})
			continue
		}
		if text != nil {
			landed[path] = text
		}
	}
	return landed, unsaved
}

// saveFile saves one file that now holds want in the editor, when it
// should be: it returns the text the file ended with (nil when nothing was
// saved and nothing needed to be), or why it is left unsaved.
func (v saver) saveFile(ctx context.Context, fc documents.FileChange, path, want string) (text *hashline.Text, why string) {
	disk, err := v.s.docs.DiskText(path)
	switch {
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Sprintf("it cannot be read on disk (%v)", err)
	case err == nil && documents.OnDisk(want, disk):
		return nil, "" // the editor wrote it itself, or applied it on disk
	case fc.Old != nil && fc.Old.Text != nil && !documents.OnDisk(fc.Old.Text.Raw(), disk):
		return nil, "its buffer held unsaved changes before this edit, which only the user may save"
	case !v.s.bridge.saves():
		return nil, "the editor does not offer to save files for hashline-ls (its hashline plugin or extension predates hashline/saveDocument)"
	}
	params := saveParams{URI: sink(v).uriOf(path)}
	if doc, open := v.s.docs.Get(path); open {
		if !documents.OnDisk(doc.Text, want) {
			return nil, "it changed in the editor after the edit landed (typing that is not saved)"
		}
		params.Version = &doc.Version
	}
	var res saveResult
	callCtx, cancel := context.WithTimeout(ctx, saveTimeout)
	_, err = v.s.conn.Call(callCtx, methodSaveDocument, params, &res)
	cancel()
	switch {
	case ctx.Err() != nil:
		return nil, "the call was cancelled before the editor saved it"
	case err != nil:
		return nil, fmt.Sprintf("the editor's answer to the save was an error (%v)", err)
	case !res.Saved:
		reason := res.Reason
		if reason == "" {
			reason = "no reason given"
		}
		return nil, fmt.Sprintf("the editor did not save it (%s)", reason)
	}
	saved, err := awaitSaved(ctx, v.s.docs, path, disk, v.s.landTimeout())
	if err != nil {
		return nil, fmt.Sprintf("the editor answered that it saved it, but %v", err)
	}
	return saved, ""
}

// awaitSaved waits, once the editor answered that it saved path, until the
// file on disk holds the text of the editor's buffer, and returns that
// text. A format-on-save changes both, in an order that differs between
// editors (the buffer's didChange may come before or after the write), so
// only their agreement counts. A file the store does not hold is taken as
// saved once the disk no longer holds before, what it held when the save
// was asked for. bound is how long the save may take.
func awaitSaved(ctx context.Context, store *documents.Store, path, before string, bound time.Duration) (*hashline.Text, error) {
	deadline := time.Now().Add(bound)
	for {
		disk, err := store.DiskText(path)
		d, open := store.Get(path)
		switch {
		case err != nil:
		case open && documents.OnDisk(d.Text, disk):
			return hashline.NewText(disk), nil
		case !open && disk != before:
			return hashline.NewText(disk), nil
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			if err != nil {
				return nil, fmt.Errorf("the file cannot be read after the save (%w)", err)
			}
			return nil, fmt.Errorf("the file on disk did not hold the buffer's text within %s", bound)
		}
		// Short slices, so the disk is looked at again: the write does not
		// wake the store.
		store.Wait(ctx, path, d.Seq, min(wait, 20*time.Millisecond))
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
}
