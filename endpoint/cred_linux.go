package endpoint

import "golang.org/x/sys/unix"

// sockCred reads SO_PEERCRED: the credentials of the process that
// connected, or that listened.
func sockCred(fd int) (Cred, error) {
	uc, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return Cred{}, err
	}
	return Cred{UID: uc.Uid, PID: int(uc.Pid)}, nil
}
