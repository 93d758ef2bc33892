//go:build unix

package endpoint

import (
	"errors"
	"io/fs"
	"syscall"
)

// ownerOf is the uid that owns fi.
func ownerOf(fi fs.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// alive reports whether a process with this pid exists. A pid that is
// alive but names another program now is caught when its socket refuses
// the connection.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
