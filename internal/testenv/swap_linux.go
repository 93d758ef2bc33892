package testenv

import (
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// Swap exchanges a and b (RENAME_EXCHANGE) over and over, to race what the
// test does with them, until stop is called or the test ends; stop reports
// how many swaps were made.
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
			if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
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

// ResetIn writes text to name in the folder dir, wherever it is named now.
func ResetIn(t testing.TB, dir *os.File, name, text string) {
	t.Helper()
	fd, err := unix.Openat(int(dir.Fd()), name, unix.O_WRONLY|unix.O_TRUNC|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
