//go:build !amd64

package newlines

import "strings"

func next(s string, from int, ends []int32) int {
	n := 0
	for n < len(ends) && from < len(s) {
		i := strings.IndexByte(s[from:], '\n')
		if i < 0 {
			break
		}
		ends[n] = int32(from + i)
		n++
		from += i + 1
	}
	return n
}
