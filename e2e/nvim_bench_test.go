package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hashline-ls/internal/testenv"
	"hashline-ls/lsp/lsptest"
)

// benchSamples is how many timed edits each side makes.
const benchSamples = 100

// BenchmarkNeovimEdit2000 times one-line edits of a 2,000-line buffer
// through the Neovim plugin's Lua API in real Neovim, with its default
// didChange debounce, beside the same edits through lsptest's headless
// pipe client measured in the same run. It reports the medians and 90th
// percentiles of both, in milliseconds; scripts/benchratio.awk holds the
// plugin's median to within 5 ms of the pipe client's. Run it with
// -benchtime 1x: each run makes its own fixed number of edits.
func BenchmarkNeovimEdit2000(b *testing.B) {
	bin := buildServer(b)
	for _, nv := range testenv.Neovims(b) {
		b.Run(nv.Name, func(b *testing.B) {
			nvim := nv.Use(b)
			for b.Loop() {
				pipe := pipeEditTimes(b, benchSamples)
				plugin := neovimEditTimes(b, nvim, bin, benchSamples)
				b.ReportMetric(0, "ns/op")
				b.ReportMetric(percentile(plugin, 50), "p50-ms")
				b.ReportMetric(percentile(plugin, 90), "p90-ms")
				b.ReportMetric(percentile(pipe, 50), "pipe-p50-ms")
				b.ReportMetric(percentile(pipe, 90), "pipe-p90-ms")
			}
		})
	}
}

// benchText is the 2,000-line buffer both sides edit.
func benchText() string {
	var text strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&text, "\tfmt.Println(\"héllo, 世界 😀\", i, %d) // line %d\n", i*7, i)
	}
	return text.String()
}

// pipeEditTimes makes n timed edits through the pipe client, an editor that
// announces what Neovim 0.7 does and sends its didChange right before it
// answers applyEdit.
func pipeEditTimes(b *testing.B, n int) []time.Duration {
	opts := lsptest.Neovim()
	opts.Quiet = true
	e := lsptest.New(b, opts)
	e.SetBehaviour(lsptest.ApplyBehaviour{BeforeAnswer: true})
	e.WriteFile("big.go", benchText())
	e.Open("big.go", 0)
	tag := e.Read("big.go").Tag
	var times []time.Duration
	for i := 1; i <= n+5; i++ {
		start := time.Now()
		tag = e.Edit("big.go", tag, fmt.Sprintf("PUT 1000.=1000:\n+\tfmt.Println(%d) // edited", i)).Tag
		if i > 5 {
			times = append(times, time.Since(start))
		}
	}
	return times
}

// neovimEditTimes makes n timed edits through the plugin in nvim
// (testdata/nvim_plugin/bench.lua).
func neovimEditTimes(b *testing.B, nvim, bin string, n int) []time.Duration {
	results := runPluginScript(b, nvim, bin, "bench.lua", func(root string) {
		if err := os.WriteFile(filepath.Join(root, "big.go"), []byte(benchText()), 0o644); err != nil {
			b.Fatal(err)
		}
	}, "HASHLINE_BENCH_SAMPLES="+strconv.Itoa(n))
	var times []time.Duration
	for _, l := range strings.Split(results, "\n") {
		if us, ok := strings.CutPrefix(l, "edit_us "); ok {
			v, err := strconv.Atoi(us)
			if err != nil {
				b.Fatalf("bench.lua wrote %q", l)
			}
			times = append(times, time.Duration(v)*time.Microsecond)
		}
	}
	if len(times) != n {
		b.Fatalf("bench.lua timed %d edits, not %d:\n%s", len(times), n, results)
	}
	return times
}

// percentile is the p-th percentile of times, in milliseconds.
func percentile(times []time.Duration, p int) float64 {
	s := slices.Clone(times)
	slices.Sort(s)
	i := (len(s)*p+99)/100 - 1
	return float64(s[max(i, 0)]) / float64(time.Millisecond)
}
