package endpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
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

// ensureFolder creates dir with mode 0700 when it is missing, then checks it.
func ensureFolder(dir string, uid int) error {
	if err := os.Mkdir(dir, 0o700); err == nil {
		// The umask may have cleared bits, never added any; set the mode
		// exactly anyway so the check below states the rule once.
		if err := os.Chmod(dir, 0o700); err != nil {
			return err
		}
	} else if !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create the endpoint folder %s: %w", dir, err)
	}
	return checkFolder(dir, uid)
}

// checkFolder refuses dir unless it is a directory, not a link, owned by
// uid, with mode 0700.
func checkFolder(dir string, uid int) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	fix := fmt.Sprintf("remove it (rm -r %s) so hashline-ls can create it, or set TMPDIR to a folder of your own", dir)
	if fi.Mode()&fs.ModeSymlink != 0 {
		return &Error{CodeUnsafeFolder, fmt.Sprintf("the endpoint folder %s is a symbolic link: %s", dir, fix)}
	}
	if !fi.IsDir() {
		return &Error{CodeUnsafeFolder, fmt.Sprintf("the endpoint folder %s is not a directory: %s", dir, fix)}
	}
	owner, ok := ownerOf(fi)
	if !ok {
		return &Error{CodeUnsafeFolder, fmt.Sprintf("the owner of the endpoint folder %s cannot be read on this system: editors cannot be reached here; run hashline-ls mcp --no-editor", dir)}
	}
	if owner != uid {
		return &Error{CodeUnsafeFolder, fmt.Sprintf("the endpoint folder %s belongs to uid %d, not to you (uid %d): %s", dir, owner, uid, fix)}
	}
	if perm := fi.Mode().Perm(); perm != 0o700 {
		return &Error{CodeUnsafeFolder, fmt.Sprintf("the endpoint folder %s has mode %04o, not 0700: run chmod 0700 %s, or %s", dir, perm, dir, fix)}
	}
	return nil
}
