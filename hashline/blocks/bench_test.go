package blocks

import (
	"fmt"
	"strings"
	"testing"
)

// bigScript is a JavaScript text of about size bytes made of small
// functions, so the root has many children.
func bigScript(size int) (string, int) {
	var b strings.Builder
	fn := 0
	for b.Len() < size {
		fmt.Fprintf(&b, "function f%d(a) {\n  return a + %d;\n}\n", fn, fn)
		fn++
	}
	return b.String(), 3*fn - 2 // the last function's first line
}

// BenchmarkResolveLarge resolves the last function of a file just under
// the parse limit: one parse and the walk down to its line.
func BenchmarkResolveLarge(b *testing.B) {
	text, last := bigScript(MaxParseBytes - 64)
	r := New()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := r.ResolveBlock("big.js", text, last); err != nil {
			b.Fatal(err)
		}
	}
}
