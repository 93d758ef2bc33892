package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.uber.org/zap"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"hashline-ls/hashline"
)

// Call is one command call, as the front end that received it builds it,
// once: executeCommand, a shell verb, an MCP tool call, a bridged call.
type Call struct {
	Command string
	// Session is the session the front end runs the call in when the
	// front end decides it: over MCP and the bridge each connection is
	// its own session, and the arguments may name no session or turn.
	// Empty, the arguments name it ("default" when they do not).
	Session string
	// Via says how the call came, for the message that refuses a session
	// named in the arguments: "MCP", "the bridge".
	Via string
	// Args is the command's argument object as the front end received it.
	// Run decodes it, once; nothing else does.
	Args json.RawMessage
}

// ErrUnknownCommand reports a command this server does not have; the
// protocol edge answers it as a protocol fault.
var ErrUnknownCommand = errors.New("unknown command")

// Run runs one call. Every outcome the caller can act on is a result, with
// its text: a success object, or an *ErrorResult. The error return is kept
// for protocol faults only: an unknown command, or arguments that are not
// one JSON object.
func (s *Server) Run(ctx context.Context, c Call) (Result, error) {
	// Here rather than where Sessions is made, so every front end has it.
	s.hookOnce.Do(func() { s.Sessions.OnDrop(giveBack) })
	res, err := s.run(ctx, c)
	if err != nil {
		return nil, err
	}
	render(res)
	return res, nil
}

func (s *Server) run(ctx context.Context, c Call) (result Result, err error) {
	h, ok := s.handlers()[c.Command]
	if !ok {
		return nil, fmt.Errorf("%w %q: the commands are %s", ErrUnknownCommand, c.Command, strings.Join(Commands(), ", "))
	}
	defer func() {
		if p := recover(); p != nil {
			s.log().Error("command panicked", zap.String("command", c.Command), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			result, err = errorResult(hashline.Errorf(hashline.CodeToolFailed,
				"the server failed inside %s (%v); nothing was written: read the file again and retry once, and report the failure if it repeats", c.Command, p)), nil
		}
	}()
	args, err := decode(c)
	var he *hashline.Error
	if errors.As(err, &he) {
		return errorResult(he), nil
	}
	if err != nil {
		return nil, err
	}
	res, herr := h(ctx, args)
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

// args is a call's argument object, decoded and checked against the
// command's schema, and the session it runs in.
type args struct {
	values  map[string]any // as jsonschema decodes JSON: numbers are json.Number
	session string         // the front end's, or ""
}

// decodes counts the argument objects decoded, for the test that each
// call is decoded once on every path.
var decodes atomic.Int64

// decode decodes a call's arguments, once, and checks them against the
// command's published schema, so what models are told and what the server
// accepts cannot differ. Arguments that are not one object are a protocol
// fault; anything else wrong is an *hashline.Error the model can act on.
func decode(c Call) (args, error) {
	decodes.Add(1)
	raw := bytes.TrimSpace(c.Args) // bytes, not a string: arguments may be megabytes long
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	if raw[0] != '{' {
		return args{}, fmt.Errorf("the arguments of %s must be one JSON object", c.Command)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return args{}, &hashline.Error{Code: hashline.CodeInvalidArgument, Message: fmt.Sprintf("the arguments are not valid JSON (%v): send one JSON object", err)}
	}
	values, ok := v.(map[string]any)
	if !ok {
		return args{}, fmt.Errorf("the arguments of %s must be one JSON object", c.Command)
	}
	if c.Session != "" {
		for _, k := range []string{"session", "turn"} {
			if _, named := values[k]; named {
				return args{}, &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: k}, Message: fmt.Sprintf(
					"argument %s: %s takes no %s over %s, where each connection is its own session: send the call again without it", k, callName(c), k, c.Via)}
			}
		}
	}
	dropHostControls(values)
	if e := validate(c.Command, values); e != nil {
		return args{}, e
	}
	return args{values: values, session: c.Session}, nil
}

// callName is the command as the caller knows it: over MCP, its tool.
func callName(c Call) string {
	if c.Via == "MCP" {
		for _, t := range Tools() {
			if t.Command == c.Command {
				return t.Name
			}
		}
	}
	return c.Command
}

type handler func(ctx context.Context, a args) (Result, error)

func (s *Server) handlers() map[string]handler {
	return map[string]handler{
		CmdRead:       decoded(s.read),
		CmdGrep:       decoded(s.grep),
		CmdPatch:      decoded(s.patch),
		CmdEdit:       decoded(s.edit),
		CmdWrite:      decoded(s.write),
		CmdDescribe:   decoded(s.describe),
		CmdSessionEnd: decoded(s.sessionEnd),
	}
}

// decoded is the handler that gives run its arguments as the A it takes,
// bound from the decoded object; the front end's session overrides any.
func decoded[A any](run func(ctx context.Context, a A) (Result, error)) handler {
	return func(ctx context.Context, in args) (Result, error) {
		var a A
		if err := bind(reflect.ValueOf(&a).Elem(), in.values); err != nil {
			return nil, err
		}
		if in.session != "" {
			if c, ok := any(&a).(interface{ setSession(string) }); ok {
				c.setSession(in.session)
			}
		}
		return run(ctx, a)
	}
}

// setSession names the session of a call whose front end decides it.
func (c *Common) setSession(name string) { c.Session = name }

// bind fills the fields of dst, a struct of the argument types the
// schemas allow (strings, integers, booleans, and embedded structs of
// them), from values, by their json names. The schema was checked first,
// so every value has its field's type; an integer may still not fit.
func bind(dst reflect.Value, values map[string]any) error {
	t := dst.Type()
	for i := range t.NumField() {
		f, fv := t.Field(i), dst.Field(i)
		if f.Anonymous {
			if err := bind(fv, values); err != nil {
				return err
			}
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		v, ok := values[name]
		if !ok || v == nil || name == "" || name == "-" {
			continue
		}
		switch f.Type.Kind() {
		case reflect.String:
			s, _ := v.(string)
			fv.SetString(s)
		case reflect.Bool:
			b, _ := v.(bool)
			fv.SetBool(b)
		case reflect.Int, reflect.Int64:
			num, _ := v.(json.Number)
			n, err := num.Int64()
			if err != nil || fv.OverflowInt(n) {
				return &hashline.Error{Code: hashline.CodeInvalidArgument, Details: hashline.Details{Field: name},
					Message: fmt.Sprintf("argument %s: %s does not fit in a 64-bit integer: fix it and send the call again", name, num)}
			}
			fv.SetInt(n)
		default:
			panic(fmt.Sprintf("argument %s: bind has no case for %s", name, f.Type))
		}
	}
	return nil
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

// validate checks the decoded arguments against the command's schema.
func validate(command string, values map[string]any) *hashline.Error {
	schemaOnce.Do(compileSchemas)
	sch := schemas[command]
	if sch == nil {
		return nil
	}
	err := sch.Validate(values)
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
	// A missing or malformed tag has its own code, so the model is told to
	// fetch one rather than that it sent a bad argument.
	if field == "tag" {
		if s, ok := values["tag"].(string); ok || values["tag"] == nil {
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
