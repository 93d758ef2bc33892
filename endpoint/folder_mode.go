//go:build !windows

package endpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

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
