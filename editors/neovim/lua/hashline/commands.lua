-- hashline.commands: each command of hashline-ls as a Lua function, in two
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
  read = "hashline.read",
  grep = "hashline.grep",
  edit = "hashline.edit",
  write = "hashline.write",
  patch = "hashline.patch",
  describe = "hashline.describe",
  session_end = "hashline.session.end",
}

--- The arguments of hashline.read.
---@class hashline.ReadArgs: hashline.Args
---@field path string File path: relative to the workspace folder, absolute inside it, or a file:// URI.
---@field anchors? "tag"|"line" tag (default): rows N:text, for hashline_edit. line: rows N:HH|text, where HH is the line's own hash, for hashline_patch.
---@field depth? integer With view outline: how many levels of declarations to list; a row marked +N holds N more, which a symbol read finds all the same. Default: a document's top 2 levels of headings, and every level of code.
---@field limit? integer Most lines to show. Default 2000. With view outline: how many lines from offset to list the declarations of.
---@field offset? integer First line to show (1-based). Default 1. With view outline: the first line whose declarations are listed.
---@field symbol? string Read only this declaration's lines, doc comment and decorators included, under the whole file's TAG: a qualified name (Server.handle, Class.method, a heading's text, a top-level key) or a bare name. PUT Start*: on its first line then replaces it. Not with offset or limit.
---@field view? "lines"|"outline" lines (default): the numbered lines. outline: one row per declaration (function, method, class, type, heading, top-level key), nested, as "Start-End kind name" and the declaration's own line as N:text; Start-End is exactly what PUT Start*: replaces, doc comments and decorators included. A nested row gives its name within the row above it (read it as Class.method; a heading as its text). A row marked +N after its name holds N more declarations the depth leaves out.

--- hashline.read: Read a file as numbered lines under a [path#TAG] header.
---@param args hashline.ReadArgs
---@param callback? hashline.Callback
---@return fun() cancel
function M.read(args, callback)
  return api.execute("hashline.read", args, callback)
end

--- hashline.read, waiting for the answer.
---@param args hashline.ReadArgs
---@param timeout_ms? integer default: the timeout_ms option
---@return hashline.Result? result
---@return hashline.Error? err
function M.read_sync(args, timeout_ms)
  return api.execute_sync("hashline.read", args, timeout_ms)
end

--- The arguments of hashline.grep.
---@class hashline.GrepArgs: hashline.Args
---@field pattern string Regular expression in RE2 syntax (Go regexp: no lookaround or backreferences), matched against each line without its ending.
---@field anchors? "tag"|"line" tag (default): rows N:text, for hashline_edit. line: rows N:HH|text, for hashline_patch.
---@field glob? string Only search files whose workspace-relative path matches this glob, e.g. **/*.go or src/**. A glob without / matches file names at any depth.
---@field ignoreCase? boolean Match letters in either case. Default false.
---@field maxResults? integer Most results: matching lines in content mode, declarations in symbols mode, files in the other modes. Default 200.
---@field mode? "content"|"filesWithMatches"|"count"|"symbols" content (default): the matching lines. filesWithMatches: only the files that match. count: the number of matching lines per file. symbols: where declarations whose name matches the pattern are defined, as path:Start-End kind qualified.name under each file's [path#TAG] (the pattern is matched against the declared name alone, e.g. ^handle$ for Server.handle); read one with hashline_read and symbol. Only content mode shows lines that can be edited without a read.
---@field path? string File or folder to search: relative to the workspace folder, absolute inside it, or a file:// URI. Default: the whole workspace. A file named here is searched even where .gitignore or glob would leave it out.

--- hashline.grep: Search file contents with a regular expression.
---@param args hashline.GrepArgs
---@param callback? hashline.Callback
---@return fun() cancel
function M.grep(args, callback)
  return api.execute("hashline.grep", args, callback)
end

--- hashline.grep, waiting for the answer.
---@param args hashline.GrepArgs
---@param timeout_ms? integer default: the timeout_ms option
---@return hashline.Result? result
---@return hashline.Error? err
function M.grep_sync(args, timeout_ms)
  return api.execute_sync("hashline.grep", args, timeout_ms)
end

--- The arguments of hashline.edit.
---@class hashline.EditArgs: hashline.Args
---@field ops string One or more ops, one header per line, each PUT header followed by its + rows. Line numbers are those of the tagged read; earlier ops never shift later ones.
---@field path string File path: relative to the workspace folder, absolute inside it, or a file:// URI. The file must exist; create files with hashline_write.
---@field tag string The 4-hex TAG from the [path#TAG] header of your latest read, grep, write or edit of this file.

--- hashline.edit: Edit one file by the line numbers of your latest hashline_read (or grep, write, edit) of it, giving only new text.
---@param args hashline.EditArgs
---@param callback? hashline.Callback
---@return fun() cancel
function M.edit(args, callback)
  return api.execute("hashline.edit", args, callback)
end

--- hashline.edit, waiting for the answer.
---@param args hashline.EditArgs
---@param timeout_ms? integer default: the timeout_ms option
---@return hashline.Result? result
---@return hashline.Error? err
function M.edit_sync(args, timeout_ms)
  return api.execute_sync("hashline.edit", args, timeout_ms)
end

--- The arguments of hashline.write.
---@class hashline.WriteArgs: hashline.Args
---@field content string The complete text of the file. Do not include the [path#TAG] header or N: prefixes of read output.
---@field path string File path: relative to the workspace folder, absolute inside it, or a file:// URI.

--- hashline.write: Create a file, or replace a whole file, with the given content.
---@param args hashline.WriteArgs
---@param callback? hashline.Callback
---@return fun() cancel
function M.write(args, callback)
  return api.execute("hashline.write", args, callback)
end

--- hashline.write, waiting for the answer.
---@param args hashline.WriteArgs
---@param timeout_ms? integer default: the timeout_ms option
---@return hashline.Result? result
---@return hashline.Error? err
function M.write_sync(args, timeout_ms)
  return api.execute_sync("hashline.write", args, timeout_ms)
end

--- The arguments of hashline.patch.
---@class hashline.PatchArgs: hashline.Args
---@field patch string One or more sections: a line @@ path, then ops with their ~ payload rows. Every file must have been read (anchors "line") in this session.

--- hashline.patch: Change one or more files at once, all or nothing, with per-line anchors LINE:HH from a read with anchors "line" (rows N:HH|text, HH a hash of that line alone).
---@param args hashline.PatchArgs
---@param callback? hashline.Callback
---@return fun() cancel
function M.patch(args, callback)
  return api.execute("hashline.patch", args, callback)
end

--- hashline.patch, waiting for the answer.
---@param args hashline.PatchArgs
---@param timeout_ms? integer default: the timeout_ms option
---@return hashline.Result? result
---@return hashline.Error? err
function M.patch_sync(args, timeout_ms)
  return api.execute_sync("hashline.patch", args, timeout_ms)
end

--- hashline.describe: The tool definitions and the guide for models (format: markdown or json).
---@param args hashline.Args?
---@param callback? hashline.Callback
---@return fun() cancel
function M.describe(args, callback)
  return api.execute("hashline.describe", args, callback)
end

--- hashline.describe, waiting for the answer.
---@param args hashline.Args?
---@param timeout_ms? integer default: the timeout_ms option
---@return hashline.Result? result
---@return hashline.Error? err
function M.describe_sync(args, timeout_ms)
  return api.execute_sync("hashline.describe", args, timeout_ms)
end

--- hashline.session.end: Ends a session: forgets its reads, registers and repeat guard.
---@param args hashline.Args?
---@param callback? hashline.Callback
---@return fun() cancel
function M.session_end(args, callback)
  return api.execute("hashline.session.end", args, callback)
end

--- hashline.session.end, waiting for the answer.
---@param args hashline.Args?
---@param timeout_ms? integer default: the timeout_ms option
---@return hashline.Result? result
---@return hashline.Error? err
function M.session_end_sync(args, timeout_ms)
  return api.execute_sync("hashline.session.end", args, timeout_ms)
end

return M
