//go:build unix

package floor

import (
	"time"

	"golang.org/x/sys/unix"
)

// processCPU is the CPU time the process has used, on every thread: an
// operation that puts work on another processor is not faster by its wall
// time alone.
func processCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
