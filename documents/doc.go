// Package documents owns the live text of files: what the editor holds for
// the documents it has open and, for every other file, what is on disk. It
// also carries a change set to the disk when no editor applies it, writing
// each file atomically.
package documents
