package commands

// hostControls are the arguments MCP hosts are known to add, for their own
// use, to every tool's schema they forward and so to the calls their
// models make. None is the model's request to the server: they are dropped
// before the schema check, and any other argument the schema does not name
// is still refused, naming it.
var hostControls = []string{
	// Gemini CLI: its model sets it on a call that must wait for the ones
	// before it.
	"wait_for_previous",
}

// dropHostControls deletes the host controls from a call's decoded
// arguments.
func dropHostControls(values map[string]any) {
	for _, k := range hostControls {
		delete(values, k)
	}
}
