-- hashline tools for avante.nvim, built from `describe`. This module never
-- requires avante: it returns plain tables in the shape avante documents for
-- custom_tools, to be put in its config:
--
--   require("avante").setup({
--     custom_tools = function() return require("hashline.adapters.avante").tools() end,
--   })
--
-- Each tool is { name, description, param = { type = "table", fields =
-- { { name, description, type, optional, choices } } }, returns, func }.
-- avante (it needs Neovim 0.11+) has called func as (params, on_log,
-- on_complete) and as (params, { on_log, on_complete }); both work. See
-- :help hashline-avante.
local shared = require("hashline.adapters.shared")

local M = {}

-- What a field of avante's cannot hold of a JSON Schema property, said in
-- its description, in this order.
local LIMITS = {
  { "minimum", "At least %s." },
  { "maximum", "At most %s." },
  { "minLength", "At least %s characters." },
  { "pattern", "Matches the pattern %s." },
}

local function limits(prop)
  local out = {}
  for _, l in ipairs(LIMITS) do
    if prop[l[1]] ~= nil then
      table.insert(out, string.format(l[2], tostring(prop[l[1]])))
    end
  end
  return out
end

-- avante's field types are JSON Schema's; an enum is its choices, an
-- object's properties its fields, an array's items its items.
local function field(name, prop, required)
  local desc = prop.description or ""
  local extra = limits(prop)
  if #extra > 0 then
    desc = vim.trim(desc .. " " .. table.concat(extra, " "))
  end
  local f = { name = name, description = desc, type = prop.type or "string", optional = not required }
  if type(prop.enum) == "table" then
    f.choices = vim.deepcopy(prop.enum)
  end
  if f.type == "object" and type(prop.properties) == "table" then
    f.fields = M.param(prop).fields
  elseif f.type == "array" and type(prop.items) == "table" then
    f.items = field("items", prop.items, true)
  end
  return f
end

--- The param of a tool: one field per property of its input schema, the
--- required ones first, each group in name order (a JSON object has none).
---@param schema table a JSON Schema of an object
---@return { type: "table", fields: table[] }
function M.param(schema)
  local required = {}
  for _, r in ipairs(type(schema.required) == "table" and schema.required or {}) do
    required[r] = true
  end
  local names = vim.tbl_keys(type(schema.properties) == "table" and schema.properties or {})
  table.sort(names, function(a, b)
    if (required[a] or false) ~= (required[b] or false) then
      return required[a] == true
    end
    return a < b
  end)
  local fields = {}
  for _, n in ipairs(names) do
    table.insert(fields, field(n, schema.properties[n], required[n] == true))
  end
  return { type = "table", fields = fields }
end

--- One avante tool for one describe tool.
---@param def hashline.Tool
---@param describe? hashline.Describe
---@param opts? hashline.AdapterOptions
---@return table tool
function M.tool(def, describe, opts)
  opts = opts or {}
  local hl = require("hashline")
  local description = def.description
  -- The edit language needs its guide, and avante has no per-tool system
  -- prompt: it goes into the edit tool's description.
  local guide = shared.guidance(def, describe)
  if guide then
    description = description .. "\n\n" .. guide
  end
  return {
    name = def.name,
    description = description,
    param = M.param(def.inputSchema or {}),
    returns = {
      { name = "result", description = "The rendered result: numbered lines under [path#TAG], or the edit's header and diff", type = "string" },
      { name = "error", description = "CODE: message, and the live lines to retry with", type = "string", optional = true },
    },
    func = function(params, a, b)
      local on_complete = type(a) == "table" and a.on_complete or b
      local function answer(res, err)
        if shared.ok(res, err) then
          return hl.render(res), nil
        end
        return nil, hl.render(res, err)
      end
      if type(on_complete) == "function" then
        hl.execute(def.command, params or {}, function(res, err)
          on_complete(answer(res, err))
        end)
        return nil, nil
      end
      return answer(hl.execute_sync(def.command, params or {}, opts.timeout_ms))
    end,
  }
end

--- The tools, as a list for avante's custom_tools. opts.describe: a
--- describe result to build from (default: asked of the server, or of the
--- binary).
---@param opts? hashline.AdapterOptions
---@return table[]
function M.tools(opts)
  return (shared.tools(opts, M.tool))
end

return M
