package hashline

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
)

// The benchmarks are read as ratios to BenchmarkBaseline, measured in the
// same run (scripts/benchratio.awk): the floor any whole-file operation
// pays is hashing the bytes once and copying them once. Targets: Read
// within 3x of it, Edit within 4x.

const benchLines = 10000

var benchText = sync.OnceValue(func() string {
	r := rand.New(rand.NewPCG(1, 2))
	idents := []string{"ctx", "request", "response", "buffer", "err", "count", "config", "pendingItems", "runningTotal", "displayName"}
	id := func() string { return idents[r.IntN(len(idents))] }
	var b strings.Builder
	for i := 0; i < benchLines; i++ {
		switch k := r.IntN(20); {
		case k < 1:
			b.WriteString("")
		case k < 3:
			b.WriteString("\t}")
		case k < 5:
			fmt.Fprintf(&b, "func handle%d(%s context.Context, %s *Request) error {", i, id(), id())
		case k < 7:
			fmt.Fprintf(&b, "\tif %s := load(%s, %d); %s != nil {", id(), id(), r.IntN(1000), id())
		case k < 9:
			fmt.Fprintf(&b, "\t\treturn fmt.Errorf(\"step %d: %%w\", err)", i)
		case k < 11:
			fmt.Fprintf(&b, "\t%s := %s.Lookup(%s, %d)", id(), id(), id(), r.IntN(100))
		case k < 12:
			fmt.Fprintf(&b, "// Größe %d: prüfe die Einträge — 日本語のコメント", i)
		case k < 14:
			fmt.Fprintf(&b, "\tlog.Printf(\"%s=%%v %s=%%v\", %s, %s)", id(), id(), id(), id())
		case k < 16:
			fmt.Fprintf(&b, "\tfor _, %s := range %s {", id(), id())
		case k < 17:
			b.WriteString("}")
		default:
			fmt.Fprintf(&b, "\t\t%s = append(%s, %s[%d])", id(), id(), id(), r.IntN(64))
		}
		b.WriteByte('\n')
	}
	return b.String()
})

var (
	sinkDigest [sha256.Size]byte
	sinkBytes  []byte
	sinkView   View
)

// BenchmarkBaseline is the unit: SHA-256 of the file plus one copy of it.
func BenchmarkBaseline(b *testing.B) {
	raw := benchText()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		sinkDigest = sha256.Sum256(bytesOf(raw))
		sinkBytes = []byte(raw)
	}
}

// BenchmarkRead is a whole-file read as the read path does it: index and
// tag the live text, render every row, record what was shown.
func BenchmarkRead(b *testing.B) {
	raw := benchText()
	s := NewSession()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		t := NewText(raw)
		sinkView = s.Read("bench.go", "bench.go", t, 1, t.Len())
	}
}

