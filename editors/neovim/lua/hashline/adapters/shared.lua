-- What the tool adapters (codecompanion, avante) share: the describe result
-- they build from, the guide that goes with the edit tool, and what counts
-- as a success.
local M = {}

--- The options every adapter's tools() takes.
---@class hashline.AdapterOptions
---@field describe? hashline.Describe a describe result to build from
---@field session? string one session for every call
---@field timeout_ms? integer
---@field requires_approval? boolean|table<string, boolean> codecompanion: which tools ask first

--- opts.describe, else the tool definitions of the server, or of the binary.
---@param opts? hashline.AdapterOptions
---@return hashline.Describe
function M.describe(opts)
  return (opts or {}).describe or require("hashline").tool_definitions()
end

--- The guide for models, for the edit tool; nil for the others.
---@param def hashline.Tool
---@param describe? hashline.Describe
---@return string?
function M.guidance(def, describe)
  if def.command == "hashline.edit" and describe and type(describe.guidance) == "string" then
    return describe.guidance
  end
  return nil
end

--- Whether a command answered with a result that is not a failure.
---@param res hashline.Result?
---@param err hashline.Error?
---@return boolean
function M.ok(res, err)
  return res ~= nil and err == nil and res.ok ~= false
end

--- The tools of describe, each made by make(def, describe, opts), as a
--- list and keyed by name. opts.describe: a describe result to build from
--- (default: asked of the server, or of the binary).
---@generic T
---@param opts? hashline.AdapterOptions
---@param make fun(def: hashline.Tool, describe: hashline.Describe, opts: hashline.AdapterOptions): T
---@return T[] list
---@return table<string, T> by_name
function M.tools(opts, make)
  opts = opts or {}
  local describe = M.describe(opts)
  local list, by_name = {}, {}
  for _, def in ipairs(describe.tools) do
    local tool = make(def, describe, opts)
    table.insert(list, tool)
    by_name[def.name] = tool
  end
  return list, by_name
end

return M
