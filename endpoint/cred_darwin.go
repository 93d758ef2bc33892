package endpoint

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerCred asks the kernel who is at the other end of c (LOCAL_PEERCRED).
func peerCred(c *net.UnixConn) (Cred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return Cred{}, err
	}
	var (
		xc   *unix.Xucred
		xerr error
	)
	if err := raw.Control(func(fd uintptr) {
		xc, xerr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return Cred{}, err
	}
	if xerr != nil {
		return Cred{}, xerr
	}
	return Cred{UID: xc.Uid}, nil
}
