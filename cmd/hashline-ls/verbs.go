package main

import (
	"flag"
	"fmt"
	"io"

	"hashline-ls/commands"
)

// A shellVerb is one of the shell verbs that run a command on the disk: the
// path arguments it takes and its flags.
type shellVerb struct {
	paths    int // path arguments it needs
	optional int // and may take beyond those
	// flags declares the verb's flags on fs and returns what builds the
	// command's arguments once fs has parsed them.
	flags func(fs *flag.FlagSet) buildArgs
}

// buildArgs makes the command's arguments from the path arguments and
// the parsed flags, reading stdin where a flag names no file.
type buildArgs func(pos []string, stdin io.Reader) (map[string]any, error)

var verbs = map[string]shellVerb{
	"read":     {paths: 1, flags: readFlags},
	"edit":     {paths: 1, flags: editFlags},
	"write":    {paths: 1, flags: writeFlags},
	"grep":     {paths: 1, optional: 1, flags: grepFlags},
	"patch":    {flags: patchFlags},
	"describe": {flags: func(*flag.FlagSet) buildArgs { return noArgs }},
}

func noArgs([]string, io.Reader) (map[string]any, error) { return map[string]any{}, nil }

// set puts v into a under name unless v is its type's zero value, so the
// command sees the argument absent, as a model leaving it out would.
func set[T comparable](a map[string]any, name string, v T) {
	var zero T
	if v != zero {
		a[name] = v
	}
}

func anchorsFlag(fs *flag.FlagSet) *string {
	return fs.String("anchors", "", "tag (default) or line: rows N:HH|text for patch")
}

func readFlags(fs *flag.FlagSet) buildArgs {
	offset := fs.Int("offset", 0, "first line to show (1-based)")
	limit := fs.Int("limit", 0, "most lines to show")
	anchors := anchorsFlag(fs)
	outline := fs.Bool("outline", false, "one row per declaration instead of the lines")
	depth := fs.Int("depth", 0, "with --outline: how many levels of declarations to list")
	symbol := fs.String("symbol", "", "read only this declaration's lines (a qualified name such as Server.handle)")
	return func(pos []string, _ io.Reader) (map[string]any, error) {
		a := map[string]any{"path": pos[0]}
		set(a, "anchors", *anchors)
		set(a, "offset", *offset)
		set(a, "limit", *limit)
		if *outline {
			a["view"] = commands.ViewOutline
		}
		set(a, "depth", *depth)
		set(a, "symbol", *symbol)
		return a, nil
	}
}

func editFlags(fs *flag.FlagSet) buildArgs {
	tag := fs.String("tag", "", "the tag from the read's [path#TAG] header")
	input := inputFlag(fs, "ops")
	return func(pos []string, stdin io.Reader) (map[string]any, error) {
		ops, err := input(stdin)
		return map[string]any{"path": pos[0], "tag": *tag, "ops": ops}, err
	}
}

func writeFlags(fs *flag.FlagSet) buildArgs {
	input := inputFlag(fs, "content")
	return func(pos []string, stdin io.Reader) (map[string]any, error) {
		content, err := input(stdin)
		return map[string]any{"path": pos[0], "content": content}, err
	}
}

func grepFlags(fs *flag.FlagSet) buildArgs {
	glob := fs.String("glob", "", "only files whose workspace-relative path matches this glob")
	mode := fs.String("mode", "", "content (default), filesWithMatches, count or symbols")
	ignoreCase := fs.Bool("ignore-case", false, "match letters in either case")
	fs.BoolVar(ignoreCase, "i", false, "match letters in either case")
	maxResults := fs.Int("max-results", 0, "most matching lines (content) or files (other modes)")
	anchors := anchorsFlag(fs)
	return func(pos []string, _ io.Reader) (map[string]any, error) {
		a := map[string]any{"pattern": pos[0]}
		if len(pos) > 1 {
			a["path"] = pos[1]
		}
		set(a, "anchors", *anchors)
		set(a, "glob", *glob)
		set(a, "mode", *mode)
		set(a, "ignoreCase", *ignoreCase)
		set(a, "maxResults", *maxResults)
		return a, nil
	}
}

func patchFlags(fs *flag.FlagSet) buildArgs {
	input := inputFlag(fs, "patch")
	return func(_ []string, stdin io.Reader) (map[string]any, error) {
		patch, err := input(stdin)
		return map[string]any{"patch": patch}, err
	}
}

// inputFlag adds -name, a file holding the verb's name text (default:
// stdin), and returns what reads that text; its error names the flag.
func inputFlag(fs *flag.FlagSet, name string) func(stdin io.Reader) (string, error) {
	file := fs.String(name, "", "file holding the "+name+" (default: stdin)")
	return func(stdin io.Reader) (string, error) {
		text, err := readInput(*file, stdin)
		if err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		return text, nil
	}
}
