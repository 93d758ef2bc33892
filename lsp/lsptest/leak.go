package lsptest

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// checkLeaks fails the test when goroutines of the server or of the editor
// outlive it. It is registered first, so it runs after every other
// cleanup.
func checkLeaks(t testing.TB) {
	t.Cleanup(func() {
		deadline := time.Now().Add(callTimeout)
		for {
			leaked := leakedGoroutines()
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%d goroutines outlived the test:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// testFrame matches a test's own function in a stack: a goroutine with one
// is the test itself, or one it started and answers for.
var testFrame = regexp.MustCompile(`\.(Test|Benchmark|Fuzz)[A-Z_0-9]`)

// leakedGoroutines lists the goroutines that run the project's code or the
// JSON-RPC connection's, other than the tests' own and this check's.
func leakedGoroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "lsptest.checkLeaks") || strings.Contains(g, "lsptest.leakedGoroutines") || testFrame.MatchString(g) {
			continue
		}
		if strings.Contains(g, "hashline-ls/") || strings.Contains(g, "go.lsp.dev/jsonrpc2") {
			out = append(out, g)
		}
	}
	return out
}
