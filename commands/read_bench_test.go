package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"hashline-ls/internal/floor"
)

// A warm read is a read of a file whose bytes are the ones the session was
// last shown: it is stated against one SHA-256 pass of the file, timed in
// the same loop (package floor), which it should not need to pay. Target:
// within 0.6x of it, whole file, through Run as the language server
// and the MCP server call it: from an editor's open buffer, and from disk.

const warmLines = 10000

// warmText is 10,000 lines of about 40 bytes.
func warmText() string {
	var b strings.Builder
	for i := range warmLines {
		fmt.Fprintf(&b, "\tresult%d := lookup(ctx, request, %d) // line %d\n", i%97, i*7, i)
	}
	return b.String()
}

func BenchmarkWarmReadDisk(b *testing.B) {
	text := warmText()
	s, hold := serveOne(b, "warm.go", text, false)
	hold(text)
	benchWarmRead(b, s, text)
}

func BenchmarkWarmReadOpen(b *testing.B) {
	text := warmText()
	s, _ := serveOne(b, "warm.go", text, true)
	benchWarmRead(b, s, text)
}

func benchWarmRead(b *testing.B, s *Server, text string) {
	args, _ := json.Marshal(map[string]any{"path": "warm.go", "limit": warmLines})
	read := func() {
		res, err := s.Run(context.Background(), Call{Command: CmdRead, Args: args})
		if err != nil {
			b.Fatal(err)
		}
		if r, ok := res.(*ReadResult); !ok || r.LineCount != warmLines {
			b.Fatalf("read: %.300v", res)
		}
	}
	read()
	floor.Measure(b, "sha256", floor.SHA256(text), read)
}
