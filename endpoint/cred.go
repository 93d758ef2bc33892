//go:build linux || darwin

package endpoint

import (
	"fmt"
	"net"
)

// peerCred asks the kernel who is at the other end of c (sockCred says how
// on each system).
func peerCred(c net.Conn) (Cred, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Cred{}, fmt.Errorf("%T is not a Unix socket", c)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Cred{}, err
	}
	var (
		cred Cred
		cerr error
	)
	if err := raw.Control(func(fd uintptr) { cred, cerr = sockCred(int(fd)) }); err != nil {
		return Cred{}, err
	}
	return cred, cerr
}
