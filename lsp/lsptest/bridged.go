package lsptest

import (
	"os"
	"path/filepath"
	"testing"

	"hashline-ls/endpoint"
)

// Registry is a fresh endpoint folder of this user, removed when t ends.
// Its path is kept short: a socket path has little room.
func Registry(t testing.TB) *endpoint.Registry {
	t.Helper()
	dir, err := os.MkdirTemp("", "hll")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	reg, err := endpoint.OpenDir(filepath.Join(dir, "r"), os.Getuid())
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// Bridged is New with the server publishing its bridge endpoint in a fresh
// Registry, which it returns too.
func Bridged(t testing.TB, opts Options) (*Editor, *endpoint.Registry) {
	t.Helper()
	reg := Registry(t)
	opts.Endpoints = reg
	return New(t, opts), reg
}
