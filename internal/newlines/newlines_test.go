package newlines

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// ends is every LF offset of s from from on, found one byte at a time.
func ends(s string, from int) []int32 {
	var out []int32
	for i := from; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, int32(i))
		}
	}
	return out
}

// all calls Next until it finds no more, with room for size at a time.
func all(s string, from, size int) []int32 {
	var out []int32
	buf := make([]int32, size)
	for {
		n := Next(s, from, buf)
		out = append(out, buf[:n]...)
		if n < size {
			return out
		}
		from = int(buf[n-1]) + 1
	}
}

// Every LF is found once and in order, wherever it falls in the 64 bytes
// compared at a time, at the text's last byte, next to bytes that differ
// from LF in one bit, and when the room for offsets runs out mid-word.
func TestNextFindsEveryLF(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	alphabet := "\n\n\x0b\x08\x8aab \t"
	for i := range 4000 {
		b := make([]byte, r.IntN(300))
		for j := range b {
			b[j] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		from := 0
		if len(s) > 0 {
			from = r.IntN(len(s) + 1)
		}
		size := 1 + r.IntN(70)
		if got, want := all(s, from, size), ends(s, from); !slices.Equal(got, want) {
			t.Fatalf("case %d: %q from %d, room %d: found %v, want %v", i, s, from, size, got, want)
		}
	}
}

// Texts of no LF, only LFs, and an LF at either side of a word's end, read
// from every offset.
func TestNextOnEdges(t *testing.T) {
	for _, s := range []string{"", "\n", "a", strings.Repeat("\n", 64), strings.Repeat("\n", 65), strings.Repeat("x", 63) + "\n", strings.Repeat("x", 64) + "\n", strings.Repeat("x", 200)} {
		for from := 0; from <= len(s); from++ {
			if got, want := all(s, from, 7), ends(s, from); !slices.Equal(got, want) {
				t.Fatalf("%q from %d: found %v, want %v", s, from, got, want)
			}
		}
	}
}

var sink int

func BenchmarkNext(b *testing.B) {
	s := strings.Repeat("\treturn alpha(ctx, request) // a line\n", 10000)
	buf := make([]int32, 256)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		for from := 0; ; {
			n := Next(s, from, buf)
			if n < len(buf) {
				break
			}
			from = int(buf[n-1]) + 1
		}
	}
}

func BenchmarkIndexByte(b *testing.B) {
	s := strings.Repeat("\treturn alpha(ctx, request) // a line\n", 10000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		for from := 0; ; {
			i := strings.IndexByte(s[from:], '\n')
			if i < 0 {
				break
			}
			sink += i
			from += i + 1
		}
	}
}
