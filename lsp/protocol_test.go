package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"hashline-ls/commands"
	"hashline-ls/hashline"
	"hashline-ls/lsp/lsptest"
)

// stillServes checks that the server answers a read after whatever came
// before.
func stillServes(t *testing.T, e *lsptest.Editor) {
	t.Helper()
	e.WriteFile("alive.txt", "alive\n")
	if r := e.Read("alive.txt"); r.Tag != tagOf("alive\n") {
		t.Fatalf("read after the hostile input = %s", r.Raw)
	}
}

// Hostile arguments: problems a command can describe are results with a
// code (commands' TestHostileArguments has every case); problems of the
// protocol are JSON-RPC errors; none stops the server.
func TestHostileArguments(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	e.WriteFile("ok.txt", "fine\n")
	if r := e.Fail(commands.CmdRead, map[string]any{"path": 5}, hashline.CodeInvalidArgument); r.Error.Details.Field != "path" || r.Error.Message == "" {
		t.Fatalf("a path of the wrong type = %s, want a result naming the field", r.Raw)
	}
	if got := e.DiskText("ok.txt"); got != "fine\n" || len(e.Applies()) != 0 {
		t.Fatalf("a refused call changed something: disk %q, %d applyEdit", got, len(e.Applies()))
	}

	for _, tc := range []struct {
		name   string
		params any
		code   jsonrpc2.Code
	}{
		{"array argument", map[string]any{"command": commands.CmdRead, "arguments": []any{[]int{1}}}, jsonrpc2.InvalidParams},
		{"number argument", map[string]any{"command": commands.CmdRead, "arguments": []any{1}}, jsonrpc2.InvalidParams},
		{"string argument", map[string]any{"command": commands.CmdRead, "arguments": []any{"x"}}, jsonrpc2.InvalidParams},
		{"two arguments", map[string]any{"command": commands.CmdRead, "arguments": []any{map[string]any{"path": "ok.txt"}, map[string]any{"path": "ok.txt"}}}, jsonrpc2.InvalidParams},
		{"arguments not a list", map[string]any{"command": commands.CmdRead, "arguments": map[string]any{"path": "ok.txt"}}, jsonrpc2.InvalidParams},
		{"params not an object", []int{1, 2}, jsonrpc2.InvalidParams},
		{"unknown command", map[string]any{"command": "hashline.nope", "arguments": []any{map[string]any{}}}, jsonrpc2.InvalidParams},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res json.RawMessage
			err := e.Call("workspace/executeCommand", tc.params, &res)
			if rpcCode(err) != tc.code {
				t.Fatalf("error = %v (result %s), want JSON-RPC code %d", err, res, tc.code)
			}
		})
	}
	t.Run("unknown method", func(t *testing.T) {
		var res json.RawMessage
		if err := e.Call("textDocument/hover", map[string]any{}, &res); rpcCode(err) != jsonrpc2.MethodNotFound {
			t.Fatalf("error = %v, want MethodNotFound", err)
		}
	})
	t.Run("no arguments at all", func(t *testing.T) {
		r, err := e.ExecParams(map[string]any{"command": commands.CmdRead})
		if err != nil || r.OK || r.Error == nil || r.Error.Code != hashline.CodeInvalidArgument || r.Error.Details.Field != "path" {
			t.Fatalf("result = %s, %v; want INVALID_ARGUMENT on path", r.Raw, err)
		}
	})
	stillServes(t, e)
}

