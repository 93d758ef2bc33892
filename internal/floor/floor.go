// Package floor times an operation beside the least that any operation on
// the same bytes must cost (one SHA-256 pass, one copy), alternating the two
// in one benchmark loop. On a shared machine the load changes from one
// second to the next, so two benchmarks run one after the other can differ
// by more than the ratio they are meant to show; two calls a few
// microseconds apart see the same machine.
package floor

import (
	"crypto/sha256"
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"
)

// SHA256 is the floor of an operation on texts: one SHA-256 pass of each,
// of the bytes where they lie, allocating nothing.
func SHA256(texts ...string) func() {
	return func() {
		for _, t := range texts {
			d := sha256.Sum256(unsafe.Slice(unsafe.StringData(t), len(t)))
			runtime.KeepAlive(&d)
		}
	}
}

// Measure runs floor and op alternately until the benchmark has run long
// enough, and reports for op alone: ns/op (the median), B/op and allocs/op
// (floor's own allocations taken out), and x-unit, the median over the
// iterations of op's time divided by floor's, with unit-ns/op, floor's
// median time, beside it. Where the process's CPU time can be read it also
// reports cpu-x-unit, the same ratio of the CPU time both used on all
// threads, so that work moved to another processor still shows.
func Measure(b *testing.B, unit string, floor, op func()) {
	b.Helper()
	floorAllocs, floorBytes := allocs(floor)
	var ops, floors []time.Duration
	var ratios, cpuRatios []float64
	_, cpu := processCPU()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		c0, _ := processCPU()
		t0 := time.Now()
		floor()
		t1 := time.Now()
		c1, _ := processCPU()
		t2 := time.Now()
		op()
		t3 := time.Now()
		c2, _ := processCPU()
		ops, floors = append(ops, t3.Sub(t2)), append(floors, t1.Sub(t0))
		ratios = append(ratios, float64(t3.Sub(t2))/float64(max(t1.Sub(t0), 1)))
		if c1 <= c0 {
			// The clock did not move across a floor: it is not telling
			// (it stands still under -cpuprofile here).
			cpu = false
		}
		cpuRatios = append(cpuRatios, float64(c2-c1)/float64(max(c1-c0, 1)))
	}
	runtime.ReadMemStats(&after)
	n := float64(len(ops))
	b.ReportMetric(float64(median(ops)), "ns/op")
	b.ReportMetric(float64(median(floors)), unit+"-ns/op")
	b.ReportMetric(median(ratios), "x-"+unit)
	if cpu {
		b.ReportMetric(median(cpuRatios), "cpu-x-"+unit)
	}
	b.ReportMetric(max(float64(after.Mallocs-before.Mallocs)/n-floorAllocs, 0), "allocs/op")
	b.ReportMetric(max(float64(after.TotalAlloc-before.TotalAlloc)/n-floorBytes, 0), "B/op")
}

// allocs is what one call of f allocates.
func allocs(f func()) (count, bytes float64) {
	const runs = 3
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / runs, float64(after.TotalAlloc-before.TotalAlloc) / runs
}

func median[T float64 | time.Duration](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
