package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"hashline-ls/commands"
	"hashline-ls/internal/floor"
	"hashline-ls/lsp/lsptest"
)

// The bridge's cost is measured against its own baseline in the same loop:
// each iteration makes one call through the editor's own executeCommand
// (the fake editor's pipe) and the same call through the bridge (the Unix
// socket, a session of its own), in alternating order, and the figures are
// the p50 and p90 of each and the p50 of what the bridge adds.

const benchLines = 2000

// benchBridge is a fake editor holding two copies of a 2,000-line buffer,
// one for each path, both with unsaved typing so that neither path saves,
// and a bridged session to it.
func benchBridge(b *testing.B) (*lsptest.Editor, Session) {
	b.Helper()
	opts := lsptest.VSCode()
	opts.Quiet, opts.SaveDocument = true, true
	e, reg := lsptest.Bridged(b, opts)
	e.SetBehaviour(lsptest.ApplyBehaviour{BeforeAnswer: true})
	var text strings.Builder
	for i := 1; i <= benchLines; i++ {
		fmt.Fprintf(&text, "\tfmt.Println(\"héllo, 世界 😀\", i, %d) // line %d\n", i*7, i)
	}
	for _, name := range []string{"editor.go", "bridge.go"} {
		e.WriteFile(name, text.String())
		e.Open(name, 1)
		e.Type(name, "line 1\n", "line 1, typed\n")
		e.Sync()
	}
	sess, err := bridgeTo(b, reg, e.Root()).Open(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sess.Close() })
	return e, sess
}

// bridged runs a command through the bridge and returns its reply, which
// holds what the MCP edge passes on, decoded once from what the editor
// sent, as for a tool call.
func bridged(b *testing.B, sess Session, command string, args map[string]any) Reply {
	raw, _ := json.Marshal(args)
	r, err := sess.Run(context.Background(), commands.Call{Command: command, Args: raw})
	if err != nil || !r.OK {
		b.Fatalf("%s: %v %.300s", command, err, r.Text)
	}
	// A warning the bridge adds is the text's last line.
	lines := strings.Split(strings.TrimSuffix(r.Text, "\n"), "\n")
	if command == commands.CmdRead && strings.HasPrefix(lines[len(lines)-1], "warning: ") {
		b.Fatalf("a bridged read warns: the session is not in the editor: %s", lines[len(lines)-1])
	}
	return r
}

// editTag is the tag of an edit's reply, from its result object.
func editTag(b *testing.B, r Reply) string {
	res, err := resultJSON(r)
	if err != nil {
		b.Fatal(err)
	}
	var e struct{ Tag string }
	if err := json.Unmarshal(res, &e); err != nil || e.Tag == "" {
		b.Fatalf("no tag in %s", res)
	}
	return e.Tag
}

// timings collects the two paths' durations and reports their figures.
type timings struct{ editor, bridge []time.Duration }

func (t *timings) report(b *testing.B) {
	pct := func(d []time.Duration, p int) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[(len(s)-1)*p/100].Nanoseconds()) / 1e3
	}
	b.ReportMetric(pct(t.editor, 50), "editor-p50-us")
	b.ReportMetric(pct(t.bridge, 50), "bridge-p50-us")
	b.ReportMetric(pct(t.editor, 90), "editor-p90-us")
	b.ReportMetric(pct(t.bridge, 90), "bridge-p90-us")
	b.ReportMetric(pct(t.bridge, 50)-pct(t.editor, 50), "added-p50-us")
}

// timed runs the two calls of one iteration in alternating order.
func (t *timings) timed(i int, editor, bridge func()) {
	run := func(f func(), into *[]time.Duration) {
		start := time.Now()
		f()
		*into = append(*into, time.Since(start))
	}
	if i%2 == 0 {
		run(editor, &t.editor)
		run(bridge, &t.bridge)
	} else {
		run(bridge, &t.bridge)
		run(editor, &t.editor)
	}
}

func BenchmarkBridgeRead(b *testing.B) {
	e, sess := benchBridge(b)
	var t timings
	i := 0
	for b.Loop() {
		i++
		t.timed(i, func() { e.Read("editor.go") }, func() { bridged(b, sess, commands.CmdRead, map[string]any{"path": "bridge.go"}) })
	}
	t.report(b)
}

func BenchmarkBridgeEdit(b *testing.B) {
	e, sess := benchBridge(b)
	editorTag := e.Read("editor.go").Tag
	bridgeTag := editTag(b, bridged(b, sess, commands.CmdRead, map[string]any{"path": "bridge.go"}))
	var t timings
	i := 0
	for b.Loop() {
		i++
		ops := fmt.Sprintf("PUT %d.=%d:\n+\tfmt.Println(%d) // edited", benchLines/2, benchLines/2, i)
		t.timed(i, func() {
			editorTag = e.Edit("editor.go", editorTag, ops).Tag
		}, func() {
			bridgeTag = editTag(b, bridged(b, sess, commands.CmdEdit, map[string]any{"path": "bridge.go", "tag": bridgeTag, "ops": ops}))
		})
	}
	t.report(b)
	want := fmt.Sprintf("\tfmt.Println(%d) // edited", i)
	for _, name := range []string{"editor.go", "bridge.go"} {
		if got := strings.Split(e.BufferText(name), "\n")[benchLines/2-1]; got != want {
			b.Fatalf("%s line %d = %q after %d edits", name, benchLines/2, got, i)
		}
	}
	if n := len(e.Saves()); n != 0 {
		b.Fatalf("%d saves: the buffers were meant to stay unsaved", n)
	}
}

// BenchmarkReadMCP is a warm read of a 10,000-line file on disk through
// the MCP edge, from the SDK's own client over its in-memory transport,
// against one SHA-256 pass of the file in the same loop: what the edge
// adds to the read (decoding the call, encoding the answer) is what it
// states, next to the 0.3x the read costs at Run.
func BenchmarkReadMCP(b *testing.B) {
	var text strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&text, "\tresult%d := lookup(ctx, request, %d) // line %d\n", i%97, i*7, i)
	}
	_, disk := workspaceDir(b, map[string]string{"warm.go": text.String()})
	ct, st := sdk.NewInMemoryTransports()
	go (&Server{Backend: disk}).Serve(context.Background(), st)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	read := func() {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "hashline_read", Arguments: map[string]any{"path": "warm.go", "limit": 10000}})
		if err != nil || res.IsError || len(res.Content) != 1 {
			b.Fatalf("read: %v %+v", err, res)
		}
	}
	read()
	floor.Measure(b, "sha256", floor.SHA256(text.String()), read)
}
