// Package newlines finds the line feeds of a text. On amd64 it compares 64 bytes
// at a time with SSE2 and walks the bits that say where the LFs are: for
// the short lines of source text that costs a few nanoseconds a line, where
// one strings.IndexByte a line costs eight, most of it the call. Elsewhere
// it is that IndexByte loop.
package newlines

// Next writes to ends the offsets in s of its LFs from offset from on, in
// order, until ends is full or s has no more, and returns how many it
// wrote. A caller with more to find calls it again from the last offset
// plus one.
func Next(s string, from int, ends []int32) int {
	return next(s, from, ends)
}
