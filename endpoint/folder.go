package endpoint

import (
	"fmt"
	"path/filepath"
)

// Code names what went wrong, for programs; Error's message says what to do.
type Code string

const (
	// CodeUnsafeFolder: the per-user folder is not a 0700 directory of the
	// user, so nothing in it can be trusted.
	CodeUnsafeFolder Code = "ENDPOINT_FOLDER_UNSAFE"
	// CodePeerRefused: the other end of a connection runs as another user.
	CodePeerRefused Code = "ENDPOINT_PEER_REFUSED"
	// CodeNoEditor: no published server holds the roots, or not the one
	// asked for.
	CodeNoEditor Code = "ENDPOINT_NO_EDITOR"
	// CodeStale: the entry's server is gone; it has been removed.
	CodeStale Code = "ENDPOINT_STALE"
)

// Error is the error this package returns for the conditions above.
type Error struct {
	Code Code
	Msg  string // a full sentence ending with the next step
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Msg }

// FolderPath is the per-user folder for uid: hashline-<uid> in tmpdir, or in
// /tmp when tmpdir is empty or relative.
func FolderPath(tmpdir string, uid int) string {
	if tmpdir == "" || !filepath.IsAbs(tmpdir) {
		tmpdir = "/tmp"
	}
	return filepath.Join(tmpdir, fmt.Sprintf("hashline-%d", uid))
}
