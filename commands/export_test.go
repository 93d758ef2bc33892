package commands

// Helpers of the internal tests that the external ones (package
// commands_test, which can drive the server through lsptest) share.
var (
	NewTestServer = newServer
	Call          = call
	MustRead      = mustOK[*ReadResult]
	RowAnchors    = rowAnchors
	ReadFile      = readFile
)