// Frames whose body is not a message: a request whose id can be found gets
// a parse error; the connection goes on either way.
func TestMalformedFrames(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	raw := e.Wire().WriteFrame
	answer := func(t *testing.T, id string) *jsonrpc2.Response {
		t.Helper()
		select {
		case r := <-e.Wire().FrameAnswers():
			got := r.ID()
			b, _ := json.Marshal(&got)
			if string(b) != `"`+id+`"` {
				t.Fatalf("answer for id %s, want %s", b, id)
			}
			return r
		case <-time.After(callTimeout):
			t.Fatalf("no answer for the frame with id %s", id)
			return nil
		}
	}
	for _, tc := range []struct {
		name, id, body string
	}{
		{"invalid JSON", "raw-1", `{"jsonrpc":"2.0","id":"raw-1","method":"workspace/executeCommand","params":{"command":"hashline.read","arguments":[{"path":`},
		{"method of the wrong type", "raw-2", `{"jsonrpc":"2.0","id":"raw-2","method":42}`},
		{"bad escape after the id", "raw-3", `{"jsonrpc":"2.0","id":"raw-3","method":"workspace/executeCommand","params":{"command":"\q"}}`},
		{"number id", "", `{"jsonrpc":"2.0","id":424242,"method":"workspace/executeCommand","params":{"command":`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw(tc.body)
			if tc.id == "" {
				// The editor's connection drops answers to numbers it did not
				// send; the wire shows whether one went out.
				stillServes(t, e)
				m, ok := e.Wire().Response(jsonrpc2.NewNumberID(424242))
				var errObj struct{ Code jsonrpc2.Code }
				if !ok || json.Unmarshal(m["error"], &errObj) != nil || errObj.Code != jsonrpc2.ParseError {
					t.Fatalf("answer on the wire = %v, want a parse error for id 424242", m)
				}
				return
			}
			r := answer(t, tc.id)
			if rpcCode(r.Err()) != jsonrpc2.ParseError {
				t.Fatalf("answer error = %v, want a parse error", r.Err())
			}
		})
	}
	// Garbage without an id has no one to answer; the next frame is read.
	raw(`{{{ not json`)
	raw(`[]`)
	stillServes(t, e)
	select {
	case r := <-e.Wire().FrameAnswers():
		t.Fatalf("unexpected answer %v to a frame without an id", r)
	default:
	}
}

// Requests before initialize are refused, and so is a second initialize.
func TestInitializeOrder(t *testing.T) {
	opts := lsptest.VSCode()
	opts.SkipInit = true
	e := lsptest.New(t, opts)
	e.WriteFile("a.txt", "a\n")
	var res json.RawMessage
	err := e.Call("workspace/executeCommand", map[string]any{"command": commands.CmdRead, "arguments": []any{map[string]any{"path": "a.txt"}}}, &res)
	if rpcCode(err) != jsonrpc2.ServerNotInitialized {
		t.Fatalf("before initialize: %v, want ServerNotInitialized", err)
	}
	if err := e.Call("shutdown", nil, &res); rpcCode(err) != jsonrpc2.ServerNotInitialized {
		t.Fatalf("shutdown before initialize: %v, want ServerNotInitialized", err)
	}
	e.Initialize(opts)
	if err := e.Call("initialize", e.InitParams(opts), &res); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Fatalf("second initialize: %v, want InvalidRequest", err)
	}
	if err := e.Call("initialize", "not params", &res); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Fatalf("third initialize: %v, want InvalidRequest", err)
	}
	stillServes(t, e)
}

// An initialize whose params do not decode is refused without leaving the
// server half set up.
func TestInitializeBadParams(t *testing.T) {
	opts := lsptest.VSCode()
	opts.SkipInit = true
	e := lsptest.New(t, opts)
	var res json.RawMessage
	if err := e.Call("initialize", []int{1}, &res); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Fatalf("initialize with an array: %v, want InvalidParams", err)
	}
	e.Initialize(opts)
	stillServes(t, e)
}

// waitingEdit starts an edit that the editor answers as applied without
// changing anything, so the server waits for a didChange that never comes,
// and returns once the server is waiting.
func waitingEdit(t *testing.T, e *lsptest.Editor) <-chan error {
	t.Helper()
	e.WriteFile("w.txt", "wait\n")
	e.Open("w.txt", 1)
	r := e.Read("w.txt")
	e.SetBehaviour(lsptest.ApplyBehaviour{SkipAll: true})
	done := make(chan error, 1)
	go func() {
		res, err := e.Exec(commands.CmdEdit, map[string]any{"path": "w.txt", "tag": r.Tag, "ops": "PUT 1.=1:\n+never"})
		if err == nil && !res.OK {
			err = errors.New(res.Raw) // a failed result, carried as its JSON
		}
		done <- err
	}()
	e.AwaitApply()
	return done
}

func longLand() lsptest.Options {
	opts := lsptest.VSCode()
	opts.InitOptions = map[string]any{"hashline": map[string]any{"landTimeoutMs": 600000}}
	return opts
}

// promptly is the failure bound for an answer that should come at once.
const promptly = 5 * time.Second

