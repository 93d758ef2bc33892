package confined

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/windows"

	"hashline-ls/internal/appdata"
)

// lockFolder is where the lock files are: %LOCALAPPDATA%\hashline-ls\locks.
// Every hashline process of the user finds there the same file for the
// same folder, whatever path it reached the folder by, since the file is
// named after the folder's ID. The files stay, empty, one per folder ever
// written. Being the user's own, they keep the user's processes from each
// other, not another user's: flock on Unix does both.
var lockFolder = sync.OnceValues(func() (string, error) {
	dir, err := appdata.Dir("locks")
	if err != nil {
		return "", err
	}
	return dir, os.MkdirAll(dir, 0o700)
})

// tryLock takes the folder's lock file, LockFileEx's exclusive lock on
// its first byte, if no other holder has it; busy reports one has.
func (d *Dir) tryLock() (busy bool, err error) {
	if d.lockf == nil {
		id, err := d.ID()
		if err != nil {
			return false, err
		}
		dir, err := lockFolder()
		if err != nil {
			return false, err
		}
		path := filepath.Join(dir, fmt.Sprintf("%08x-%016x.lock", id.Dev, id.Ino))
		err = retry(false, func() (err error) {
			d.lockf, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
			return err
		})
		if err != nil {
			return false, err
		}
	}
	err = windows.LockFileEx(windows.Handle(d.lockf.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, new(windows.Overlapped))
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return true, nil
	}
	return false, err
}

// unlock releases the lock and closes its file.
func (d *Dir) unlock() {
	_ = windows.UnlockFileEx(windows.Handle(d.lockf.Fd()), 0, 1, 0, new(windows.Overlapped))
	d.lockf.Close()
	d.lockf = nil
}
