//go:build linux || windows

package testenv

import (
	"sync"
	"sync/atomic"
	"testing"
)

// Swap exchanges a and b over and over, to race what the test does with
// them, until stop is called or the test ends; stop reports how many swaps
// were made. Linux swaps them in one step; Windows, which cannot, in three
// renames, so for a moment one of the names is missing.
func Swap(t testing.TB, a, b string) (stop func() int) {
	t.Helper()
	var swaps atomic.Int64
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			default:
			}
			if err := exchange(a, b); err != nil {
				t.Errorf("exchange: %v", err)
				return
			}
			swaps.Add(1)
		}
	}()
	var once sync.Once
	stop = func() int {
		once.Do(func() { close(quit) })
		<-done
		return int(swaps.Load())
	}
	t.Cleanup(func() { stop() })
	return stop
}
