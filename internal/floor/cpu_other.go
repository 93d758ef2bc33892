//go:build !unix

package floor

import "time"

// processCPU reads no clock here: Measure then reports wall time alone.
func processCPU() (time.Duration, bool) { return 0, false }
