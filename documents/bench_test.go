package documents

import (
	"fmt"
	"strings"
	"testing"
)

// The unit of these benchmarks is BenchmarkCopy10MB, one copy of the text:
// the cost of a didChange is stated as a multiple of it, measured in the
// same run, so that the figure does not depend on the machine.

const benchSize = 10 << 20

// benchText is about 10 MB of source-like lines, with CJK and an emoji so
// that UTF-16 positions do not equal byte offsets.
func benchText() (string, int) {
	var b strings.Builder
	b.Grow(benchSize + 100)
	lines := 0
	for b.Len() < benchSize {
		fmt.Fprintf(&b, "\tfmt.Println(\"héllo, 世界 😀\", i, %d) // line %d\n", lines*7, lines)
		lines++
	}
	return b.String(), lines
}

var sink string

func BenchmarkCopy10MB(b *testing.B) {
	text, _ := benchText()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		sink = strings.Clone(text)
	}
}

// BenchmarkCopyChain10MB copies 10 MB the way a store must: each copy is
// the source of the next and the one before it becomes garbage. That makes
// the heap churn, and on a busy machine the runtime hands freed pages back
// to the kernel and faults them in again, which a copy from one fixed string
// does not show. A didChange cannot cost less than this.
func BenchmarkCopyChain10MB(b *testing.B) {
	text, _ := benchText()
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	cur := text
	for b.Loop() {
		cur = strings.Clone(cur)
	}
	sink = cur
}

func BenchmarkDidChange10MB(b *testing.B) {
	text, lines := benchText()
	mid := uint32(lines / 2)
	// One keystroke after the emoji, in the middle of the document.
	benchChange(b, text, []Change{{Range: rng(mid, 24, mid, 24), Text: "x"}})
}

// BenchmarkDidChangeBatch10MB is a 50-range edit, sent bottom-up as
// editors send one: it should still cost about one copy.
func BenchmarkDidChangeBatch10MB(b *testing.B) {
	text, lines := benchText()
	var change []Change
	for i := 50; i > 0; i-- {
		line := uint32(lines * i / 51)
		change = append(change, Change{Range: rng(line, 1, line, 4), Text: "fmt"})
	}
	benchChange(b, text, change)
}

// benchChange sends change to a document opened with text, as one
// didChange after another.
func benchChange(b *testing.B, text string, change []Change) {
	s := NewStore()
	s.Open(testPath, "file:///w/a.go", 0, text)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	v := int32(0)
	for b.Loop() {
		v++
		if err := s.Change(testPath, v, change); err != nil {
			b.Fatal(err)
		}
	}
}
