//go:build !(linux || darwin)

package search

import (
	"errors"
	"io"
	"os"
)

func openFile(path string) (*rawFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &rawFile{f: f}, nil
}

// fromFD is the open file fd.
func fromFD(fd int, path string) *rawFile { return &rawFile{f: os.NewFile(uintptr(fd), path)} }

// rawFile is an open file.
type rawFile struct{ f *os.File }

// stat returns the file's size and whether it is a regular file.
func (f *rawFile) stat() (int64, bool, error) {
	fi, err := f.f.Stat()
	if err != nil {
		return 0, false, err
	}
	return fi.Size(), fi.Mode().IsRegular(), nil
}

func (f *rawFile) read(b []byte) (int, error) {
	n, err := f.f.Read(b)
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return n, err
}

func (f *rawFile) close() { f.f.Close() }

func (f *rawFile) readAt(b []byte, off int64) (int, error) {
	n, err := f.f.ReadAt(b, off)
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return n, err
}
