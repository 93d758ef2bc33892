package hashline

import (
	"math/rand/v2"
	"testing"
)

// The runs myers keeps are a common subsequence, in order, as long as the
// longest one a table of every prefix pair finds; with too small a budget
// it keeps nothing and says so.
func TestMyersFindsALongestCommonSubsequence(t *testing.T) {
	for seed := range uint64(4000) {
		r := rand.New(rand.NewPCG(seed, 31))
		alphabet := 1 + r.IntN(6)
		a, b := randomIDs(r, r.IntN(40), alphabet), randomIDs(r, r.IntN(40), alphabet)
		if r.IntN(3) == 0 {
			b = mutate(r, a, alphabet)
		}
		got, ni, nj := 0, 0, 0
		ok := myers(a, b, maxDiffSteps, func(i, j, n int) {
			if i < ni || j < nj || n <= 0 {
				t.Fatalf("seed %d: run (%d, %d, %d) after (%d, %d)", seed, i, j, n, ni, nj)
			}
			for k := range n {
				if a[i+k] != b[j+k] {
					t.Fatalf("seed %d: run (%d, %d, %d) keeps unequal lines", seed, i, j, n)
				}
			}
			got, ni, nj = got+n, i+n, j+n
		})
		if want := lcsLength(a, b); !ok || got != want {
			t.Fatalf("seed %d: %v and %v: kept %d lines (ok %v), want %d", seed, a, b, got, ok, want)
		}
	}
	a, b := randomIDs(rand.New(rand.NewPCG(1, 2)), 400, 2), randomIDs(rand.New(rand.NewPCG(3, 4)), 400, 2)
	if myers(a, b, 100, func(i, j, n int) { t.Fatal("kept a run past its budget") }) {
		t.Fatal("two unrelated texts diffed within 100 steps")
	}
}

func randomIDs(r *rand.Rand, n, alphabet int) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(r.IntN(alphabet))
	}
	return out
}

// mutate returns a with a few lines inserted, deleted or changed.
func mutate(r *rand.Rand, a []int32, alphabet int) []int32 {
	out := append([]int32(nil), a...)
	for range 1 + r.IntN(4) {
		i := r.IntN(len(out) + 1)
		switch r.IntN(3) {
		case 0:
			out = append(out[:i], append([]int32{int32(r.IntN(alphabet + 2))}, out[i:]...)...)
		case 1:
			if i < len(out) {
				out = append(out[:i], out[i+1:]...)
			}
		default:
			if i < len(out) {
				out[i] = int32(r.IntN(alphabet + 2))
			}
		}
	}
	return out
}

func lcsLength(a, b []int32) int {
	f := make([][]int, len(a)+1)
	for i := range f {
		f[i] = make([]int, len(b)+1)
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				f[i][j] = f[i-1][j-1] + 1
			} else {
				f[i][j] = max(f[i-1][j], f[i][j-1])
			}
		}
	}
	return f[len(a)][len(b)]
}
