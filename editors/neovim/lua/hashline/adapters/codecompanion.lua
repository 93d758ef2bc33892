-- hashline tools for codecompanion.nvim, built from `describe`. This module
-- never requires codecompanion: it returns plain tables in the shape
-- codecompanion documents for custom tools ("Creating Tools"), to be put in
-- its config:
--
--   require("codecompanion").setup({
--     strategies = { chat = { tools = require("hashline.adapters.codecompanion").tools() } },
--   })
--
-- Each entry is { description, callback = tool, opts }, where the tool is
-- { name, cmds = { fn(self, args, input, output_handler) }, schema =
-- { type = "function", ["function"] = { name, description, parameters } },
-- system_prompt, output = { success, error } }. See :help hashline-codecompanion.
local M = {}

-- codecompanion has called the output functions two ways: (self, tools,
-- cmd, stdout) up to v17, (self, stdout, meta) with meta.tools since.
local function chat_and_data(a, b, c)
  if type(b) == "table" and type(b.tools) == "table" then
    return b.tools.chat, a
  end
  return type(a) == "table" and a.chat or nil, c
end

local function text(data)
  if type(data) ~= "table" then
    return tostring(data or "")
  end
  local out = {}
  local function walk(t)
    for _, v in ipairs(t) do
      if type(v) == "table" then
        walk(v)
      else
        table.insert(out, tostring(v))
      end
    end
  end
  walk(data)
  return table.concat(out, "\n")
end

local function approval(opts, name)
  local ra = opts.requires_approval
  if type(ra) == "table" then
    return ra[name] == true
  end
  return ra == true
end

--- One codecompanion tool for one describe tool.
function M.tool(def, describe, opts)
  opts = opts or {}
  local hl = require("hashline")
  local tool = {
    name = def.name,
    cmds = {
      -- Runs the command; a result with ok = false is an "error" so the
      -- model sees the code, the message and the live lines to retry with.
      function(_, args, _, output_handler)
        local function to_output(res, err)
          local ok = res ~= nil and err == nil and res.ok ~= false
          return { status = ok and "success" or "error", data = hl.render(res, err) }
        end
        if type(output_handler) == "function" then
          hl.execute(def.command, args or {}, function(res, err)
            output_handler(to_output(res, err))
          end)
          return nil
        end
        -- Versions without output_handler take the result as the return value.
        return to_output(hl.execute_sync(def.command, args or {}, opts.timeout_ms))
      end,
    },
    schema = {
      type = "function",
      ["function"] = {
        name = def.name,
        description = def.description,
        parameters = vim.deepcopy(def.inputSchema),
      },
    },
    output = {
      success = function(self, a, b, c)
        local chat, data = chat_and_data(a, b, c)
        if chat then
          chat:add_tool_output(self, text(data))
        end
      end,
      error = function(self, a, b, c)
        local chat, data = chat_and_data(a, b, c)
        if chat then
          chat:add_tool_output(self, text(data))
        end
      end,
    },
  }
  -- The edit language needs its guide; it goes with the edit tool, the one
  -- a model cannot use without it.
  if def.command == "hashline.edit" and describe and type(describe.guidance) == "string" then
    tool.system_prompt = describe.guidance
  end
  return tool
end

--- The tools, keyed by name, for codecompanion's strategies.chat.tools.
--- opts.describe: a describe result to build from (default: asked of the
--- server, or of the binary); opts.requires_approval: true, or a table of
--- tool names, e.g. { hashline_edit = true, hashline_write = true }.
function M.tools(opts)
  opts = opts or {}
  local describe = opts.describe or require("hashline").tool_definitions()
  local out = {}
  for _, def in ipairs(describe.tools) do
    out[def.name] = {
      description = def.description,
      callback = M.tool(def, describe, opts),
      opts = { requires_approval = approval(opts, def.name) },
    }
  end
  return out
end

--- A group naming every hashline tool, for codecompanion's
--- strategies.chat.tools.groups.
function M.group(opts)
  opts = opts or {}
  local describe = opts.describe or require("hashline").tool_definitions()
  local names = {}
  for _, def in ipairs(describe.tools) do
    table.insert(names, def.name)
  end
  return { description = "Read, search and edit files with hashline", tools = names }
end

return M
