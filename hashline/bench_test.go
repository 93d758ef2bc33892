package hashline

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"

	"hashline-ls/internal/floor"
	"hashline-ls/internal/testenv"
)

// The benchmarks are read as ratios to the floor of every whole-file
// operation, one SHA-256 pass of the same bytes allocating nothing, timed
// in the same loop (package floor) and printed by scripts/benchratio.awk
// with their targets: Read within 1.8x of it, Edit within 2.8x, Recover
// within 8x, on the generated file and on the corpus files summed.
// BenchmarkBaseline, the floor with one copy of the bytes, is the unit of
// the figures before, kept beside them.

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

// benchCorpus is the inputs of the react-edit corpus: 60 real source
// files, mostly small, where what a call pays besides the digest counts.
var benchCorpus = sync.OnceValue(func() []string {
	names, _ := filepath.Glob(filepath.Join(testenv.SharedPath("corpus", "react-edit"), "*", "input", "*"))
	var texts []string
	for _, name := range names {
		if raw, err := os.ReadFile(name); err == nil {
			texts = append(texts, string(raw))
		}
	}
	return texts
})

func corpusTexts(b *testing.B) []string {
	testenv.Corpus(b, "react-edit")
	texts := benchCorpus()
	if len(texts) == 0 {
		b.Skip("no input files in the react-edit corpus")
	}
	return texts
}

var (
	sinkDigest [sha256.Size]byte
	sinkBytes  []byte
	sinkView   View
)

// BenchmarkSHA256 is the floor alone: one SHA-256 pass of the benchmark
// file, allocating nothing.
func BenchmarkSHA256(b *testing.B) {
	raw := benchText()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		sinkDigest = sha256.Sum256(bytesOf(raw))
	}
}

// BenchmarkBaseline is the unit of the figures before: SHA-256 of the file
// plus one copy of it.
func BenchmarkBaseline(b *testing.B) {
	raw := benchText()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		sinkDigest = sha256.Sum256(bytesOf(raw))
		sinkBytes = []byte(raw)
	}
}

// BenchmarkRead is a whole-file read as the read path does it, of a text
// the session has not seen: index and tag the live text, render every row,
// record what was shown. The read path builds the live text lazily
// (documents.Disk, documents.Store); a session that never read the file
// can only index and hash it.
func BenchmarkRead(b *testing.B) {
	benchReads(b, []string{benchText()})
}

// BenchmarkReadCorpus is BenchmarkRead of every corpus file, summed.
func BenchmarkReadCorpus(b *testing.B) {
	benchReads(b, corpusTexts(b))
}

func benchReads(b *testing.B, texts []string) {
	paths := benchPaths(len(texts))
	floor.Measure(b, "sha256", floor.SHA256(texts...), func() {
		s := NewSession()
		for i, raw := range texts {
			sinkView = s.Read(paths[i], paths[i], NewLazyText(raw), 1, MaxIRLines)
		}
	})
}

// BenchmarkFreshCopyCorpus is what BenchmarkReadCorpus's results cost to
// make, and no more: each text copied into a new string of the size of its
// rendered read. A read must return its rows as a new string; in a process
// whose heap holds little else, the collector runs every few megabytes
// allocated, and writing into memory it freed is what this measures.
func BenchmarkFreshCopyCorpus(b *testing.B) {
	texts := corpusTexts(b)
	sizes := make([]int, len(texts))
	s := NewSession()
	for i, raw := range texts {
		sizes[i] = len(s.Read("f.go", "f.go", NewText(raw), 1, MaxIRLines).Content)
	}
	floor.Measure(b, "sha256", floor.SHA256(texts...), func() {
		for i, raw := range texts {
			var w strings.Builder
			w.Grow(sizes[i])
			w.WriteString(raw)
			sinkBytes = bytesOf(w.String())
		}
	})
}

// BenchmarkWarmRead is BenchmarkRead of a text whose bytes the session
// holds, read anew (another copy of them): compared with what the session
// holds, not indexed, hashed or rendered again.
func BenchmarkWarmRead(b *testing.B) {
	raw := benchText()
	s := NewSession()
	s.Read("bench.go", "bench.go", NewText(raw), 1, benchLines)
	again := strings.Clone(raw)
	floor.Measure(b, "sha256", floor.SHA256(raw), func() {
		sinkView = s.Read("bench.go", "bench.go", NewLazyText(again), 1, benchLines)
	})
}

func benchPaths(n int) []string {
	paths := make([]string, n)
	for i := range paths {
		paths[i] = fmt.Sprintf("src/f%02d.go", i)
	}
	return paths
}

// BenchmarkEdit is one single-line replacement in the middle of a file the
// session has read: plan (tag the live text, parse, gates, apply, retag)
// and commit what landed. Two bodies alternate so every call changes the
// file. As in the server, the live text is built lazily from the bytes the
// last edit landed, and the request carries the tag that edit returned.
func BenchmarkEdit(b *testing.B) {
	benchEdits(b, []string{benchText()})
}

