package commands

import (
	"fmt"
	"strings"

	"hashline-ls/hashline"
)

// This file is the one source of what models are told: the tool definitions
// (a JSON Schema per command) and the guidance of docs/design.md §9.6. The server's
// describe command, the shell verb and every editor front end read it from
// here, so they cannot drift apart.

// Tool is one command as a model-facing tool.
type Tool struct {
	Name        string         `json:"name"`    // tool name, e.g. hashline_edit
	Command     string         `json:"command"` // executeCommand name, e.g. hashline.edit
	DisplayName string         `json:"displayName"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"`
	// ReadOnly is true for a command that never changes a file: hosts run
	// it without asking the user first.
	ReadOnly bool `json:"readOnly"`
}

func obj(required []string, props map[string]any) map[string]any {
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

func integer(desc string, minimum int) map[string]any {
	return map[string]any{"type": "integer", "minimum": minimum, "description": desc}
}

const pathDesc = "File path: relative to the workspace folder, absolute inside it, or a file:// URI."

// Tools returns the tool definitions, in the order a model meets them.
func Tools() []Tool {
	return []Tool{
		{
			Name: "hashline_read", Command: "hashline.read", DisplayName: "Read file (hashline)", ReadOnly: true,
			Description: "Read a file as numbered lines under a [path#TAG] header. Lines are numbered as in the file; the TAG names this exact version of the whole file and is what hashline_edit needs. Reads the editor's live buffer when the file is open, including unsaved changes. " +
				"For a large file, read its outline (view \"outline\": one row per declaration with its line range) and then only the declaration you need (symbol): both are under the same TAG, and the lines they show can be edited at once.",
			InputSchema: obj([]string{"path"}, map[string]any{
				"path":   str(pathDesc),
				"offset": integer("First line to show (1-based). Default 1. With view outline: the first line whose declarations are listed.", 1),
				"limit":  integer(fmt.Sprintf("Most lines to show. Default %d. With view outline: how many lines from offset to list the declarations of.", defaultLimit), 1),
				"anchors": map[string]any{"type": "string", "enum": []any{"tag", "line"},
					"description": "tag (default): rows N:text, for hashline_edit. line: rows N:HH|text, where HH is the line's own hash, for hashline_patch."},
				"view": map[string]any{"type": "string", "enum": []any{ViewLines, ViewOutline},
					"description": "lines (default): the numbered lines. outline: one row per declaration (function, method, class, type, heading, top-level key), nested, as \"Start-End kind name\" and the declaration's own line as N:text; Start-End is exactly what PUT Start*: replaces, doc comments and decorators included. A nested row gives its name within the row above it (read it as Class.method; a heading as its text). A row marked +N after its name holds N more declarations the depth leaves out."},
				"depth": integer(fmt.Sprintf("With view outline: how many levels of declarations to list; a row marked +N holds N more, which a symbol read finds all the same. Default: a document's top %d levels of headings, and every level of code.", hashline.DocumentDepth), 1),
				"symbol": map[string]any{"type": "string", "minLength": 1,
					"description": "Read only this declaration's lines, doc comment and decorators included, under the whole file's TAG: a qualified name (Server.handle, Class.method, a heading's text, a top-level key) or a bare name. PUT Start*: on its first line then replaces it. Not with offset or limit."},
			}),
		},
		{
			Name: "hashline_grep", Command: "hashline.grep", DisplayName: "Search files (hashline)", ReadOnly: true,
			Description: "Search file contents with a regular expression. Each matching line comes back as N:text under its file's [path#TAG] header, so hashline_edit can change a matched line at once with that TAG; any other line of the file needs a hashline_read first. " +
				"Skips .git folders, files ignored by .gitignore, and binary files. Searches the editor's live buffers for open files, including unsaved changes.",
			InputSchema: obj([]string{"pattern"}, map[string]any{
				"pattern": map[string]any{"type": "string", "minLength": 1, "description": "Regular expression in RE2 syntax (Go regexp: no lookaround or backreferences), matched against each line without its ending."},
				"path":    str("File or folder to search: relative to the workspace folder, absolute inside it, or a file:// URI. Default: the whole workspace. A file named here is searched even where .gitignore or glob would leave it out."),
				"glob":    str("Only search files whose workspace-relative path matches this glob, e.g. **/*.go or src/**. A glob without / matches file names at any depth."),
				"mode": map[string]any{"type": "string", "enum": []any{GrepContent, GrepFilesWithMatches, GrepCount, GrepSymbols},
					"description": "content (default): the matching lines. filesWithMatches: only the files that match. count: the number of matching lines per file. symbols: where declarations whose name matches the pattern are defined, as path:Start-End kind qualified.name under each file's [path#TAG] (the pattern is matched against the declared name alone, e.g. ^handle$ for Server.handle); read one with hashline_read and symbol. Only content mode shows lines that can be edited without a read."},
				"ignoreCase": map[string]any{"type": "boolean", "description": "Match letters in either case. Default false."},
				"maxResults": integer(fmt.Sprintf("Most results: matching lines in content mode, declarations in symbols mode, files in the other modes. Default %d.", defaultMaxResults), 1),
				"anchors": map[string]any{"type": "string", "enum": []any{"tag", "line"},
					"description": "tag (default): rows N:text, for hashline_edit. line: rows N:HH|text, for hashline_patch."},
			}),
		},
		{
			Name: "hashline_edit", Command: "hashline.edit", DisplayName: "Edit file (hashline)",
			Description: editDescription,
			InputSchema: obj([]string{"path", "tag", "ops"}, map[string]any{
				"path": str(pathDesc + " The file must exist; create files with hashline_write."),
				"tag":  map[string]any{"type": "string", "pattern": "^[0-9A-Fa-f]{4}$", "description": "The 4-hex TAG from the [path#TAG] header of your latest read, grep, write or edit of this file."},
				"ops":  str("One or more ops, one header per line, each PUT header followed by its + rows. Line numbers are those of the tagged read; earlier ops never shift later ones."),
			}),
		},
		{
			Name: "hashline_write", Command: "hashline.write", DisplayName: "Write file (hashline)",
			Description: "Create a file, or replace a whole file, with the given content. Returns the [path#TAG] header of what landed, so an edit can follow without a read. Prefer hashline_edit for changes to an existing file.",
			InputSchema: obj([]string{"path", "content"}, map[string]any{
				"path":    str(pathDesc),
				"content": str("The complete text of the file. Do not include the [path#TAG] header or N: prefixes of read output."),
			}),
		},
		{
			Name: "hashline_patch", Command: "hashline.patch", DisplayName: "Patch files (hashline)",
			Description: patchDescription,
			InputSchema: obj([]string{"patch"}, map[string]any{
				"patch": str("One or more sections: a line @@ path, then ops with their ~ payload rows. Every file must have been read (anchors \"line\") in this session."),
			}),
		},
	}
}

// editDescription carries the essentials of the guide, because some hosts
// give a model only the tool descriptions.
const editDescription = `Edit one file by the line numbers of your latest hashline_read (or grep, write, edit) of it, giving only new text. The server checks the TAG of that read's [path#TAG] header against the file as it is now, and that you were shown every line you touch; otherwise it writes nothing and says what to do.
Ops, one header per line; line numbers are those of the tagged read, never shifted by earlier ops of the same call:
PUT N.=M: then + rows: replace lines N..M (one line: PUT N.=N:)
PUT <N: / PUT >N: then + rows: insert before / after line N (PUT <1: is the top of the file)
PUT >$: then + rows: append at the end
PUT N*: / PUT >N*: then + rows: replace / insert after the block (function, class, section) that opens at line N
CUT N.=M (no colon, no rows) deletes lines N..M; CUT N.=M @name also keeps them, and PUT >K @name pastes them, in this file or another
REM (alone in its call) deletes the file; MV dest moves it after the other ops
Every new line is a + row: +text writes text exactly, leading spaces kept; a bare + is an empty line; ++x writes +x. There are no -old rows and no context rows.
Rules: a range names only lines whose text changes (to add lines use <N, >N or >$, never a range that restates a neighbour); an empty PUT is not a delete (use CUT); a PUT with rows ends its header with a colon; after each edit use the tag it returns, and read again before editing lines you have not seen since.
On failure: EDIT_TAG_MISMATCH / EDIT_TAG_UNKNOWN carry the live tag and the current lines around your anchors (changed ones marked >>>): rebuild the ops against them. EDIT_LINES_UNSEEN shows the lines you were never shown: when it says they now count as shown, send the same call again. EDIT_PARSE_FAILED shows the corrected op. terminate: true means stop editing that file in this turn.`

// patchDescription is the whole patch language: the guide points here.
const patchDescription = `Change one or more files at once, all or nothing, with per-line anchors LINE:HH from a read with anchors "line" (rows N:HH|text, HH a hash of that line alone). Every anchor is re-hashed against the file as it is now: one stale anchor in any file writes nothing, and every problem is listed ("re-read around line N").
Format: a line @@ path opens each file's section, then its ops; markers start in column 1, and each op is followed by its payload rows ~text, written verbatim ("~" alone is an empty line):
+ LINE:HH inserts the rows after the line (bare +: at the end of the file)
< LINE:HH inserts the rows before the line (bare <: at the start)
- A:HH..B:HH deletes lines A..B (one line: - A:HH)
= A:HH..B:HH replaces lines A..B with the rows
Ranges may not overlap, and nothing may be inserted inside a range. For example:
@@ src/a.py
= 2:5d..2:5d
~    return f"hi {name}"
+ 3:c5
~# appended after line 3
@@ src/b.py
- 7:14..9:c5`

// hostProps are arguments the host sets, not the model: who is asking and
// which prompt the call belongs to (docs/contract.md §2.3).
var hostProps = map[string]any{
	"session": str("Session name; each session has its own reads, registers and repeat guard. Default \"default\"."),
	"turn":    str("The assistant's current prompt; the repeat guard counts failures within one turn."),
}

// commandSchemas returns the full argument schema of every command: the
// tool schema plus the host's arguments.
func commandSchemas() map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, t := range Tools() {
		props := map[string]any{}
		for k, v := range t.InputSchema["properties"].(map[string]any) {
			props[k] = v
		}
		for k, v := range hostProps {
			props[k] = v
		}
		if !t.ReadOnly {
			for k, v := range planningProps {
				props[k] = v
			}
		}
		req, _ := t.InputSchema["required"].([]string)
		out[t.Command] = obj(req, props)
	}
	out["hashline.describe"] = obj(nil, map[string]any{
		"format":  map[string]any{"type": "string", "enum": []any{"json", "markdown"}, "description": "markdown (default) or json for the guidance."},
		"session": hostProps["session"], "turn": hostProps["turn"],
	})
	out["hashline.session.end"] = obj(nil, map[string]any{"session": hostProps["session"], "turn": hostProps["turn"]})
	return out
}

