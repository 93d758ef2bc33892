package blocks

import (
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// golang.org/x/sys/windows wraps GetProcessTimes but not GetThreadTimes.
var getThreadTimes = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetThreadTimes")

// threadCPU is the CPU time of the calling thread, which the benchmark
// has locked to its goroutine: kernel and user time, in 100 ns units.
func threadCPU(b *testing.B) time.Duration {
	var created, exited, kernel, user windows.Filetime
	r, _, err := getThreadTimes.Call(uintptr(windows.CurrentThread()),
		uintptr(unsafe.Pointer(&created)), uintptr(unsafe.Pointer(&exited)),
		uintptr(unsafe.Pointer(&kernel)), uintptr(unsafe.Pointer(&user)))
	if r == 0 {
		b.Fatal(err)
	}
	ticks := func(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration(ticks(kernel)+ticks(user)) * 100
}
