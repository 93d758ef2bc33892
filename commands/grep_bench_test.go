package commands

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/internal/gentree"
	"hashline-ls/workspace"
)

// benchTree is a generated tree of 1,000 source files and two large
// generated C files, about 40 MB.
var benchTree = gentree.Spec{Seed: 7, Files: 1000, SmallBytes: 10 << 20, Large: 2, LargeSize: gentree.Size{Min: 14 << 20, Max: 16 << 20}, Hits: 300}

func benchServer(b *testing.B) (*Server, string) {
	b.Helper()
	dir := b.TempDir()
	if _, err := gentree.Write(dir, benchTree); err != nil {
		b.Fatal(err)
	}
	roots, err := workspace.New(dir)
	if err != nil {
		b.Fatal(err)
	}
	return &Server{Roots: roots, Sessions: hashline.NewSessions(), Source: documents.Disk{Roots: roots}, Sink: documents.Disk{Roots: roots}}, dir
}

// BenchmarkReadTree is the unit: reading every file of the tree once, which
// any search of it must do.
func BenchmarkReadTree(b *testing.B) {
	_, dir := benchServer(b)
	b.ResetTimer()
	for b.Loop() {
		n := 0
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				body, _ := os.ReadFile(p)
				n += len(body)
			}
			return nil
		})
		b.SetBytes(int64(n))
	}
}

func benchGrep(b *testing.B, pattern string) {
	s, _ := benchServer(b)
	args, _ := json.Marshal(map[string]any{"pattern": pattern, "maxResults": 100000})
	b.ResetTimer()
	for b.Loop() {
		res, err := s.Run(context.Background(), Call{Command: CmdGrep, Args: args})
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := res.(*GrepResult); !ok {
			b.Fatalf("grep failed: %+v", res)
		}
	}
}

func BenchmarkGrepHit(b *testing.B)   { benchGrep(b, gentree.HitPattern) }
func BenchmarkGrepNoHit(b *testing.B) { benchGrep(b, gentree.NoHitPattern) }
