package commands_test

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hashline-ls/commands"
	"hashline-ls/endpoint"
	"hashline-ls/lsp/lsptest"
	"hashline-ls/mcp"
	"hashline-ls/workspace"
)

// Every front end hands the commands one Call, and its argument object is
// decoded once, by Run: over executeCommand, over MCP on the disk, and over
// MCP through the bridge to an editor's server.
func TestArgumentsDecodedOnce(t *testing.T) {
	e, reg := lsptest.Bridged(t, lsptest.VSCode())
	e.WriteFile("f.txt", "a\n")
	once := func(what string, call func()) {
		t.Helper()
		before := commands.Decodes.Load()
		call()
		if n := commands.Decodes.Load() - before; n != 1 {
			t.Errorf("%s: the arguments were decoded %d times, want once", what, n)
		}
	}
	once("executeCommand", func() { e.Read("f.txt") })

	roots, err := workspace.New(e.Root())
	if err != nil {
		t.Fatal(err)
	}
	disk := mcp.NewDisk(roots, nil)
	list, err := reg.List()
	if err != nil {
		t.Fatal(err)
	}
	choice, err := endpoint.Choose(list, []string{e.Root()}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for name, backend := range map[string]mcp.Backend{"MCP on the disk": disk, "MCP through the bridge": mcp.NewBridge(reg, choice, roots, disk, nil)} {
		cs := mcpClient(t, backend)
		once(name, func() {
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "hashline_read", Arguments: map[string]any{"path": "f.txt"}})
			if err != nil || res.IsError {
				t.Fatalf("%s: %v %+v", name, err, res)
			}
		})
	}
}

// mcpClient connects an MCP client to a server on backend, in memory.
func mcpClient(t *testing.T, backend mcp.Backend) *sdk.ClientSession {
	t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	srv := &mcp.Server{Backend: backend}
	go func() { _ = srv.Serve(context.Background(), st) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
