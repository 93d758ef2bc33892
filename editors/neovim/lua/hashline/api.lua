-- hashline.api: running the server's commands from Lua. execute() runs one
-- and hands back its result table unchanged; the server renders every
-- result's text, and render() returns it. hashline.commands (generated
-- from the server's commands) has a function for each.
local config = require("hashline.config")
local client = require("hashline.client")
local nvim = require("hashline.nvim")

local M = {}

--- The arguments every command takes besides its own (see hashline-ls
--- describe for those).
---@class hashline.Args
---@field session? string the session: each has its own reads, registers and repeat guard; default: the session option, else "default"
---@field turn? string the assistant's current prompt: the repeat guard counts failures within one turn

--- A command's result, as the server sent it: ok, the fields of the
--- command, and the text the server rendered for it.
---@class hashline.Result
---@field ok boolean
---@field text string
---@field error? { code: string, message: string, retriable: boolean, details: table }
---@field [string] any

--- A call that never reached a command: no server, a timeout, a JSON-RPC
--- error (an unknown command, bad arguments).
---@class hashline.Error
---@field code string|integer
---@field message string

---@alias hashline.Callback fun(result: hashline.Result?, err: hashline.Error?)

--- One tool of describe: a command as a model sees it.
---@class hashline.Tool
---@field name string the tool's name, e.g. hashline_read
---@field command string the server command, e.g. hashline.read
---@field displayName string
---@field description string
---@field inputSchema table a JSON Schema
---@field readOnly boolean the command never changes a file

--- What describe answers.
---@class hashline.Describe
---@field version string
---@field tools hashline.Tool[]
---@field guidance string the guide to the edit language, for models

--- Runs a hashline command. callback(result, err): result is the command's
--- result table unchanged ({ok = true, ..., text} or {ok = false, error =
--- {...}, text}); a JSON-RPC error (unknown command, bad arguments) or a
--- failure to reach the server comes as (nil, err) with err.code and
--- err.message. Returns a function that cancels the request.
---@param command string a server command, e.g. "hashline.read"
---@param args? table its arguments
---@param callback? hashline.Callback
---@return fun() cancel
function M.execute(command, args, callback)
  callback = callback or function() end
  args = vim.deepcopy(args or {})
  if args.session == nil and config.values.session ~= nil then
    args.session = config.values.session
  end
  local cancelled = false
  local cancel_fn = function()
    cancelled = true
  end
  client.when_ready(function(c, err)
    if err or cancelled then
      if not cancelled then
        callback(nil, err)
      end
      return
    end
    -- No buffer: the client flushes every buffer's pending didChange first,
    -- so the server checks an edit against what the user typed a moment ago
    -- and not against text the debounce still holds back.
    local ok, id = nvim.call(c, "request", "workspace/executeCommand", { command = command, arguments = { client.object(args) } }, function(rpc_err, result)
      if rpc_err then
        callback(nil, rpc_err)
      else
        callback(result, nil)
      end
    end)
    if not ok then
      callback(nil, { code = "NO_SERVER", message = "hashline-ls has stopped: see :checkhealth hashline" })
      return
    end
    cancel_fn = function()
      pcall(nvim.call, c, "cancel_request", id)
    end
  end)
  return function()
    cancel_fn()
  end
end

--- Runs a command and waits for it (vim.wait: the editor keeps applying
--- edits meanwhile). Returns result, or nil, err.
---@param command string
---@param args? table
---@param timeout_ms? integer default: the timeout_ms option
---@return hashline.Result? result
---@return hashline.Error? err
function M.execute_sync(command, args, timeout_ms)
  local done, res, err = false, nil, nil
  local stop = M.execute(command, args, function(r, e)
    done, res, err = true, r, e
  end)
  local timeout = timeout_ms or config.values.timeout_ms
  vim.wait(timeout, function()
    return done
  end, 10)
  if not done then
    stop()
    return nil, { code = "TIMEOUT", message = string.format("%s did not answer within %d ms", command, timeout) }
  end
  return res, err
end

--- The tool definitions and the guide for models: from the server when it
--- can start, else from the binary's describe verb.
---@return hashline.Describe
function M.tool_definitions()
  local res = M.execute_sync("hashline.describe", {})
  if type(res) == "table" and res.ok and type(res.tools) == "table" then
    return res
  end
  if client.executable() then
    local out = vim.fn.system({ client.cmd()[1], "describe", "--json" })
    if vim.v.shell_error == 0 then
      local ok, decoded = pcall(vim.json.decode, out)
      if ok and type(decoded) == "table" and type(decoded.tools) == "table" then
        return decoded
      end
    end
  end
  error("hashline: cannot get the tool definitions: see :checkhealth hashline")
end

--- The text a model (or a person) reads for a result: the text the server
--- rendered for it. An error that never reached a command (no server, a
--- timeout, a JSON-RPC error) has none, and reads "CODE: message".
---@param result hashline.Result?
---@param err? hashline.Error
---@return string
function M.render(result, err)
  if err then
    return string.format("%s: %s", tostring(err.code or "ERROR"), tostring(err.message or vim.inspect(err)))
  end
  if type(result) == "table" and type(result.text) == "string" and result.text ~= "" then
    return result.text
  end
  return string.format("TOOL_FAILED: the server returned %s, not a result with its text; retry once, and report it if it repeats\n",
    vim.inspect(result, { newline = " ", indent = "" }))
end

return M
