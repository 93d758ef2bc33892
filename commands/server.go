// Package commands implements the hashline.* commands: it checks arguments
// against the published schemas, resolves paths inside the workspace, runs
// the core, carries the change to the editor or the disk through a Sink, one
// mutation at a time per session and per document, and renders every result
// as the text a model reads. The same code serves the language server and the
// shell verbs; only the Source and Sink differ.
package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.uber.org/zap"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"hashline-ls/documents"
	"hashline-ls/hashline"
	"hashline-ls/workspace"
)

// Version is the version of hashline-ls.
const Version = "0.1.0"

// Source gives the live text of a file: the editor's buffer when it holds
// one, else the disk.
type Source interface {
	Live(ctx context.Context, abs string) (documents.Live, error)
}

// Sink writes a change set, all or nothing, and reports the text each file
// holds afterwards. It returns documents.ErrNotApplied when it wrote
// nothing because a file is not the text the change was proven against.
type Sink interface {
	Apply(ctx context.Context, cs documents.ChangeSet) (documents.Landed, error)
}

// Server runs commands. Its exported fields are set once before the first
// call.
type Server struct {
	Roots    *workspace.Roots
	Sessions *hashline.Sessions
	Source   Source
	Sink     Sink
	Blocks   hashline.BlockResolver
	Log      *zap.Logger
	// Stateless says no call sees an earlier one, as for the shell verbs:
	// patch then re-hashes every anchor but cannot require a read first.
	Stateless bool
	// Saver, when set, saves through the editor what a write left in its
	// buffers, for callers that read the disk next (the bridge of
	// hashline-ls mcp). Without one the user saves.
	Saver Saver
	// Permits, when set, are shared with the other servers over the same
	// documents; nil: the server's own. Taken through lock only.
	Permits *Permits
	// NewFileEOL, when set, says how the editor ends the lines of new
	// files: a file the server creates whose content ends its lines in
	// plain LF takes that ending (eol.go). Nil: the content's own.
	NewFileEOL func() string

	own Permits

	hookOnce sync.Once // sets the Sessions' drop hook on the first call
}

// Names of the commands, as executeCommand knows them.
const (
	CmdRead       = "hashline.read"
	CmdGrep       = "hashline.grep"
	CmdPatch      = "hashline.patch"
	CmdEdit       = "hashline.edit"
	CmdWrite      = "hashline.write"
	CmdDescribe   = "hashline.describe"
	CmdSessionEnd = "hashline.session.end"
)

// Commands lists every command the server executes.
func Commands() []string {
	return []string{CmdRead, CmdGrep, CmdEdit, CmdWrite, CmdPatch, CmdDescribe, CmdSessionEnd}
}

// ErrorResult is the result of every failed command.
type ErrorResult struct {
	OK        bool        `json:"ok"`
	Error     ErrorObject `json:"error"`
	Terminate bool        `json:"terminate,omitempty"`
	rendered
}

// ErrorObject is the error of a failed command.
type ErrorObject struct {
	Code      hashline.Code    `json:"code"`
	Message   string           `json:"message"`
	Retriable bool             `json:"retriable"`
	Details   hashline.Details `json:"details"`
}

func errorResult(e *hashline.Error) *ErrorResult {
	return &ErrorResult{Error: ErrorObject{Code: e.Code, Message: e.Message, Retriable: e.Code.Retriable(), Details: e.Details}, Terminate: e.Terminate}
}

// Common holds the arguments every command takes.
type Common struct {
	Session string `json:"session"`
	Turn    string `json:"turn"`
}

func (c Common) sessionName() string {
	if c.Session == "" {
		return "default"
	}
	return c.Session
}

// ErrUnknownCommand reports a command this server does not have; the
// protocol edge answers it as a protocol fault.
var ErrUnknownCommand = errors.New("unknown command")

// Execute runs one command. Every outcome the caller can act on is a
// result, with its text: a success object, or an *ErrorResult. The error
// return is kept for protocol faults only: an unknown command, or arguments
// that are not one JSON object.
func (s *Server) Execute(ctx context.Context, command string, args json.RawMessage) (Result, error) {
	// Here rather than where Sessions is made, so every front end has it.
	s.hookOnce.Do(func() { s.Sessions.OnDrop(giveBack) })
	res, err := s.execute(ctx, command, args)
	if err != nil {
		return nil, err
	}
	render(res)
	return res, nil
}

func (s *Server) execute(ctx context.Context, command string, args json.RawMessage) (result Result, err error) {
	run, ok := s.handlers()[command]
	if !ok {
		return nil, fmt.Errorf("%w %q: the commands are %s", ErrUnknownCommand, command, strings.Join(Commands(), ", "))
	}
	// Bytes, not a string: arguments may be megabytes long.
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		args = json.RawMessage("{}")
	} else if trimmed[0] != '{' {
		return nil, fmt.Errorf("the arguments of %s must be one JSON object", command)
	}
	defer func() {
		if p := recover(); p != nil {
			s.log().Error("command panicked", zap.String("command", command), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			result, err = errorResult(hashline.Errorf(hashline.CodeToolFailed,
				"the server failed inside %s (%v); nothing was written: read the file again and retry once, and report the failure if it repeats", command, p)), nil
		}
	}()
	if e := validate(command, args); e != nil {
		return errorResult(e), nil
	}
	res, herr := run(ctx, args)
	if errors.Is(herr, context.Canceled) {
		// Cancelled before anything was written; the edge answers the
		// request as cancelled.
		return nil, herr
	}
	if herr != nil {
		return errorResult(hashline.AsError(herr)), nil
	}
	return res, nil
}

