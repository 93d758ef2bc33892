// Command hashline-ls gives AI assistants a safe way to read and edit files.
//
// With no verb, or with --stdio, it serves the Language Server Protocol on
// stdin and stdout. With a verb it runs one command on the files on disk,
// with the current folder as the workspace:
//
//	hashline-ls read PATH [--offset N] [--limit N] [--anchors line] [--outline [--depth N] | --symbol NAME]
//	hashline-ls edit PATH --tag TAG [--ops FILE]      (ops from stdin without --ops)
//	hashline-ls write PATH [--content FILE]           (content from stdin without --content)
//	hashline-ls grep PATTERN [PATH] [--glob GLOB] [--mode MODE] [-i] [--max-results N] [--anchors line]
//	hashline-ls patch [--patch FILE]                  (patch from stdin without --patch)
//	hashline-ls describe
//	hashline-ls version
//	hashline-ls mcp [--root DIR]... [--no-editor] [--status]  (MCP on stdin and stdout)
//
// Each verb prints the result's text, the same text every editor front end
// shows: on stdout for a success, on stderr for a failure ("CODE: message"
// and what a retry needs), which exits 1. With --json it prints the result
// object exactly as the command returns it, text included.
//
// docs/design.md says how it is built, docs/contract.md what it enforces.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"hashline-ls/commands"
	"hashline-ls/confined"
	"hashline-ls/documents"
	"hashline-ls/endpoint"
	"hashline-ls/lsp"
	"hashline-ls/workspace"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `usage:
  hashline-ls [--stdio] [--log-file FILE] [--log-level LEVEL]   serve LSP on stdin/stdout
  hashline-ls read PATH [--offset N] [--limit N] [--anchors line] [--outline [--depth N] | --symbol NAME] [--json]
  hashline-ls edit PATH --tag TAG [--ops FILE] [--json]          ops from stdin without --ops
  hashline-ls write PATH [--content FILE] [--json]               content from stdin without --content
  hashline-ls grep PATTERN [PATH] [--glob GLOB] [--mode content|filesWithMatches|count|symbols]
                   [--ignore-case|-i] [--max-results N] [--anchors line] [--json]
  hashline-ls patch [--patch FILE] [--json]                      patch from stdin without --patch
  hashline-ls describe [--json]
  hashline-ls version
  hashline-ls mcp [--root DIR]... [--no-editor] [--status]      serve the tools over MCP on stdin/stdout
`

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return serve(args, stdin, stdout, stderr)
	}
	verb, rest := args[0], args[1:]
	switch verb {
	case "version":
		fmt.Fprintf(stdout, "hashline-ls %s\n", commands.Version)
		return 0
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	case "mcp":
		return runMCP(rest, stdin, stdout, stderr)
	}
	v, ok := verbs[verb]
	if !ok {
		fmt.Fprintf(stderr, "INVALID_ARGUMENT: unknown verb %q: use read, edit, write, grep, patch, describe or version\n%s", verb, usage)
		return 2
	}
	c := cli{stdout: stdout, stderr: stderr}
	fs := flag.NewFlagSet(verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&c.json, "json", false, "print the result object as JSON")
	build := v.flags(fs)
	pos, err := parseInterleaved(fs, rest)
	if err != nil {
		return 2
	}
	if len(pos) < v.paths || len(pos) > v.paths+v.optional {
		fmt.Fprintf(stderr, "INVALID_ARGUMENT: %s takes %d path argument(s), got %d\n%s", verb, v.paths, len(pos), usage)
		return 2
	}
	srv, err := diskServer()
	if err != nil {
		fmt.Fprintf(stderr, "TOOL_FAILED: %v\n", err)
		return 1
	}
	a, err := build(pos, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "INVALID_ARGUMENT: %v\n", err)
		return 1
	}
	raw, _ := json.Marshal(a)
	res, err := srv.Run(context.Background(), commands.Call{Command: "hashline." + verb, Args: raw})
	if err != nil {
		fmt.Fprintf(stderr, "INVALID_ARGUMENT: %v\n", err)
		return 1
	}
	return c.print(res)
}

// parseInterleaved lets flags come before or after the positional
// arguments, as users type them.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// readInput reads a verb's input, from stdin or the file named, up to
// documents.MaxFileBytes. A file must be a regular one: a device such as
// /dev/zero never ends, and a FIFO may never open.
func readInput(file string, stdin io.Reader) (string, error) {
	tooLarge := fmt.Errorf("over %d MiB: hashline-ls takes files up to that size", documents.MaxFileBytes>>20)
	if file == "" || file == "-" {
		b, err := io.ReadAll(io.LimitReader(stdin, documents.MaxFileBytes+1))
		if err == nil && len(b) > documents.MaxFileBytes {
			err = tooLarge
		}
		return string(b), err
	}
	b, err := confined.ReadRegular(file, documents.MaxFileBytes)
	switch {
	case errors.Is(err, confined.ErrNotRegular):
		return "", fmt.Errorf("%s is not a regular file (a device, FIFO or folder): name a file, or pipe the input on stdin", file)
	case errors.Is(err, confined.ErrTooLarge):
		return "", fmt.Errorf("%s is %w", file, tooLarge)
	}
	return string(b), err
}

