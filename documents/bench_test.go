package documents

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"hashline-ls/internal/floor"
)

// The unit of these benchmarks is one copy of the text (BenchmarkCopy10MB):
// the cost of a didChange is stated as a multiple of it, timed in the same
// loop (package floor), so that the figure does not depend on the machine
// or on its load. Targets: one keystroke within 1.5 copies, a 50-range
// batch within 2, and no growth of the peak resident size over 1,000
// keystrokes. A read of the open buffer is stated against one SHA-256 pass
// of it, which the read pays once the text changed.

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

// keystroke is one character typed in the middle of the document, after
// the emoji.
func keystroke(lines int) []Change {
	mid := uint32(lines / 2)
	return []Change{{Range: rng(mid, 24, mid, 24), Text: "x"}}
}

func BenchmarkDidChange10MB(b *testing.B) {
	text, lines := benchText()
	benchChange(b, text, keystroke(lines))
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
	v := int32(0)
	floor.Measure(b, "copy", func() { sink = strings.Clone(text) }, func() {
		v++
		if err := s.Change(testPath, v, change); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkReadAfterKeystroke10MB is a read of the open buffer right after
// a keystroke: the live text with its tag, which a changed text must be
// hashed for. The keystroke is timed with it.
func BenchmarkReadAfterKeystroke10MB(b *testing.B) {
	text, lines := benchText()
	s := NewStore()
	s.Open(testPath, "file:///w/a.go", 0, text)
	v := int32(0)
	change := keystroke(lines)
	floor.Measure(b, "sha256", floor.SHA256(text), func() {
		v++
		if err := s.Change(testPath, v, change); err != nil {
			b.Fatal(err)
		}
		live, err := s.Live(context.Background(), testPath)
		if err != nil {
			b.Fatal(err)
		}
		sink = string(live.Text.Tag())
	})
}

// BenchmarkReadUnchanged10MB is a read of the open buffer when nothing
// changed since the last one.
func BenchmarkReadUnchanged10MB(b *testing.B) {
	text, _ := benchText()
	s := NewStore()
	s.Open(testPath, "file:///w/a.go", 0, text)
	floor.Measure(b, "sha256", floor.SHA256(text), func() {
		live, err := s.Live(context.Background(), testPath)
		if err != nil {
			b.Fatal(err)
		}
		sink = string(live.Text.Tag())
	})
}

// BenchmarkKeystrokes10MB types 1,000 characters into the open document,
// one didChange each, and reports the peak resident size of the process
// during the first 100 and during the last 100 (the kernel's VmHWM, reset
// between them): a store that keeps what it no longer needs grows.
func BenchmarkKeystrokes10MB(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("the peak resident size cannot be reset here: %v", err)
	}
	text, lines := benchText()
	for b.Loop() {
		s := NewStore()
		s.Open(testPath, "file:///w/a.go", 0, text)
		mid := uint32(lines / 2)
		v := int32(0)
		typeRun := func(n int) float64 {
			if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
				b.Fatal(err)
			}
			for range n {
				v++
				// Typing forward, as a person does.
				at := uint32(24 + v)
				if err := s.Change(testPath, v, []Change{{Range: rng(mid, at, mid, at), Text: "x"}}); err != nil {
					b.Fatal(err)
				}
			}
			return peakMiB(b)
		}
		first := typeRun(100)
		typeRun(800)
		last := typeRun(100)
		b.ReportMetric(first, "first-peak-MiB")
		b.ReportMetric(last, "last-peak-MiB")
		b.ReportMetric(last-first, "peak-growth-MiB")
		// Its time is not a figure of this benchmark.
		b.ReportMetric(0, "ns/op")
	}
}

// peakMiB is the process's VmHWM in MiB.
func peakMiB(b *testing.B) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(rest), "%f", &kb)
			return kb / 1024
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}
