package confined

import (
	"io/fs"
	"os"
	"path/filepath"
)

// forceWalk makes openBeneath walk even where openat2 works, so tests run
// the walk on every kernel.
var forceWalk = false

// walkBeneath is openBeneath where openat2 is missing: os.Root looks rel up
// one element at a time, each relative to the folder descriptor before it
// and with O_NOFOLLOW, following a link itself only while it stays beneath
// root. It is the standard library's walk, kept by the Go team for exactly
// this use.
func walkBeneath(root, rel string, flag int, perm uint32) (*os.File, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := r.OpenFile(rel, flag, fs.FileMode(perm))
	if err != nil {
		return nil, classify("open", filepath.Join(root, rel), err)
	}
	return f, nil
}
