//go:build linux || darwin

package endpoint

import "net"

// peerCred asks the kernel who is at the other end of c (sockCred says how
// on each system).
func peerCred(c *net.UnixConn) (Cred, error) {
	raw, err := c.SyscallConn()
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
