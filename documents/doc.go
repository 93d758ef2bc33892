// Package documents owns the live text of files: what the editor holds for
// the documents it has open and, for every other file, what is on disk. For
// open documents a Store keeps the text from didOpen, didChange and
// didClose, with positions counted in the negotiated encoding (UTF-16, UTF-8
// or UTF-32). It also carries a change set to the disk when no editor applies
// it, each file opened beneath its root and replaced atomically under a
// cross-process lock (docs/design.md §6.3), and its Landing decides, for the editor
// and the disk alike, whether a change set landed and what text it left.
//
// docs/design.md §5 and docs/design.md §6 describe the writes it serves.
package documents