// BenchmarkEditCorpus is BenchmarkEdit of every corpus file, summed.
func BenchmarkEditCorpus(b *testing.B) {
	benchEdits(b, corpusTexts(b))
}

func benchEdits(b *testing.B, texts []string) {
	s := NewSession()
	paths := benchPaths(len(texts))
	live := slices.Clone(texts)
	tags := make([]Tag, len(texts))
	ops := make([][2]string, len(texts))
	for i, raw := range texts {
		t := NewText(raw)
		s.Read(paths[i], paths[i], t, 1, t.Len())
		tags[i] = t.Tag()
		mid := max(t.Len()/2, 1)
		ops[i] = [2]string{
			fmt.Sprintf("PUT %d.=%d:\n+\treturn alpha(ctx) // edited", mid, mid),
			fmt.Sprintf("PUT %d.=%d:\n+\treturn beta(ctx) // edited", mid, mid),
		}
	}
	k := 0
	floor.Measure(b, "sha256", func() { floor.SHA256(live...)() }, func() {
		for i := range live {
			p, err := s.Plan(EditRequest{Path: paths[i], Display: paths[i], Tag: string(tags[i]), Ops: ops[i][k&1]}, NewLazyText(live[i]))
			if err != nil {
				b.Fatal(err)
			}
			s.Commit(p, paths[i], p.New)
			live[i], tags[i] = p.New.Raw(), p.New.Tag()
		}
		k++
	})
}

// BenchmarkRecover is branch C on the benchmark file: read whole, then 1%
// of its lines changed behind the session's back (inserted, deleted or
// rewritten, at scattered places away from the anchor, some above it so
// the anchor moves), and a one-line replacement sent with the old tag.
// What is timed is Session.Plan: diff, proof, replay.
func BenchmarkRecover(b *testing.B) {
	benchRecovers(b, []string{benchText()})
}

// BenchmarkRecoverCorpus is BenchmarkRecover of every corpus file, summed.
func BenchmarkRecoverCorpus(b *testing.B) {
	benchRecovers(b, corpusTexts(b))
}

func benchRecovers(b *testing.B, texts []string) {
	s := NewSession()
	paths := benchPaths(len(texts))
	var reqs []EditRequest
	var lives []*Text
	var raws []string
	for i, raw := range texts {
		read := NewText(raw)
		s.Read(paths[i], paths[i], read, 1, read.Len())
		drifted, anchor, changed := driftBehind(raw, uint64(i))
		live := NewText(drifted)
		req := EditRequest{Path: paths[i], Display: paths[i], Tag: string(read.Tag()),
			Ops: fmt.Sprintf("PUT %d.=%d:\n+func handleRecovered(ctx context.Context) error {", anchor, anchor)}
		p, err := s.Plan(req, live)
		if err != nil {
			b.Fatalf("%s: the edit was not recovered: %v", paths[i], err)
		}
		// On the generated file the anchor must have moved; a corpus file
		// may have its one change below it.
		recovered, remapped := false, read.Len() < benchLines
		for _, w := range p.Warnings {
			recovered = recovered || w.Kind == WarnRecovered
			remapped = remapped || w.Kind == WarnRecovered && strings.HasPrefix(w.Message, "line remap: ")
		}
		if n := read.Len(); !recovered || !remapped || p.New.Len() != live.Len() || changed != max(n/100, 1) {
			b.Fatalf("%s: setup: %d of %d lines changed, warnings %+v", paths[i], changed, n, p.Warnings)
		}
		reqs, lives, raws = append(reqs, req), append(lives, live), append(raws, drifted)
	}
	floor.Measure(b, "sha256", floor.SHA256(raws...), func() {
		for i, req := range reqs {
			if _, err := s.Plan(req, lives[i]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// driftBehind changes 1% of the lines of raw (at least one), each
// inserted before, deleted or rewritten, at random places away from a line
// that occurs once near the middle: the anchor it returns, with the number
// of lines changed.
func driftBehind(raw string, seed uint64) (drifted string, anchor, changed int) {
	lines := strings.SplitAfter(raw, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	count := map[string]int{}
	for _, l := range lines {
		count[l]++
	}
	anchor = len(lines) / 2
	for anchor < len(lines) && (count[lines[anchor-1]] > 1 || strings.TrimSpace(lines[anchor-1]) == "") {
		anchor++
	}
	near := min(20, len(lines)/8)
	r := rand.New(rand.NewPCG(3, 4+seed))
	pick := map[int]bool{}
	for len(pick) < max(len(lines)/100, 1) {
		if n := 1 + r.IntN(len(lines)); n < anchor-near || n > anchor+near {
			pick[n] = true
		}
	}
	var out []string
	for i, l := range lines {
		n := i + 1
		if !pick[n] {
			out = append(out, l)
			continue
		}
		switch r.IntN(3) {
		case 0:
			out = append(out, fmt.Sprintf("\tinserted(%d)\n", n), l)
		case 1:
		default:
			out = append(out, fmt.Sprintf("\trewritten(%d)\n", n))
		}
	}
	return strings.Join(out, ""), anchor, len(pick)
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
