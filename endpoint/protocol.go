package endpoint

import "encoding/json"

// Protocol is the number of the bridge protocol described in the package
// doc. Both ends send it in hello; a server refuses any other.
const Protocol = 1

// The methods of the bridge protocol.
const (
	MethodHello   = "hashline/hello"
	MethodExecute = "hashline/execute"
	MethodCancel  = "$/cancelRequest"
)

// Hello is what the MCP process sends first.
type Hello struct {
	Protocol int      `json:"protocol"`
	Version  string   `json:"version"`
	PID      int      `json:"pid"`
	Roots    []string `json:"roots"` // canonical absolute folders
}

// Welcome is the server's answer to Hello.
type Welcome struct {
	Protocol int      `json:"protocol"`
	Version  string   `json:"version"`
	PID      int      `json:"pid"`
	Folders  []string `json:"folders"`
	// Save says whether the editor saves what a bridged edit left in its
	// buffers (hashline/saveDocument).
	Save bool `json:"save"`
}

// Execute is one command the MCP process forwards.
type Execute struct {
	Command   string          `json:"command"`
	Arguments json.RawMessage `json:"arguments"`
	// Via is how the peer got the call ("MCP"), for the messages that
	// refuse what a connection's session does not take.
	Via string `json:"via,omitempty"`
}

// Socket is the path of the socket pid publishes in r.
func (r *Registry) Socket(pid int) string { return r.socketPath(pid) }