// diskServer is a server whose workspace is the current folder, reading and
// writing the disk, holding one session that remembers nothing past this
// process.
func diskServer() (*commands.Server, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	roots, err := workspace.New(wd)
	if err != nil {
		return nil, err
	}
	srv := commands.New(roots, documents.Disk{Roots: roots}, documents.Disk{Roots: roots}, nil)
	srv.Stateless = true
	return srv, nil
}

type cli struct {
	stdout, stderr io.Writer
	json           bool
}

// print shows a result: its text, on stdout for a success and on stderr for
// a failure, or with --json the result object on stdout and, for a failure,
// its first line on stderr.
func (c *cli) print(res commands.Result) int {
	if c.json {
		b, _ := json.MarshalIndent(res, "", "  ")
		fmt.Fprintf(c.stdout, "%s\n", b)
	}
	if r, failed := res.(*commands.ErrorResult); failed {
		if c.json {
			fmt.Fprintf(c.stderr, "%s: %s\n", r.Error.Code, r.Error.Message)
		} else {
			fmt.Fprint(c.stderr, r.Rendered())
		}
		return 1
	}
	if !c.json {
		fmt.Fprint(c.stdout, res.Rendered())
	}
	return 0
}

// serve runs the language server on stdin and stdout. Logs go to stderr or
// a file, never to stdout, which carries the protocol.
func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hashline-ls", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("stdio", true, "serve LSP on stdin/stdout (the default)")
	// warn by default: an editor shows everything a server writes on stderr
	// as an error (Neovim logs it as [ERROR]), so a start stays silent.
	logs := addLogFlags(fs, "warn")
	if !parseAll(fs, args, usage, stderr) {
		return 2
	}
	log, closeLog, ok := logs.open(stderr)
	if !ok {
		return 2
	}
	defer closeLog()
	log.Info("hashline-ls serving LSP on stdio", zap.String("version", commands.Version))
	// The bridge endpoint for hashline-ls mcp; without the folder the
	// editor works as before, and mcp on the disk.
	reg, err := endpoint.Open()
	if err != nil {
		log.Warn("the bridge endpoint is not published: hashline-ls mcp works on the disk", zap.Error(err))
	}
	code := lsp.Serve(context.Background(), stdio{stdin, stdout}, log, lsp.Endpoints{Registry: reg, Problem: err})
	log.Info("hashline-ls exiting", zap.Int("code", code))
	return code
}

// stdio joins stdin and stdout into the stream the server talks over.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

// parseAll parses args with fs for a verb that takes flags alone: an
// argument left after them is refused with usage on stderr. False means
// the verb exits with 2.
func parseAll(fs *flag.FlagSet, args []string, usage string, stderr io.Writer) bool {
	if err := fs.Parse(args); err != nil {
		return false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "INVALID_ARGUMENT: unexpected argument %q\n%s", fs.Arg(0), usage)
		return false
	}
	return true
}

// logFlags are the logging flags of the verbs that serve.
type logFlags struct{ file, level *string }

func addLogFlags(fs *flag.FlagSet, level string) logFlags {
	return logFlags{
		file:  fs.String("log-file", "", "write logs to this file instead of stderr"),
		level: fs.String("log-level", level, "debug, info, warn or error"),
	}
}

// open builds the logger the flags ask for, or says on stderr why it
// cannot be.
func (l logFlags) open(stderr io.Writer) (log *zap.Logger, closeLog func(), ok bool) {
	log, closeLog, err := newLogger(*l.file, *l.level, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "INVALID_ARGUMENT: %v\n", err)
		return nil, nil, false
	}
	return log, closeLog, true
}

func newLogger(file, level string, stderr io.Writer) (*zap.Logger, func(), error) {
	lvl, err := zapcore.ParseLevel(level)
	if err != nil {
		return nil, nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	sink := zapcore.AddSync(stderr)
	closeFn := func() {}
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %w", err)
		}
		sink, closeFn = zapcore.AddSync(f), func() { f.Close() }
	}
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	log := zap.New(zapcore.NewCore(enc, zapcore.Lock(sink), lvl))
	return log, func() { _ = log.Sync(); closeFn() }, nil
}
