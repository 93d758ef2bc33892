package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"hashline-ls/commands"
	"hashline-ls/hashline"
)

// Name is the serverInfo name the server answers initialize with.
const Name = "hashline-ls"

// Backend runs the commands of MCP connections.
type Backend interface {
	// Open starts the session of one connection.
	Open(ctx context.Context) (Session, error)
}

// Session runs commands for one connection.
type Session interface {
	// Run runs a call in the connection's session and returns its reply.
	// The error is kept for faults that leave no result.
	Run(ctx context.Context, c commands.Call) (Reply, error)
	// Close ends the session.
	Close() error
}

// Reply is a session's answer to a call: the result object, and what of
// it the edge passes on. A session on the disk answers with the result the
// commands returned, which is encoded nowhere but in the tool result's one
// text block; a bridged one with the JSON the editor sent, decoded once.
type Reply struct {
	// Result is the result object: a commands.Result, or the editor's
	// json.RawMessage.
	Result any
	OK     bool
	Text   string
}

// replyTo is the reply of a result the commands returned.
func replyTo(res commands.Result) Reply {
	_, failed := res.(*commands.ErrorResult)
	return Reply{Result: res, OK: !failed, Text: res.Rendered()}
}

// replyOf is the reply of a result object as JSON.
func replyOf(res json.RawMessage) (Reply, error) {
	var head struct {
		OK   bool   `json:"ok"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(res, &head); err != nil {
		return Reply{}, fmt.Errorf("the result is not a JSON object: %w", err)
	}
	return Reply{Result: res, OK: head.OK, Text: head.Text}, nil
}

// Server serves MCP connections on a Backend. Its fields are set before
// the first Serve.
type Server struct {
	Backend Backend
	Log     *zap.Logger
}

// Serve serves one connection over t until it ends. The connection is one
// session, closed when Serve returns.
func (s *Server) Serve(ctx context.Context, t sdk.Transport) error {
	sess, err := s.Backend.Open(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	srv := sdk.NewServer(&sdk.Implementation{Name: Name, Version: commands.Version}, &sdk.ServerOptions{
		Instructions: commands.Guidance(),
		// Tools only: no logging, prompts or resources to offer.
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	})
	for _, tool := range Tools() {
		srv.AddTool(tool, s.handler(sess, tool))
	}
	return srv.Run(ctx, t)
}

// Tools are describe's tools as MCP tools. The input schema is passed on
// as the JSON describe's schema marshals to, so what tools/list sends is
// those bytes.
func Tools() []*sdk.Tool {
	var out []*sdk.Tool
	for _, t := range commands.Tools() {
		schema, err := json.Marshal(t.InputSchema)
		if err != nil {
			panic(fmt.Sprintf("the schema of %s does not marshal: %v", t.Name, err))
		}
		out = append(out, &sdk.Tool{
			Name:        t.Name,
			Title:       t.DisplayName,
			Description: t.Description,
			InputSchema: json.RawMessage(schema),
			Annotations: &sdk.ToolAnnotations{ReadOnlyHint: t.ReadOnly},
		})
	}
	return out
}

// readOnly reports the commands that never change a file, as describe
// marks them.
func readOnly(command string) bool {
	for _, t := range commands.Tools() {
		if t.Command == command {
			return t.ReadOnly
		}
	}
	return false
}

// command maps a tool name to its command.
func command(tool string) string {
	for _, t := range commands.Tools() {
		if t.Name == tool {
			return t.Command
		}
	}
	return ""
}

func (s *Server) handler(sess Session, tool *sdk.Tool) sdk.ToolHandler {
	cmd := command(tool.Name)
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		res, err := sess.Run(ctx, commands.Call{Command: cmd, Via: "MCP", Args: req.Params.Arguments})
		if err != nil && (errors.Is(err, context.Canceled) || ctx.Err() != nil) {
			// Cancelled before anything was written: the request is
			// answered as cancelled.
			return nil, err
		}
		if err != nil {
			s.log().Warn("tool call failed", zap.String("tool", tool.Name), zap.Error(err))
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		return toolResult(res), nil
	}
}

// refuse is the reply to a call the MCP edge refuses before any command
// runs.
func refuse(code hashline.Code, field, msg string) Reply {
	return replyTo(commands.Refuse(code, field, msg))
}

// toolResult answers a call with the result's rendered text as its one
// content block, and nothing else. A host hands its model either the
// content or, when there is one, structuredContent as JSON in its place
// (Codex; Claude Code for a success), which escapes the text and, with the
// result object around it, repeats the rendering; without it every host
// passes the model the text as it is, once.
func toolResult(r Reply) *sdk.CallToolResult {
	return &sdk.CallToolResult{
		Content: []sdk.Content{&sdk.TextContent{Text: r.Text}},
		IsError: !r.OK,
	}
}

func (s *Server) log() *zap.Logger {
	if s.Log == nil {
		return zap.NewNop()
	}
	return s.Log
}
