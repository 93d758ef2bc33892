// Command checkbin checks a cross-built hashline-ls without running it, as
// far as a file can show what its platform will do with it: the machine it
// is for, the libraries it loads and that every symbol it imports comes
// from one of them, that every tree-sitter grammar the program links is in
// it, and for macOS the minimum version it asks for and its ad-hoc code
// signature, whose page hashes it recomputes (macOS refuses to run an
// arm64 binary without a valid one).
//
//	go run ./scripts/checkbin -target darwin_arm64 dist/servers/darwin_arm64/hashline-ls
//
// It prints one line per check and exits 1 when any fails.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	target := flag.String("target", "", "the binary's GOOS_GOARCH: linux_amd64, linux_arm64, darwin_arm64, darwin_amd64 or windows_amd64")
	flag.Parse()
	if flag.NArg() != 1 || *target == "" {
		fmt.Fprintln(os.Stderr, "usage: checkbin -target GOOS_GOARCH FILE")
		os.Exit(2)
	}
	grammars, err := Grammars("hashline-ls/cmd/hashline-ls")
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkbin:", err)
		os.Exit(1)
	}
	r, err := Check(flag.Arg(0), *target, grammars)
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkbin:", err)
		os.Exit(1)
	}
	for _, l := range r.Lines {
		fmt.Printf("%s: %s\n", *target, l)
	}
	if r.Failed() {
		os.Exit(1)
	}
}
