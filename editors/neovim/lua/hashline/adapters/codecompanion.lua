-- hashline tools for codecompanion.nvim (v18 and later, tested with v19.22;
-- it needs Neovim 0.11+), built from `describe`. This module never requires
-- codecompanion: it returns the tables codecompanion takes for tools, to be
-- put in its config:
--
--   local cc = require("hashline.adapters.codecompanion")
--   local tools = cc.tools()
--   tools.groups = { hashline = cc.group() }
--   require("codecompanion").setup({ interactions = { chat = { tools = tools } } })
--
-- Each entry is { description, callback, opts = { require_approval_before } }
-- where callback() returns the tool: { name, schema = { type = "function",
-- ["function"] = { name, description, parameters } }, cmds = {
-- function(self, args, opts) }, system_prompt, output }. See :help
-- hashline-codecompanion.
local shared = require("hashline.adapters.shared")

local M = {}

--- Whether a tool asks before it runs: requires_approval is true or false
--- for every tool, or a table of tool names whose entries override the
--- default: a tool that may change files (one describe does not mark
--- readOnly) asks.
---@param opts { requires_approval?: boolean|table<string, boolean> }
---@param def hashline.Tool
---@return boolean
function M.asks(opts, def)
  local ra = opts.requires_approval
  if type(ra) == "table" and ra[def.name] ~= nil then
    return ra[def.name] == true
  elseif type(ra) == "boolean" then
    return ra
  end
  return def.readOnly ~= true
end

-- codecompanion hands an output function the list of what the tool's cmds
-- answered (for errors, of every error of the run so far); the last is
-- this call's.
local function last(data)
  if type(data) == "table" then
    return tostring(data[#data] or "")
  end
  return tostring(data or "")
end

-- The question codecompanion asks before a tool that changes files runs:
-- the file and the change its dry run planned, or (when the server could
-- not plan it) what the model sent.
local function question(def, args, planned)
  local body, fence = args.ops or args.patch or args.content, "````"
  if type(planned) == "table" and planned.ok and planned.dryRun then
    body, fence = planned.text, "````diff"
  end
  local lines = { string.format("Run %s on %s?", def.name, tostring(args.path or "the files of its patch")) }
  if type(body) == "string" and body ~= "" then
    table.insert(lines, fence)
    table.insert(lines, (body:gsub("\n$", "")))
    table.insert(lines, "````")
  end
  return table.concat(lines, "\n")
end

-- The arguments a call runs with: each chat is a session of its own, and
-- each of its cycles a turn, unless opts.session names one session for all.
local function call_args(args, chat, opts)
  args = vim.deepcopy(args or {})
  if args.session == nil then
    args.session = opts.session or (chat and chat.bufnr and ("codecompanion-" .. chat.bufnr)) or nil
  end
  if args.turn == nil and chat and chat.cycle then
    args.turn = tostring(chat.cycle)
  end
  return args
end

--- Whether to ask before a call that changes files: it plans the call first
--- (dryRun: nothing written, the session left as it was) and keeps the plan
--- for the question. A call the server refuses is not asked about: it runs,
--- and the model reads the refusal from the call itself. A server that
--- cannot plan it still asks.
---@param def hashline.Tool
---@param tool table the codecompanion tool, with the call's args
---@param chat? table
---@param opts hashline.AdapterOptions
---@return boolean
function M.plan(def, tool, chat, opts)
  local args = call_args(tool.args, chat, opts)
  args.dryRun = true
  local res = require("hashline").execute_sync(def.command, args)
  tool.planned = res
  local field = type(res) == "table" and type(res.error) == "table" and type(res.error.details) == "table" and res.error.details.field
  return not (type(res) == "table" and res.ok == false and field ~= "dryRun")
end

--- One codecompanion tool for one describe tool. Each chat is a session of
--- its own (its reads are its own), and each of its cycles a turn, unless
--- opts.session names one session for all.
---@param def hashline.Tool
---@param describe? hashline.Describe
---@param opts? hashline.AdapterOptions
---@return table tool
function M.tool(def, describe, opts)
  opts = opts or {}
  local hl = require("hashline")
  local tool = {
    name = def.name,
    schema = {
      type = "function",
      ["function"] = {
        name = def.name,
        description = def.description,
        parameters = vim.deepcopy(def.inputSchema),
      },
    },
    cmds = {
      -- Answers once, through output_cb, when the server has: a result
      -- with ok = false is an "error", so the model reads the code, the
      -- message and the live lines to retry with.
      function(self, args, cmd_opts)
        args = call_args(args, type(self) == "table" and self.chat or nil, opts)
        hl.execute(def.command, args, function(res, err)
          cmd_opts.output_cb({ status = shared.ok(res, err) and "success" or "error", data = hl.render(res, err) })
        end)
      end,
    },
    output = {
      success = function(self, stdout, meta)
        meta.tools.chat:add_tool_output(self, last(stdout))
      end,
      error = function(self, stderr, meta)
        meta.tools.chat:add_tool_output(self, last(stderr))
      end,
      prompt = function(self)
        return question(def, self.args or {}, self.planned)
      end,
    },
  }
  -- The edit language needs its guide; it goes with the edit tool, the one
  -- a model cannot use without it.
  tool.system_prompt = shared.guidance(def, describe)
  return tool
end

--- The tools, keyed by name, for codecompanion's interactions.chat.tools
--- (or the older strategies.chat.tools). opts.describe: a describe result
--- to build from (default: asked of the server, or of the binary);
--- opts.requires_approval: true, false, or a table of tool names, e.g.
--- { hashline_edit = true, hashline_write = true }; opts.session.
---@param opts? hashline.AdapterOptions
---@return table<string, table>
function M.tools(opts)
  local _, by_name = shared.tools(opts, function(def, describe, o)
    return {
      description = def.description,
      callback = function()
        return M.tool(def, describe, o)
      end,
      opts = {
        require_approval_before = M.asks(o, def)
          and function(tool, tools)
            return M.plan(def, tool, type(tools) == "table" and tools.chat or nil, o or {})
          end,
      },
    }
  end)
  return by_name
end

--- A group naming every hashline tool, for codecompanion's
--- interactions.chat.tools.groups: @{hashline} in a chat gives them all.
---@param opts? hashline.AdapterOptions
---@return { description: string, prompt: string, tools: string[] }
function M.group(opts)
  local describe = shared.describe(opts)
  local names = {}
  for _, def in ipairs(describe.tools) do
    table.insert(names, def.name)
  end
  return {
    description = "Read, search and edit files with hashline",
    prompt = "I'm giving you ${tools} to read, search and edit files",
    tools = names,
  }
end

return M
