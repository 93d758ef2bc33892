//go:build linux

package confined

// forceWalk makes a Root walk even where openat2 works, so tests run the
// walk on every kernel.
var forceWalk = false
