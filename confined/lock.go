package confined

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// MaxLockWait bounds how long Lock waits for another process to let go.
const MaxLockWait = 10 * time.Second

// ErrBusy is a lock another process held for all of MaxLockWait.
var ErrBusy = errors.New("held by another process")

// Lock takes the cross-process lock of each folder, the one lock every
// hashline process (the shell verbs, the MCP server, the language server
// writing to disk) holds from comparing a file with what it was proven
// against to replacing it, so two processes with one tag cannot both land.
// On Unix it is an flock on the folder itself, which a rename inside it
// does not move and which leaves no file behind; on Windows, where a folder
// cannot be locked, a LockFileEx on a file named after the folder's ID
// (lock_windows.go). Either way the system drops it when the process dies.
// Folders are locked in the order of their IDs, each once, so two callers
// cannot deadlock. The returned func releases every lock.
func Lock(ctx context.Context, dirs ...*Dir) (func(), error) {
	type keyed struct {
		id ID
		d  *Dir
	}
	var ks []keyed
	for _, d := range dirs {
		id, err := d.ID()
		if err != nil {
			return nil, err
		}
		ks = append(ks, keyed{id, d})
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.id.Dev, b.id.Dev), cmp.Compare(a.id.Ino, b.id.Ino))
	})
	ks = slices.CompactFunc(ks, func(a, b keyed) bool { return a.id == b.id })
	var held []*Dir
	unlock := func() {
		for _, d := range held {
			d.unlock()
		}
	}
	for _, k := range ks {
		if err := k.d.lock(ctx); err != nil {
			unlock()
			return nil, err
		}
		held = append(held, k.d)
	}
	return unlock, nil
}

// lock takes d's lock, polling so that a cancelled ctx or a process that
// holds it too long ends the wait.
func (d *Dir) lock(ctx context.Context) error {
	deadline := time.Now().Add(MaxLockWait)
	pause := time.Millisecond
	for {
		busy, err := d.tryLock()
		if err == nil && !busy {
			return nil
		}
		if err != nil {
			return fmt.Errorf("lock %s: %w", d.name, err)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("lock %s: %w for %s", d.name, ErrBusy, MaxLockWait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 20*time.Millisecond)
	}
}
