package documents

import (
	"context"
	"fmt"
	"time"

	"hashline-ls/hashline"
)

// OnDisk reports whether disk, the bytes of a file, holds text, a buffer's
// text: exactly, or with the BOM an editor keeps outside its buffer.
func OnDisk(text, disk string) bool {
	return text == disk || withBOM(text, disk) == disk
}

// AwaitSaved waits, once the editor answered that it saved path, until the
// file on disk holds the text of the editor's buffer, and returns that
// text. A format-on-save changes both, in an order that differs between
// editors (the buffer's didChange may come before or after the write), so
// only their agreement counts. A file the store does not hold is taken as
// saved once the disk no longer holds before, what it held when the save
// was asked for. bound is how long the save may take.
func AwaitSaved(ctx context.Context, store *Store, path, before string, bound time.Duration) (*hashline.Text, error) {
	deadline := time.Now().Add(bound)
	for {
		disk, err := store.DiskText(path)
		d, open := store.Get(path)
		switch {
		case err != nil:
		case open && OnDisk(d.Text, disk):
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
