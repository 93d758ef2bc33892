package commands

// Helpers of the internal tests that the external ones (package
// commands_test, which can drive the server through lsptest) share.
var (
	NewTestServer = newServer
	Do            = call
	MustRead      = mustOK[*ReadResult]
	RowAnchors    = rowAnchors
	ReadFile      = readFile
	// Decodes counts the argument objects Run decoded.
	Decodes = &decodes
)