type handler func(ctx context.Context, args json.RawMessage) (Result, error)

func (s *Server) handlers() map[string]handler {
	return map[string]handler{
		CmdRead:       decoded(s.read),
		CmdGrep:       decoded(s.grep),
		CmdPatch:      decoded(s.patch),
		CmdEdit:       decoded(s.edit),
		CmdWrite:      decoded(s.write),
		CmdDescribe:   s.describe,
		CmdSessionEnd: decoded(s.sessionEnd),
	}
}

// decoded is the handler that unmarshals the validated args into the A
// that run takes.
func decoded[A any](run func(ctx context.Context, a A) (Result, error)) handler {
	return func(ctx context.Context, args json.RawMessage) (Result, error) {
		var a A
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, &hashline.Error{Code: hashline.CodeInvalidArgument, Message: fmt.Sprintf("arguments: %v: fix them and send the call again", err)}
		}
		return run(ctx, a)
	}
}

func (s *Server) log() *zap.Logger {
	if s.Log == nil {
		return zap.NewNop()
	}
	return s.Log
}

var (
	schemaOnce sync.Once
	schemas    map[string]*jsonschema.Schema
)

func compileSchemas() {
	schemas = map[string]*jsonschema.Schema{}
	c := jsonschema.NewCompiler()
	for name, doc := range commandSchemas() {
		// Round-trip through JSON so the compiler sees plain JSON values.
		b, _ := json.Marshal(doc)
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
		if err != nil {
			panic(err)
		}
		url := "hashline:" + name + ".json"
		if err := c.AddResource(url, v); err != nil {
			panic(err)
		}
		schemas[name] = c.MustCompile(url)
	}
}

// validate checks args against the command's published schema, so what
// models are told and what the server accepts cannot differ.
func validate(command string, args json.RawMessage) *hashline.Error {
	schemaOnce.Do(compileSchemas)
	sch := schemas[command]
	if sch == nil {
		return nil
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return &hashline.Error{Code: hashline.CodeInvalidArgument, Message: fmt.Sprintf("the arguments are not valid JSON (%v): send one JSON object", err)}
	}
	err = sch.Validate(v)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	leaf := firstLeaf(ve)
	field := strings.Join(leaf.InstanceLocation, ".")
	what := leaf.ErrorKind.LocalizedString(message.NewPrinter(language.English))
	if field == "" {
		field = fieldOf(what)
	}
	// A missing or malformed tag has its own code (§11), so the model is
	// told to fetch one rather than that it sent a bad argument.
	if field == "tag" {
		var t struct {
			Tag any `json:"tag"`
		}
		_ = json.Unmarshal(args, &t)
		if s, ok := t.Tag.(string); ok || t.Tag == nil {
			if _, err := hashline.ParseTag(s); err != nil {
				return hashline.AsError(err)
			}
		}
	}
	msg := fmt.Sprintf("argument %s: %s: fix it and send the call again (describe lists every argument)", field, what)
	if field == "" {
		msg = fmt.Sprintf("arguments: %s: fix them and send the call again (describe lists every argument)", what)
	}
	return &hashline.Error{Code: hashline.CodeInvalidArgument, Message: msg, Details: hashline.Details{Field: field}}
}

func firstLeaf(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(e.Causes) > 0 {
		sort.SliceStable(e.Causes, func(i, j int) bool {
			return strings.Join(e.Causes[i].InstanceLocation, "/") < strings.Join(e.Causes[j].InstanceLocation, "/")
		})
		e = e.Causes[0]
	}
	return e
}

// fieldOf picks the property a root-level message is about, such as
// "missing property 'path'".
func fieldOf(msg string) string {
	if i := strings.IndexByte(msg, '\''); i >= 0 {
		if j := strings.IndexByte(msg[i+1:], '\''); j >= 0 {
			return msg[i+1 : i+1+j]
		}
	}
	return ""
}

// resolve maps a path argument into the workspace.
func (s *Server) resolve(p string) (workspace.Path, error) {
	wp, err := s.Roots.Resolve(p)
	var we *workspace.Error
	if errors.As(err, &we) {
		code := hashline.CodeInvalidArgument
		if we.Kind == workspace.Outside {
			code = hashline.CodePathOutsideWorkspace
		}
		return wp, &hashline.Error{Code: code, Message: we.Error(), Details: hashline.Details{Field: "path"}}
	}
	return wp, err
}

func (s *Server) describe(_ context.Context, args json.RawMessage) (Result, error) {
	return &DescribeResult{OK: true, Version: Version, Tools: Tools(), Guidance: Guidance()}, nil
}

// SessionEndResult is the result of hashline.session.end.
type SessionEndResult struct {
	OK    bool `json:"ok"`
	Ended bool `json:"ended"`
	rendered
}

func (s *Server) sessionEnd(_ context.Context, a Common) (Result, error) {
	return &SessionEndResult{OK: true, Ended: s.Sessions.End(a.sessionName())}, nil
}
