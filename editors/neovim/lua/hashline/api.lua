-- hashline.api: the commands as Lua functions. Each runs one server command
-- and hands back its result table unchanged; the server renders every
-- result's text, and render() returns it.
local config = require("hashline.config")
local client = require("hashline.client")

local M = {}

local has = client.has

local function request(c, method, params, handler)
  if has("0.11") then
    return c:request(method, params, handler)
  end
  -- No buffer: the client flushes every buffer's pending didChange first, so
  -- the server checks an edit against what the user typed a moment ago and
  -- not against text the debounce still holds back.
  return c.request(method, params, handler)
end

local function cancel(c, id)
  if has("0.11") then
    pcall(c.cancel_request, c, id)
  else
    pcall(c.cancel_request, id)
  end
end

--- Runs a hashline command. callback(result, err): result is the command's
--- result table unchanged ({ok = true, ..., text} or {ok = false, error =
--- {...}, text}); a JSON-RPC error (unknown command, bad arguments) or a
--- failure to reach the server comes as (nil, err) with err.code and
--- err.message. Returns a function that cancels the request.
function M.execute(command, args, callback)
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
    local ok, id = request(c, "workspace/executeCommand", { command = command, arguments = { client.object(args) } }, function(rpc_err, result)
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
      cancel(c, id)
    end
  end)
  return function()
    cancel_fn()
  end
end

--- Runs a command and waits for it (vim.wait: the editor keeps applying
--- edits meanwhile). Returns result, or nil, err.
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

-- The API: read, grep, write, edit, patch, describe, session_end, each with
-- an async form fn(args, callback) and a blocking one fn_sync(args, timeout_ms).
M.commands = {
  read = "hashline.read",
  grep = "hashline.grep",
  write = "hashline.write",
  edit = "hashline.edit",
  -- hashline.patch (per-line anchors, several files at once) is forwarded as
  -- is: the server answers whatever it supports.
  patch = "hashline.patch",
  describe = "hashline.describe",
  session_end = "hashline.session.end",
}

for fn, command in pairs(M.commands) do
  M[fn] = function(args, callback)
    return M.execute(command, args, callback or function() end)
  end
  M[fn .. "_sync"] = function(args, timeout_ms)
    return M.execute_sync(command, args, timeout_ms)
  end
end

--- The tool definitions and the guide for models: from the server when it
--- can start, else from the binary's describe verb.
function M.tool_definitions()
  local res = M.describe_sync({})
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
