package commands

import (
	"runtime/debug"
	"sync"
)

// giveBack hands the memory of dropped sessions back to the system, on a
// goroutine of its own. The collector frees their snapshots on its next
// cycle, but the runtime returns freed pages to the system only slowly, so
// a server would keep the size of its fullest moment for minutes.
// debug.FreeOSMemory collects and returns them at once; it costs one full
// collection, and sessions end rarely. At most one runs at a time: a
// request that comes while one runs makes one more run after it.
func giveBack() { released.request() }

var released releaser

type releaser struct {
	mu      sync.Mutex // guards running and again
	running bool
	again   bool
}

func (r *releaser) request() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running {
		r.again = true
		return
	}
	r.running = true
	go r.run()
}

func (r *releaser) run() {
	for {
		debug.FreeOSMemory()
		r.mu.Lock()
		if !r.again {
			r.running = false
			r.mu.Unlock()
			return
		}
		r.again = false
		r.mu.Unlock()
	}
}
