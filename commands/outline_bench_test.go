package commands

import (
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/hashline/blocks"
	"hashline-ls/internal/testenv"
)

// readLessExts are the languages BenchmarkReadLess measures: those with
// real files of 1,000 lines or more in the Go tree or the vendored plugins.
var readLessExts = []string{".go", ".lua", ".md", ".json", ".rs", ".py"}

// BenchmarkReadLess measures what reading less saves, over real files of
// 1,000 lines or more in each language: for each top-level symbol of each
// file, the bytes of the file's outline and of the symbol's read, divided
// by the bytes of a read of the whole file, as a model receives them (the
// results' text). It reports the median and the 90th percentile of that
// ratio (target: median <= 0.2). The top level is the shallowest one that
// holds more than one symbol, so a document under one title is measured by
// its sections. A name two symbols share is read by its lines, as the
// refusal of the symbol read says to. The loop times the whole reads, the
// outlines and the symbol reads of every file, on a server that has read
// none of them.
func BenchmarkReadLess(b *testing.B) {
	found := testenv.Large(b, "neovim-plugins", 1000, 8, readLessExts...)
	r := blocks.New()
	for _, ext := range readLessExts {
		files := map[string]string{}
		for _, f := range found[ext] {
			if clean, _ := r.Parses(f.Path, f.Text); clean {
				files[filepath.ToSlash(filepath.Join(f.Where, f.Path))] = f.Text
			}
		}
		if len(files) == 0 {
			continue
		}
		b.Run(strings.TrimPrefix(ext, "."), func(b *testing.B) {
			s, _ := outlineServer(b, files)
			ratios, reads := readLess(b, s, files)
			slices.Sort(ratios)
			b.ResetTimer()
			for b.Loop() {
				// A server of its own: what it keeps of the last loop's
				// outlines is not what a model's first reads find.
				s := &Server{Roots: s.Roots, Sessions: hashline.NewSessions(), Source: s.Source, Sink: s.Sink, Blocks: s.Blocks}
				for _, args := range reads {
					if _, err := s.Run(context.Background(), Call{Command: CmdRead, Args: args}); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(files)), "files")
			b.ReportMetric(float64(len(ratios)), "symbols")
			b.ReportMetric(percentile(ratios, 50), "median-bytes-x")
			b.ReportMetric(percentile(ratios, 90), "p90-bytes-x")
		})
	}
}

// readLess works out the ratio of every top-level symbol of files, which
// s's workspace holds, and the reads that make them.
func readLess(b *testing.B, s *Server, files map[string]string) (ratios []float64, reads []json.RawMessage) {
	b.Helper()
	run := func(args map[string]any) Result {
		raw, _ := json.Marshal(args)
		res, err := s.Run(context.Background(), Call{Command: CmdRead, Args: raw})
		if err != nil {
			b.Fatal(err)
		}
		reads = append(reads, raw)
		return res
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		text := files[name]
		whole := run(map[string]any{"path": name, "limit": strings.Count(text, "\n") + 1})
		outline := run(map[string]any{"path": name, "view": "outline"})
		o, ok := outline.(*ReadResult)
		if !ok {
			b.Fatalf("%s: %s", name, outline.Rendered())
		}
		var mine []float64
		for _, sym := range topLevel(o.Symbols) {
			var res Result
			if sym.Qualified != "" {
				res = run(map[string]any{"path": name, "symbol": sym.Qualified})
			}
			if _, read := res.(*ReadResult); !read {
				res = run(map[string]any{"path": name, "offset": sym.Start, "limit": sym.End - sym.Start + 1})
			}
			mine = append(mine, float64(len(o.Text)+len(res.Rendered()))/float64(len(whole.Rendered())))
		}
		slices.Sort(mine)
		b.Logf("%s: %d lines, %d top-level symbols, outline %.3f of the whole read, median %.3f", name, strings.Count(text, "\n"), len(mine),
			float64(len(o.Text))/float64(len(whole.Rendered())), percentile(mine, 50))
		ratios = append(ratios, mine...)
	}
	return ratios, reads
}

// topLevel is the shallowest level of syms that holds more than one.
func topLevel(syms []OutlineSymbol) []OutlineSymbol {
	for depth := 0; ; depth++ {
		var level []OutlineSymbol
		deeper := false
		for _, s := range syms {
			switch {
			case s.Depth == depth:
				level = append(level, s)
			case s.Depth > depth:
				deeper = true
			}
		}
		if len(level) != 1 || !deeper {
			return level
		}
	}
}

// percentile of sorted xs, by the nearest rank.
func percentile(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	i := (len(xs)*p + 99) / 100
	return xs[max(i-1, 0)]
}