// BenchmarkEdit is one single-line replacement in the middle of a file the
// session has read: tag the live text, plan (parse, gates, apply, retag),
// and commit what landed. Two bodies alternate so every call changes the
// file.
func BenchmarkEdit(b *testing.B) {
	live := benchText()
	s := NewSession()
	t0 := NewText(live)
	s.Read("bench.go", "bench.go", t0, 1, t0.Len())
	mid := benchLines / 2
	ops := [2]string{
		fmt.Sprintf("PUT %d.=%d:\n+\treturn alpha(ctx) // edited", mid, mid),
		fmt.Sprintf("PUT %d.=%d:\n+\treturn beta(ctx) // edited", mid, mid),
	}
	b.SetBytes(int64(len(live)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t := NewText(live)
		p, err := s.Plan(EditRequest{Path: "bench.go", Display: "bench.go", Tag: string(t.Tag()), Ops: ops[i&1]}, t)
		if err != nil {
			b.Fatal(err)
		}
		s.Commit(p, "bench.go", p.New)
		live = p.New.Raw()
		i++
	}
}

// BenchmarkRecover is branch C on the benchmark file: read whole, then 1%
// of its lines changed behind the session's back (inserted, deleted or
// rewritten, at scattered places away from the anchor, some above it so
// the anchor moves), and a one-line replacement sent with the old tag.
// What is timed is Session.Plan: diff, proof, replay.
func BenchmarkRecover(b *testing.B) {
	raw := benchText()
	read := NewText(raw)
	s := NewSession()
	s.Read("bench.go", "bench.go", read, 1, read.Len())
	lines := strings.SplitAfter(raw, "\n")
	lines = lines[:len(lines)-1]
	// The anchor: a line of its own near the middle.
	anchor := benchLines / 2
	for !strings.HasPrefix(lines[anchor-1], "func handle") {
		anchor++
	}
	r := rand.New(rand.NewPCG(3, 4))
	var drifted []string
	changed := 0
	for i, l := range lines {
		n := i + 1
		// About one line in a hundred, never within 20 lines of the anchor.
		if n < anchor-20 || n > anchor+20 {
			if r.IntN(100) == 0 {
				changed++
				switch r.IntN(3) {
				case 0:
					drifted = append(drifted, fmt.Sprintf("\tinserted(%d)\n", n), l)
				case 1:
				default:
					drifted = append(drifted, fmt.Sprintf("\trewritten(%d)\n", n))
				}
				continue
			}
		}
		drifted = append(drifted, l)
	}
	live := NewText(strings.Join(drifted, ""))
	req := EditRequest{Path: "bench.go", Display: "bench.go", Tag: string(read.Tag()),
		Ops: fmt.Sprintf("PUT %d.=%d:\n+func handleRecovered(ctx context.Context) error {", anchor, anchor)}
	p, err := s.Plan(req, live)
	if err != nil {
		b.Fatalf("the edit was not recovered: %v", err)
	}
	remapped := false
	for _, w := range p.Warnings {
		remapped = remapped || w.Kind == WarnRecovered && strings.HasPrefix(w.Message, "line remap: ")
	}
	if !remapped || p.New.Len() != live.Len() || changed < benchLines/200 || changed > benchLines/50 {
		b.Fatalf("setup: %d lines changed, warnings %+v", changed, p.Warnings)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Plan(req, live); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchTextShape(t *testing.T) {
	raw := benchText()
	tx := NewText(raw)
	if tx.Len() != benchLines {
		t.Fatalf("%d lines, want %d", tx.Len(), benchLines)
	}
	if avg := len(raw) / benchLines; avg < 35 || avg > 45 {
		t.Fatalf("%d bytes per line on average, want about 40", avg)
	}
}

// scattered is the benchmark file with k lines inserted, deleted or
// rewritten at random places.
func scattered(k int) string {
	lines := strings.SplitAfter(benchText(), "\n")
	lines = lines[:len(lines)-1]
	r := rand.New(rand.NewPCG(5, 6))
	for e := 0; e < k; e++ {
		i := r.IntN(len(lines))
		switch r.IntN(3) {
		case 0:
			lines = slices.Insert(lines, i, fmt.Sprintf("\tinserted(%d)\n", e))
		case 1:
			lines = slices.Delete(lines, i, i+1)
		default:
			lines[i] = fmt.Sprintf("\trewritten(%d)\n", e)
		}
	}
	return strings.Join(lines, "")
}

var sinkDiff string

// BenchmarkLineDiff compares the two line diffs on the benchmark file:
// this package's (go-diff, exact) and go-udiff's (a bounded search), for
// one changed line, as an edit's displayed diff usually is, and for 100
// scattered changes, as drift recovery meets them. Each reports the lines
// it marks as removed or added: the fewer, the closer to the change.
func BenchmarkLineDiff(b *testing.B) {
	old := benchText()
	for _, k := range []int{1, 100} {
		new := scattered(k)
		for _, engine := range []struct {
			name    string
			unified func(a, b, old, new string) string
		}{{"go-diff", Unified}, {"go-udiff", udiff.Unified}} {
			b.Run(fmt.Sprintf("%s/%d", engine.name, k), func(b *testing.B) {
				changed := 0
				for _, l := range strings.Split(engine.unified("a", "b", old, new), "\n") {
					if strings.HasPrefix(l, "-") != strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
						changed++
					}
				}
				b.SetBytes(int64(len(old)))
				b.ReportAllocs()
				for b.Loop() {
					sinkDiff = engine.unified("a", "b", old, new)
				}
				b.ReportMetric(float64(changed), "changed-lines")
			})
		}
	}
}
