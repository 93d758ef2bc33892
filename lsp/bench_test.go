package lsp_test

import (
	"fmt"
	"hashline-ls/lsp/lsptest"
	"strings"
	"testing"
)

// The unit of these benchmarks is BenchmarkReadOpenBuffer2000, a read of
// the buffer through the same pipe and fake editor: an edit's round trip
// (executeCommand, applyEdit, didChange, answer) is stated as a multiple of
// it, measured in the same run, so the figure does not depend on the
// machine.

const benchLines = 2000

// benchEditor opens a 2,000-line buffer in a fake editor that sends its
// didChange right before it answers applyEdit.
func benchEditor(b *testing.B) *lsptest.Editor {
	b.Helper()
	opts := lsptest.VSCode()
	opts.Quiet = true
	e := lsptest.New(b, opts)
	e.SetBehaviour(lsptest.ApplyBehaviour{BeforeAnswer: true})
	var text strings.Builder
	for i := 1; i <= benchLines; i++ {
		fmt.Fprintf(&text, "\tfmt.Println(\"héllo, 世界 😀\", i, %d) // line %d\n", i*7, i)
	}
	e.WriteFile("big.go", text.String())
	e.Open("big.go", 1)
	return e
}

func BenchmarkReadOpenBuffer2000(b *testing.B) {
	e := benchEditor(b)
	for b.Loop() {
		if r := e.Read("big.go"); r.Tag == "" {
			b.Fatal("read without a tag")
		}
	}
}

func BenchmarkEditOpenBuffer2000(b *testing.B) {
	e := benchEditor(b)
	tag := e.Read("big.go").Tag
	i := 0
	for b.Loop() {
		i++
		tag = e.Edit("big.go", tag, fmt.Sprintf("PUT %d.=%d:\n+\tfmt.Println(%d) // edited", benchLines/2, benchLines/2, i)).Tag
	}
	if got := strings.Split(e.BufferText("big.go"), "\n")[benchLines/2-1]; got != fmt.Sprintf("\tfmt.Println(%d) // edited", i) {
		b.Fatalf("line %d = %q after %d edits", benchLines/2, got, i)
	}
}
