package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/internal/floor"
	"hashline-ls/workspace"
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
	dir := b.TempDir()
	text := warmText()
	if err := os.WriteFile(filepath.Join(dir, "warm.go"), []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	roots, err := workspace.New(dir)
	if err != nil {
		b.Fatal(err)
	}
	disk := documents.Disk{Roots: roots}
	benchWarmRead(b, &Server{Roots: roots, Sessions: hashline.NewSessions(), Source: disk, Sink: disk}, text)
}

func BenchmarkWarmReadOpen(b *testing.B) {
	dir := b.TempDir()
	text := warmText()
	roots, err := workspace.New(dir)
	if err != nil {
		b.Fatal(err)
	}
	store := documents.NewStore()
	store.SetDisk(documents.Disk{Roots: roots})
	store.Open(filepath.Join(roots.List()[0], "warm.go"), "file:///warm.go", 1, text)
	benchWarmRead(b, &Server{Roots: roots, Sessions: hashline.NewSessions(), Source: store, Sink: documents.Disk{Roots: roots}}, text)
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
