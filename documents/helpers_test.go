package documents

import (
	"testing"

	"hashline-ls/workspace"
)

// diskAt is a Disk whose one root is dir.
func diskAt(t *testing.T, dir string) Disk {
	t.Helper()
	roots, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Disk{Roots: roots}
}
