package confined

import (
	"errors"
	"time"

	"golang.org/x/sys/windows"
)

// sharingWait bounds how long an operation is retried while another
// program holds its file.
const sharingWait = 2 * time.Second

// retry runs op again while it fails because another program holds the
// file for a moment: antivirus scanners, the search indexer and backup
// tools open files just written, and while they do, an open that asks for
// more sharing than they allow fails (a sharing or lock violation), and so
// does, with access denied, a rename or delete over a file held without
// FILE_SHARE_DELETE. denied says whether op is such a rename or delete,
// for which access denied is retried too; for an open it is final.
func retry(denied bool, op func() error) error {
	deadline := time.Now().Add(sharingWait)
	pause := time.Millisecond
	for {
		err := op()
		if err == nil || !transient(err, denied) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(pause)
		pause = min(2*pause, 50*time.Millisecond)
	}
}

func transient(err error, denied bool) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_LOCK_VIOLATION) ||
		denied && errors.Is(err, windows.ERROR_ACCESS_DENIED)
}
