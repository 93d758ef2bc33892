package search

import (
	"bytes"
	"unsafe"
)

// SniffBytes is how much of a file binary detection reads.
const SniffBytes = 8192

// IsBinary reports whether a file whose first bytes are head is binary: a
// NUL byte in the first SniffBytes, as hashline-ls reads files everywhere.
func IsBinary(head []byte) bool {
	return bytes.IndexByte(head[:min(len(head), SniffBytes)], 0) >= 0
}

// Skip says why a file was not searched.
type Skip int

const (
	NotSkipped Skip = iota
	Unreadable      // missing, not a regular file, or a read failed
	Oversized       // larger than the Reader's MaxBytes
	Binary          // see IsBinary
)

// Found is what the search of one file found.
type Found struct {
	Skip  Skip
	Lines []int  // the matching lines, 1-based
	Text  string // the whole file as read, when a line matched
}

// pieceBytes is how much of a file is read and searched at a time: enough
// that the calls to read cost little, little enough that a piece is still
// in the cache when it is searched.
const pieceBytes = 256 << 10

// Reader searches files for one Pattern. A file is read in pieces into a
// buffer the Reader keeps from file to file, so a file without a matching
// line costs one piece of memory however large it is; a larger file with
// one is then read again whole, for the caller to keep. A Reader serves
// one goroutine.
type Reader struct {
	Pattern  *Pattern
	MaxBytes int64 // larger files are Oversized
	// Open, when set, opens a file for reading in place of opening it by
	// name, as a caller that confines paths to its roots must; the Reader
	// closes the descriptor.
	Open func(path string) (fd int, err error)
	buf  []byte
}

// File searches the file at path for its first limit matching lines (a
// negative limit means all of them).
func (r *Reader) File(path string, limit int) Found {
	f, err := r.openFile(path)
	if err != nil {
		return Found{Skip: Unreadable}
	}
	defer f.close()
	size, regular, err := f.stat()
	switch {
	case err != nil || !regular:
		return Found{Skip: Unreadable}
	case size > r.MaxBytes:
		return Found{Skip: Oversized}
	}
	if len(r.buf) != pieceBytes {
		// A long line grew the buffer for one file; give the memory back.
		r.buf = make([]byte, pieceBytes)
	}
	n, eof, err := readPiece(f, r.buf, 0, size)
	switch {
	case err != nil:
		return Found{Skip: Unreadable}
	case IsBinary(r.buf[:n]):
		return Found{Skip: Binary}
	case eof:
		lines := r.Pattern.Lines(r.buf[:n], limit)
		if len(lines) == 0 {
			return Found{}
		}
		return Found{Lines: lines, Text: string(r.buf[:n])}
	}
	if hit, err := r.anyLine(f, n, size); err != nil {
		return Found{Skip: Unreadable}
	} else if !hit {
		return Found{}
	}
	return r.whole(f, size, limit)
}

func (r *Reader) openFile(path string) (*rawFile, error) {
	if r.Open == nil {
		return openFile(path)
	}
	fd, err := r.Open(path)
	if err != nil {
		return nil, err
	}
	return fromFD(fd, path), nil
}

// anyLine reports whether a line of f matches, reading on from the n bytes
// the buffer holds. Each piece searched ends at an LF, so no line is cut in
// two; what follows the LF waits for the next piece.
func (r *Reader) anyLine(f *rawFile, n int, size int64) (bool, error) {
	s := r.Pattern.newScanner(1)
	read, eof := int64(n), false
	for {
		end := n
		if !eof {
			end = bytes.LastIndexByte(r.buf[:n], '\n') + 1
		}
		if end > 0 {
			s.feed(r.buf[:end], eof)
			if len(s.lines) > 0 {
				return true, nil
			}
			n = copy(r.buf, r.buf[end:n])
			s.rebase()
		}
		if eof {
			return false, nil
		}
		if n == len(r.buf) {
			r.buf = append(r.buf, make([]byte, len(r.buf))...)
		}
		m, atEnd, err := readPiece(f, r.buf[n:], read, size)
		if err != nil {
			return false, err
		}
		n, read, eof = n+m, read+int64(m), atEnd
	}
}

// whole reads f again from its start, all of it, and finds its lines.
func (r *Reader) whole(f *rawFile, size int64, limit int) Found {
	buf := make([]byte, size+1)
	n := 0
	for {
		if n == len(buf) {
			if int64(n) > r.MaxBytes {
				return Found{Skip: Oversized} // it grew since
			}
			buf = append(buf, make([]byte, len(buf))...)
		}
		m, err := f.readAt(buf[n:], int64(n))
		if err != nil {
			return Found{Skip: Unreadable}
		}
		if m == 0 {
			break
		}
		n += m
	}
	buf = buf[:n]
	if int64(n) > r.MaxBytes {
		return Found{Skip: Oversized}
	}
	if IsBinary(buf) {
		return Found{Skip: Binary}
	}
	lines := r.Pattern.Lines(buf, limit)
	if len(lines) == 0 {
		return Found{}
	}
	// buf is never written again, so the string may share it.
	return Found{Lines: lines, Text: unsafe.String(unsafe.SliceData(buf), n)}
}

// readPiece reads once into b, at offset read of a file of size bytes when
// opened, and says whether the file ended: a regular file reads short only
// at its end, so once its size is read a short read saves the call that
// would return nothing. A file whose size reads as 0, as some file systems
// report for generated files, is read until a read returns nothing.
func readPiece(f *rawFile, b []byte, read, size int64) (int, bool, error) {
	n, err := f.read(b)
	if err != nil {
		return 0, false, err
	}
	return n, n == 0 || size > 0 && n < len(b) && read+int64(n) >= size, nil
}
