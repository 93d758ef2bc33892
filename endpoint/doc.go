// Package endpoint owns the local endpoints through which a hashline-ls MCP
// process finds, and reaches, the language server that a running editor
// started: the per-user folder they live in, the socket and info file each
// server publishes there, listing them with stale entries removed, choosing
// the one that serves a set of roots, and the credential check every
// connection passes. It knows nothing of MCP, LSP or the commands; the
// protocol spoken over a connection is described below and implemented by
// the two ends.
//
// # The folder
//
// hashline-<uid> in $TMPDIR, else in /tmp. It is found from the uid and
// TMPDIR alone because MCP hosts start their servers with a reduced
// environment: Codex keeps TMPDIR but drops XDG_RUNTIME_DIR and every other
// XDG_* variable. The folder must be a directory (not a link) owned by the
// user with mode 0700; anything else is refused and nothing in it is used,
// since whoever controls the folder could stand in for an editor.
//
// On Windows it is hashline-ls\endpoints in the user's local application
// data, found without LOCALAPPDATA when that is missing, created with a
// DACL that admits the user alone and refused unless it admits no one but
// its owner, SYSTEM and the Administrators (folder_windows.go).
//
// # Entries
//
// A server in LSP mode publishes PID.sock, a Unix stream socket, and then
// PID.json, its Info: pid, workspace folders, version, start time and the
// socket's name. The info file appears by rename, so a reader sees all of it
// or nothing. An entry whose process is gone, or whose socket refuses
// connections (its pid was reused), is stale; List and Dial remove it.
// On Windows the socket is a named pipe whose name carries a digest of the
// folder (pipe_windows.go); the pipe goes with its process, so the folder
// holds only the info file. Nothing listens on TCP.
//
// # Choosing
//
// A server is eligible when every root of the MCP process lies inside one of
// its workspace folders, so a single call never mixes editor and disk. Among
// the eligible, the one whose folder holding the first root is deepest
// serves; equal depths go to the most recently started. The others are
// reported, so the caller can warn and offer --editor PID.
//
// # Peers
//
// Both ends check the other's credentials on every connection (SO_PEERCRED
// on Linux, LOCAL_PEERCRED on macOS, the user of the process at the pipe's
// other end on Windows): a peer of another user is closed before a byte is
// read or written; where the peer cannot be told, every connection is. The
// folder's mode already keeps other users out; the check holds even where it
// would not, as for root.
//
// # The bridge protocol
//
// Over the socket or pipe: JSON-RPC 2.0 in the LSP base protocol's
// Content-Length framing, the codec the language server already speaks. The MCP process
// sends requests; the language server answers.
//
//	hashline/hello     params {"protocol": 1, "version", "pid", "roots": [absolute folder, ...]}
//	                   result {"protocol": 1, "version", "pid", "folders": [...], "save": bool}
//	hashline/execute   params {"command": "hashline.read", "arguments": {...}}
//	                   result the command's result object, exactly as
//	                          workspace/executeCommand returns it, text included
//	$/cancelRequest    as in LSP
//
// hello comes first and once. The server refuses it (an error, then it
// closes the connection) when the protocol number differs or a root is not
// inside its workspace folders; a connection whose roots a later change of
// the folders leaves out is closed. Otherwise it serves the connection with a
// command server of its own: the roots are the MCP process's roots, so
// relative paths and headers read as they do on disk, while text comes from
// the editor's documents and edits go out as workspace/applyEdit; its
// session is the connection's, with read-before-edit and provenance, and
// ends when the connection closes. execute carries no session: a session
// argument is refused, with a result. The MCP process confines every path
// to its own roots before it forwards a call (the path argument, an MV
// destination, a patch's sections), whatever the server would accept.
// Types for hello and execute are in protocol.go.
//
// The language server says where its endpoint is in its answer to
// initialize, capabilities.experimental.hashline: {"endpoint": socket} or
// {"endpoint": null, "endpointProblem": why}, for the editor to show.
//
// save says whether the editor implements hashline/saveDocument, a request
// from the language server to the editor over their LSP connection, params
// {"uri"}, result {"saved": bool, "reason"?}. An editor offers it with
// initializationOptions {"hashline": {"saveDocument": true}}. After a
// bridged edit lands, the server asks for the save when the buffer's text
// before the edit equalled the file on disk, or the editor did not hold the
// file; the editor saves through its own save path (format-on-save runs),
// and the server retags what ended in the buffer and on disk, once the
// two agree. A buffer that held unsaved changes is not saved, and the
// result warns in one line; so does an editor without the request, or one
// that answers saved false. A file the disk already holds as edited is
// not asked for. Only bridged calls save: the editor's own assistants'
// edits are left for the user to save.
//
// End of file or a reset on the socket means the editor went away. The MCP
// process serves the next call on the disk, with a session of its own, so
// every tag the editor minted is EDIT_TAG_UNKNOWN there and nothing is
// written against text the disk never checked; that result warns once. A
// write cut off before its answer may have landed, so it is not run again
// on the disk: it fails with TOOL_FAILED, telling the model to read first.
//
// docs/design.md §8 describes the bridge as a whole.
package endpoint
