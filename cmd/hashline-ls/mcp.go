package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"hashline-ls/commands"
	"hashline-ls/mcp"
	"hashline-ls/workspace"
)

const mcpUsage = `usage: hashline-ls mcp [--root DIR]... [--no-editor] [--editor PID] [--log-file FILE] [--log-level LEVEL]
       hashline-ls mcp --status [--root DIR]... [--no-editor] [--editor PID]

Serves the hashline tools over MCP on stdin/stdout. The workspace is the
--root folders, else the current folder. --status prints what would serve
them: a running editor's hashline-ls, or the disk.
`

// runMCP is the mcp verb.
func runMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, mcpUsage) }
	var roots []string
	fs.Func("root", "a workspace folder (repeatable; default: the current folder)", func(s string) error {
		roots = append(roots, s)
		return nil
	})
	noEditor := fs.Bool("no-editor", false, "work on the disk even when an editor holds the folder")
	editor := fs.Int("editor", 0, "the pid of the editor to serve through, when several hold the folder")
	status := fs.Bool("status", false, "print what would serve the folders, and exit")
	logs := addLogFlags(fs, "info")
	if !parseAll(fs, args, mcpUsage, stderr) {
		return 2
	}
	if len(roots) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(stderr, "TOOL_FAILED: %v\n", err)
			return 1
		}
		roots = []string{wd}
	}
	ws, err := workspace.New(roots...)
	if err != nil {
		fmt.Fprintf(stderr, "INVALID_ARGUMENT: --root: %v\n", err)
		return 2
	}
	var route mcp.Route
	if *noEditor {
		route = mcp.DiskRoute(ws.List())
	} else {
		route, err = mcp.FindRoute(ws.List(), *editor)
	}
	if *status {
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			return 1
		}
		fmt.Fprint(stdout, route.Status(context.Background(), ws))
		return 0
	}
	log, closeLog, ok := logs.open(stderr)
	if !ok {
		return 2
	}
	defer closeLog()
	if err != nil {
		log.Error("the editor asked for cannot serve", zap.Error(err))
		fmt.Fprintf(stderr, "%v\n", err)
		return 1
	}
	log.Info("hashline-ls serving MCP on stdio", zap.String("version", commands.Version), zap.Strings("roots", ws.List()), zap.String("route", strings.TrimSpace(route.String())))
	srv := &mcp.Server{Backend: route.Backend(ws, log), Log: log}
	t := &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopCloser{stdout}}
	if err := srv.Serve(context.Background(), t); err != nil {
		log.Error("the MCP connection failed", zap.Error(err))
		return 1
	}
	log.Info("hashline-ls exiting: the MCP connection ended")
	return 0
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
