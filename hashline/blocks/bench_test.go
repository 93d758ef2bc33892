package blocks

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"hashline-ls/internal/testenv"
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

// benchExts are the languages the outline benchmarks measure, by a file
// extension: those with real files of 1,000 lines or more in the Go tree
// or the vendored plugins.
var benchExts = []string{".go", ".lua", ".md", ".json", ".rs", ".py"}

// largeFiles are real files of 1,000 lines or more, up to 8 of each
// language, that parse cleanly; the others are logged.
func largeFiles(b *testing.B) map[string][]testenv.RealText {
	found := testenv.Large(b, "neovim-plugins", 1000, 8, benchExts...)
	r := New()
	for ext, files := range found {
		var clean []testenv.RealText
		for _, f := range files {
			if ok, _ := r.Parses(f.Path, f.Text); ok {
				clean = append(clean, f)
			} else {
				b.Logf("%s does not parse cleanly: left out", f.Name())
			}
		}
		found[ext] = clean
	}
	return found
}

// BenchmarkOutline times the outline of real files of 1,000 lines or more
// against the tree-sitter parse of the same text alone, in the same loop,
// file by file, taking turns at which goes first, and reports outline
// time / parse time (target <= 1.3): in CPU time of the thread that does
// the work, which other work on the machine does not inflate, and in wall
// time.
func BenchmarkOutline(b *testing.B) {
	found := largeFiles(b)
	r := New()
	for _, ext := range benchExts {
		files := found[ext]
		if len(files) == 0 {
			continue
		}
		b.Run(strings.TrimPrefix(ext, "."), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			grammar := lookup(files[0].Path).grammar
			parse := func(f testenv.RealText) {
				parser := sitter.NewParser()
				defer parser.Close()
				parser.SetLanguage(grammar)
				tree, err := parser.ParseCtx(context.Background(), nil, []byte(f.Text))
				if err != nil {
					b.Fatal(err)
				}
				tree.Close()
			}
			outline := func(f testenv.RealText) {
				if _, err := r.Outline(f.Path, f.Text, nil); err != nil {
					b.Fatal(err)
				}
			}
			var cpu, wall [2]time.Duration // parse, outline
			timed := func(i int, f testenv.RealText, run func(testenv.RealText)) {
				c, w := threadCPU(b), time.Now()
				run(f)
				cpu[i] += threadCPU(b) - c
				wall[i] += time.Since(w)
			}
			size := 0
			for _, f := range files {
				size += len(f.Text)
			}
			b.SetBytes(int64(size))
			turn := 0
			for b.Loop() {
				for _, f := range files {
					if turn++; turn%2 == 0 {
						timed(0, f, parse)
						timed(1, f, outline)
					} else {
						timed(1, f, outline)
						timed(0, f, parse)
					}
				}
			}
			b.ReportMetric(float64(len(files)), "files")
			b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "outline/parse-x")
			b.ReportMetric(float64(wall[1])/float64(wall[0]), "wall-outline/parse-x")
		})
	}
}
