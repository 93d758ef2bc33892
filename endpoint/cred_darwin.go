package endpoint

import "golang.org/x/sys/unix"

// sockCred reads LOCAL_PEERCRED, which names no pid.
func sockCred(fd int) (Cred, error) {
	xc, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return Cred{}, err
	}
	return Cred{UID: xc.Uid}, nil
}