// appliedAnswer waits for the answer of a waitingEdit, which must say the
// editor applied the edit; who and silent name the edit in the failures.
func appliedAnswer(t *testing.T, done <-chan error, who, silent string) {
	t.Helper()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "TOOL_FAILED") || !strings.Contains(err.Error(), "applied the edit") {
			t.Fatalf("%s answered %v, want TOOL_FAILED saying the editor applied it", who, err)
		}
	case <-time.After(promptly):
		t.Fatal(silent)
	}
}

func TestCancelWaitingEdit(t *testing.T) {
	e := lsptest.New(t, longLand())
	done := waitingEdit(t, e)
	id, ok := e.Wire().LastCallID("workspace/executeCommand")
	if !ok {
		t.Fatal("no executeCommand id recorded")
	}
	e.Notify("$/cancelRequest", map[string]any{"id": &id})
	// The editor had already said it applied the edit, so the answer is not
	// "cancelled": it says the edit most likely landed and to read first.
	appliedAnswer(t, done, "cancelled edit", "the cancelled edit did not answer")
	if got := e.BufferText("w.txt"); got != "wait\n" {
		t.Fatalf("buffer = %q", got)
	}
	// Cancelling an id that is not running is harmless.
	e.Notify("$/cancelRequest", map[string]any{"id": 999999})
	e.Notify("$/cancelRequest", map[string]any{"id": "no such id"})
	e.Notify("$/cancelRequest", "garbage")
	e.SetBehaviour(lsptest.ApplyBehaviour{})
	r := e.Read("w.txt")
	res := e.Edit("w.txt", r.Tag, "PUT 1.=1:\n+done")
	if e.BufferText("w.txt") != "done\n" || res.Tag != tagOf("done\n") {
		t.Fatalf("edit after the cancel: buffer %q result %s", e.BufferText("w.txt"), res.Raw)
	}
}

func TestShutdownWhileEditWaits(t *testing.T) {
	e := lsptest.New(t, longLand())
	done := waitingEdit(t, e)
	var res json.RawMessage
	if err := e.Call("shutdown", nil, &res); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	// jsonrpc2 decodes a null result as no result, so look at the wire.
	id, _ := e.Wire().LastCallID("shutdown")
	if m, ok := e.Wire().Response(id); !ok || string(m["result"]) != "null" || m["error"] != nil {
		t.Fatalf("shutdown answered %v, want result null", m)
	}
	appliedAnswer(t, done, "the waiting edit", "the waiting edit did not answer after shutdown")
	err := e.Call("workspace/executeCommand", map[string]any{"command": commands.CmdRead, "arguments": []any{map[string]any{"path": "w.txt"}}}, &res)
	if rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Fatalf("request after shutdown: %v, want InvalidRequest", err)
	}
	if err := e.Call("shutdown", nil, &res); rpcCode(err) != jsonrpc2.InvalidRequest {
		t.Fatalf("second shutdown: %v, want InvalidRequest", err)
	}
	e.Notify("exit", nil)
	if code := e.WaitServe(); code != 0 {
		t.Fatalf("exit code after shutdown = %d, want 0", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	e := lsptest.New(t, lsptest.VSCode())
	e.Notify("exit", nil)
	if code := e.WaitServe(); code != 1 {
		t.Fatalf("exit code without shutdown = %d, want 1", code)
	}
}

// The editor goes away while an edit waits for its didChange: Serve
// returns, and the waiting command ends with it rather than at its land
// timeout (checkLeaks holds the test to that).
func TestEditorVanishesWhileEditWaits(t *testing.T) {
	e := lsptest.New(t, longLand())
	e.WriteFile("w.txt", "wait\n")
	e.Open("w.txt", 1)
	r := e.Read("w.txt")
	e.SetBehaviour(lsptest.ApplyBehaviour{SkipAll: true})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		var res json.RawMessage
		_ = e.CallContext(ctx, "workspace/executeCommand", map[string]any{"command": commands.CmdEdit,
			"arguments": []any{map[string]any{"path": "w.txt", "tag": r.Tag, "ops": "PUT 1.=1:\n+never"}}}, &res)
	}()
	e.AwaitApply()
	e.Disconnect()
	if code := e.WaitServe(); code != 1 {
		t.Fatalf("exit code = %d, want 1 (no shutdown)", code)
	}
	// The caller's side of the pipe has no answer coming; stop waiting.
	cancel()
	<-done
}
