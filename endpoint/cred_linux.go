package endpoint

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerCred asks the kernel who is at the other end of c (SO_PEERCRED): the
// credentials of the process that connected, or that listened.
func peerCred(c *net.UnixConn) (Cred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return Cred{}, err
	}
	var (
		uc   *unix.Ucred
		uerr error
	)
	if err := raw.Control(func(fd uintptr) {
		uc, uerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return Cred{}, err
	}
	if uerr != nil {
		return Cred{}, uerr
	}
	return Cred{UID: uc.Uid, PID: int(uc.Pid)}, nil
}
