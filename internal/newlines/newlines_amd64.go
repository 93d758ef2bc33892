package newlines

import (
	"math/bits"
	"unsafe"
)

// mask64 has bit i set where p[i] is an LF, for the 64 bytes at p.
//
//go:noescape
func mask64(p *byte) uint64

func next(s string, from int, ends []int32) int {
	n := 0
	for n < len(ends) && from < len(s) {
		var m uint64
		if len(s)-from >= 64 {
			m = mask64(unsafe.StringData(s[from:]))
		} else {
			var tail [64]byte
			copy(tail[:], s[from:])
			m = mask64(&tail[0])
		}
		for ; m != 0; m &= m - 1 {
			if n == len(ends) {
				return n
			}
			ends[n] = int32(from + bits.TrailingZeros64(m))
			n++
		}
		from += 64
	}
	return n
}
