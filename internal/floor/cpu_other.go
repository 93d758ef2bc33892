//go:build !unix

package floor

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
