package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"hashline-ls/commands"
	"hashline-ls/internal/golden"
)

// The Neovim plugin's command functions are generated from the server's
// commands and their tool definitions, as the VS Code extension's tool list
// is from describe: a command the server adds, renames or drops, or an
// argument it changes, fails this test until the file is generated again.
const luaCommands = "../editors/neovim/lua/hashline/commands.lua"

// hostCommands says what the commands that are not tools do: describe has
// no definition for them.
var hostCommands = map[string]string{
	commands.CmdDescribe:   "The tool definitions and the guide for models (format: markdown or json).",
	commands.CmdSessionEnd: "Ends a session: forgets its reads, registers and repeat guard.",
}

// TestNeovimCommands checks lua/hashline/commands.lua against the server's
// commands (-update writes it), and that the plugin's public module gives
// every one of them.
func TestNeovimCommands(t *testing.T) {
	got := luaCommandsFile(t)
	if want, ok := golden.Text(t, luaCommands, got); ok && want != got {
		t.Errorf("%s is not what the server's commands make: run go test ./e2e -run TestNeovimCommands -update", luaCommands)
	}
	public, err := os.ReadFile(filepath.Join(filepath.Dir(luaCommands), "init.lua"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range commands.Commands() {
		fn := luaName(c)
		line := fmt.Sprintf("M.%s, M.%s_sync = commands.%s, commands.%s_sync", fn, fn, fn, fn)
		if !strings.Contains(string(public), line) {
			t.Errorf("lua/hashline/init.lua does not give %s: add the line %q", c, line)
		}
	}
}

// luaName is the Lua function of a command: hashline.session.end is
// session_end.
func luaName(command string) string {
	return strings.ReplaceAll(strings.TrimPrefix(command, "hashline."), ".", "_")
}

// luaClass is the LuaLS class of a command's arguments: hashline.ReadArgs.
func luaClass(fn string) string {
	var b strings.Builder
	for _, part := range strings.Split(fn, "_") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return "hashline." + b.String() + "Args"
}

// luaType is the LuaLS type of a JSON Schema property.
func luaType(prop map[string]any) string {
	if enum, ok := prop["enum"].([]any); ok {
		var alts []string
		for _, v := range enum {
			alts = append(alts, fmt.Sprintf("%q", v))
		}
		return strings.Join(alts, "|")
	}
	switch prop["type"] {
	case "string", "integer", "boolean":
		return prop["type"].(string)
	case "number":
		return "number"
	}
	return "any"
}

var space = regexp.MustCompile(`\s+`)

// oneLine is text for a one-line annotation.
func oneLine(s string) string { return strings.TrimSpace(space.ReplaceAllString(s, " ")) }

// firstSentence is the first sentence of a tool's description.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return oneLine(s)
}

func luaCommandsFile(t *testing.T) string {
	t.Helper()
	tools := map[string]commands.Tool{}
	for _, tool := range commands.Tools() {
		tools[tool.Command] = tool
	}
	var b strings.Builder
	b.WriteString(`-- hashline.commands: each command of hashline-ls as a Lua function, in two
-- forms: name(args, callback) runs it and returns a function that cancels
-- it; name_sync(args, timeout_ms) waits for it (hashline.api says how).
-- require("hashline") gives them all.
--
-- Generated from the server's commands and their tool definitions (what
-- hashline-ls describe --json lists) by
-- go test ./e2e -run TestNeovimCommands -update; do not edit.
local api = require("hashline.api")

---@class hashline.Commands
local M = {}

--- The server command of each function.
---@type table<string, string>
M.commands = {
`)
	for _, c := range commands.Commands() {
		fmt.Fprintf(&b, "  %s = %q,\n", luaName(c), c)
	}
	b.WriteString("}\n")
	for _, c := range commands.Commands() {
		fn := luaName(c)
		argType, doc := "hashline.Args?", hostCommands[c]
		if tool, ok := tools[c]; ok {
			argType, doc = luaArgs(&b, fn, tool), firstSentence(tool.Description)
		}
		if doc == "" {
			t.Fatalf("%s is neither a tool nor in hostCommands: say what it does there", c)
		}
		fmt.Fprintf(&b, `
--- %s: %s
---@param args %s
---@param callback? hashline.Callback
---@return fun() cancel
function M.%s(args, callback)
  return api.execute(%q, args, callback)
end

--- %s, waiting for the answer.
---@param args %s
---@param timeout_ms? integer default: the timeout_ms option
---@return hashline.Result? result
---@return hashline.Error? err
function M.%s_sync(args, timeout_ms)
  return api.execute_sync(%q, args, timeout_ms)
end
`, c, doc, argType, fn, c, c, argType, fn, c)
	}
	b.WriteString("\nreturn M\n")
	return b.String()
}

// luaArgs writes the class of a tool's arguments and returns the type of
// the args parameter.
func luaArgs(b *strings.Builder, fn string, tool commands.Tool) string {
	class := luaClass(fn)
	props, _ := tool.InputSchema["properties"].(map[string]any)
	required := map[string]bool{}
	req, _ := tool.InputSchema["required"].([]string)
	for _, r := range req {
		required[r] = true
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	// The required ones first, each group in name order.
	sort.Slice(names, func(i, j int) bool {
		if required[names[i]] != required[names[j]] {
			return required[names[i]]
		}
		return names[i] < names[j]
	})
	fmt.Fprintf(b, "\n--- The arguments of %s.\n---@class %s: hashline.Args\n", tool.Command, class)
	for _, n := range names {
		prop, _ := props[n].(map[string]any)
		opt := "?"
		if required[n] {
			opt = ""
		}
		desc, _ := prop["description"].(string)
		fmt.Fprintf(b, "---@field %s%s %s %s\n", n, opt, luaType(prop), oneLine(desc))
	}
	if len(req) == 0 {
		return class + "?"
	}
	return class
}
