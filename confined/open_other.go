//go:build unix && !linux

package confined

import "os"

// openBeneath opens rel beneath root with flag. Links are followed only
// while they stay beneath root.
func openBeneath(root, rel string, flag int, perm uint32) (*os.File, error) {
	return walkBeneath(root, rel, flag, perm)
}