// Guidance is the model-facing guide to the edit language (docs/design.md §9.6).
// It is also the MCP server's instructions, which Claude Code cuts at 4,096
// characters: what does not fit goes in the tool descriptions, which hosts
// pass whole.
func Guidance() string {
	var b strings.Builder
	b.WriteString(guidance)
	b.WriteString("\n## Spellings accepted with a warning\n\n")
	for i, a := range hashline.Alternates {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "`%s` as `%s`", a.Written, a.Canonical)
	}
	b.WriteString("; anything else malformed fails with EDIT_PARSE_FAILED and shows the corrected op.\n")
	return b.String()
}

const guidance = `# Editing with hashline

Read first: hashline_read returns every line as N:text under a header [path#TAG]. N is the
line's number in the file; TAG names this exact version of the whole file. An edit names
lines by those numbers and gives only new content. It is checked against the file as it is
now: if the file changed, or you were never shown a line you touch, nothing is written and
the error says what to do.

## Reading less

In a large file, read the outline first (hashline_read view "outline": a row per
declaration, its description has the format), then only what you change with symbol (a
qualified name such as Server.handle): its lines count as shown, so PUT Start*: replaces
exactly them, doc comment included; both carry the file's TAG. hashline_grep mode
"symbols" finds where a name is declared.

## Ops

| Header | Body | Meaning |
| --- | --- | --- |
| PUT N.=M: | + rows | Replace lines N..M (inclusive). One line: PUT N.=N: |
| PUT <N: / PUT >N: | + rows | Insert before / after line N. PUT <1: is the top of the file. |
| PUT >$: | + rows | Append at the end of the file. |
| PUT N*: / PUT >N*: | + rows | Replace / insert after the block (function, class, section) that opens at line N. |
| CUT N.=M | none | Delete lines N..M; CUT N.=M @name keeps them in register @name for the session. |
| PUT >N @name | none | Paste register @name after line N (or <N, >$, N.=M). |
| REM | none | Delete the file. Alone in its call. |
| MV dest | none | Move the file to dest after the other ops. |

Line numbers are those of the read you took the tag from; earlier ops in the same call
never shift later ones. Ops may not overlap or share a line.

## Body rows: + only

Every new line is a + row with its exact final text: "+    return x" writes "    return x";
a bare "+" writes an empty line; "++x" writes "+x". No -old rows, no context rows: the
range already says what goes away.

## Ranges name changed lines only

A range holds only the lines whose text changes, and counts old lines: 2 lines replaced by
5 is "PUT 10.=11:" and 5 rows. To add lines use a gap (<N, >N, >$), never a range that
restates a line you keep.

## Re-ground after every edit

Each edit returns a new [path#TAG]: use it, and read again before editing lines whose
numbers you have not seen since.

## Errors

- EDIT_TAG_MISMATCH / EDIT_TAG_UNKNOWN: the file changed, or was never read under that tag;
  the error has the live tag and the current lines near your anchors: rebuild the ops on them.
- EDIT_LINES_UNSEEN shows the lines you were never shown; when it says they now count,
  check them and send the same call again.
- EDIT_PARSE_FAILED shows the corrected op. EDIT_NO_CHANGE: the file already holds that
  text; do not repeat the edit.
- terminate: true means stop editing that file in this turn.

## Per-line anchors

A read with anchors "line" shows rows N:HH|text (HH: a hash of that line) for hashline_patch:
several files at once, all or nothing (its description has the format).

## Anti-patterns

- Empty PUT as a delete: "PUT 7.=9:" with no rows. Write "CUT 7.=9".
- Widened PUT for a pure insertion: "PUT 20.=20:" restating line 20. Write "PUT >20:".
- >N* anchored on a closing line: >N* names the line that opens the block, not its "}".
- Body rows under a register paste: "PUT >5 @fn" takes no rows.
- Missing colon: "PUT 48.=48" followed by rows. Write "PUT 48.=48:".
`

// DescribeResult is the result of hashline.describe.
type DescribeResult struct {
	OK       bool   `json:"ok"`
	Version  string `json:"version"`
	Tools    []Tool `json:"tools"`
	Guidance string `json:"guidance"`
	rendered
}
