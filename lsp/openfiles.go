package lsp

import "hashline-ls/commands"

var _ commands.OpenFiles = source{}

// IsOpen reports whether the editor holds abs open; grep reads every other
// file straight from the disk.
func (src source) IsOpen(abs string) bool {
	_, ok := src.s.docs.Get(abs)
	return ok
}
