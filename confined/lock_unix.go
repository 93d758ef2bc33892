//go:build unix

package confined

import (
	"errors"

	"golang.org/x/sys/unix"
)

// tryLock takes d's flock if no other holder has it; busy reports one has.
func (d *Dir) tryLock() (busy bool, err error) {
	err = unix.Flock(d.fd(), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) || errors.Is(err, unix.EINTR) {
		return true, nil
	}
	return false, err
}

func (d *Dir) unlock() { _ = unix.Flock(d.fd(), unix.LOCK_UN) }
