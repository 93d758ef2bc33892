// Package mcp is the MCP front end of hashline-ls (hashline-ls mcp): it
// serves the five tools of describe over the Model Context Protocol, for
// terminal agents and every other MCP host.
//
// The tools are describe's, byte for byte: names, descriptions and input
// schemas come from commands.Tools and the server's instructions from
// commands.Guidance, so no host is told anything the editors are not. A
// call takes the arguments of the matching command; its answer is one text
// block holding the result's rendered text, and isError exactly when the
// result's ok is false.
// Arguments are checked by the commands against the published schemas,
// never by the host, which may drop parts of a schema before a model sees
// it.
//
// One MCP connection is one session (docs/contract.md §2.1): its own snapshot store,
// registers and repeat guard, with read-before-edit and provenance. A tag
// another connection read is unknown here. The session ends with the
// connection.
//
// A Backend runs the commands. Disk works on the files directly, with the
// shell verbs' confinement and atomic writes; the bridge to a running
// editor's server (see package endpoint) is another Backend.
//
// docs/design.md §8 describes the bridge, docs/design.md §9.2 this front end.
package mcp
