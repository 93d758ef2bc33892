package commands

import (
	"path/filepath"
	"strings"
	"testing"

	"hashline-ls/hashline"
	"hashline-ls/hashline/blocks"
)

// The report's HTML: PUT 2*: on long custom tags nested 25 deep, which
// tree-sitter-html answers with erroneous_end_tag nodes and no ERROR, is
// declined and writes nothing (issue 13, point 7). Before the fix it
// replaced lines 2-50 instead of 2-51 and left a broken file.
func TestEditBlockOnHTMLTheParserLostTrackOf(t *testing.T) {
	const tag = "custom-element-with-a-long-name-here-xx"
	rows := []string{"<div>"}
	for i := 1; i <= 25; i++ {
		rows = append(rows, strings.Repeat(" ", i)+"<"+tag+">")
	}
	for i := 25; i >= 1; i-- {
		rows = append(rows, strings.Repeat(" ", i)+"</"+tag+">")
	}
	text := strings.Join(append(rows, "</div>"), "\n") + "\n"
	s, dir := newServer(t, map[string]string{"x.html": text})
	s.Blocks = blocks.New()
	r := mustOK[*ReadResult](t, call(t, s, CmdRead, map[string]any{"path": "x.html"}))
	e := mustFail(t, call(t, s, CmdEdit, map[string]any{"path": "x.html", "tag": r.Tag, "ops": "PUT 2*:\n+<p>replaced</p>"}), hashline.CodeBlockUnresolved)
	if !strings.Contains(e.Error.Message, "erroneous end tag") {
		t.Fatalf("message %q does not say why", e.Error.Message)
	}
	if got := readFile(t, filepath.Join(dir, "x.html")); got != text {
		t.Fatalf("x.html changed:\n%s", got)
	}
}
