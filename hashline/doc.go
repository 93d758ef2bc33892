// Package hashline is the pure engine of hashline-ls: it turns file text into
// tagged, numbered lines, remembers what each session was shown, parses the
// PUT/CUT patch language, and proves an edit safe against the live text before
// computing the new text.
//
// Nothing here performs I/O or knows about LSP. Callers hand in the live text
// of a file and get back either the exact new text (with the line hunks that
// produce it) or an *Error whose message names the next step. Writing, and
// telling the core what actually landed, is the edge's job.
//
// The rules it enforces are stated in docs/contract.md.
package hashline
