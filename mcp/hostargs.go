package mcp

import "encoding/json"

// hostControls are the arguments MCP hosts are known to add, for their own
// use, to every tool's schema they forward and so to the calls their
// models make. None is the model's request to the server: they are dropped
// before the command sees the call, and any other argument the schema does
// not name is still refused, naming it.
var hostControls = []string{
	// Gemini CLI: its model sets it on a call that must wait for the ones
	// before it.
	"wait_for_previous",
}

// withoutHostControls is args without the host controls it holds; args
// itself when it holds none.
func withoutHostControls(args map[string]json.RawMessage, raw json.RawMessage) (json.RawMessage, error) {
	dropped := false
	for _, k := range hostControls {
		if _, ok := args[k]; ok {
			delete(args, k)
			dropped = true
		}
	}
	if !dropped {
		return raw, nil
	}
	return json.Marshal(args)
}
