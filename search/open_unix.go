//go:build linux || darwin

package search

import "syscall"

// openFile opens a file with the system calls alone: os.File would also
// set the descriptor non-blocking and try to register it with the
// network poller, three calls more per file for nothing on a regular file.
// O_NONBLOCK keeps the open of a FIFO from waiting for a writer; a regular
// file reads as without it.
func openFile(path string) (*rawFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &rawFile{fd: fd}, nil
	}
}

// fromFD is the open file fd.
func fromFD(fd int, _ string) *rawFile { return &rawFile{fd: fd} }

// rawFile is an open file.
type rawFile struct{ fd int }

// stat returns the file's size and whether it is a regular file.
func (f *rawFile) stat() (int64, bool, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, false, err
		}
		return st.Size, uint32(st.Mode)&syscall.S_IFMT == syscall.S_IFREG, nil
	}
}

func (f *rawFile) read(b []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, b)
		if err == syscall.EINTR {
			continue
		}
		return max(n, 0), err
	}
}

func (f *rawFile) close() { syscall.Close(f.fd) }

func (f *rawFile) readAt(b []byte, off int64) (int, error) {
	for {
		n, err := syscall.Pread(f.fd, b, off)
		if err == syscall.EINTR {
			continue
		}
		return max(n, 0), err
	}
}
