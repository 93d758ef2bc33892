-- hashline.status: what :HashlineInfo and :checkhealth report about the
-- binary and the running client.
local config = require("hashline.config")
local client = require("hashline.client")

local M = {}

local state = client.state

local function str(v)
  return type(v) == "string" and v or nil
end

--- The installed binary's version line ("hashline-ls 0.1.0"), or nil.
function M.binary_version()
  if state.binary_version then
    return state.binary_version
  end
  if not client.executable() then
    return nil
  end
  local out = vim.fn.system({ client.cmd()[1], "version" })
  if vim.v.shell_error ~= 0 then
    return nil
  end
  state.binary_version = vim.trim(out)
  return state.binary_version
end

-- Where the server command comes from, for :checkhealth.
local function cmd_source(cmd)
  if not state.setup and client.enabled() then
    return 'vim.lsp.config("hashline")'
  elseif config.cmd_given then
    return "the cmd option of setup()"
  elseif cmd[1] == config.built then
    return "built in the plugin's repository"
  end
  return "found on PATH"
end

--- What :HashlineInfo shows, as a table.
function M.info()
  local c = client.client()
  local cmd = client.cmd()
  local info = {
    setup = state.setup,
    enabled = client.enabled(),
    cmd = cmd,
    binary = client.executable() and vim.fn.exepath(cmd[1]) or nil,
    binary_version = M.binary_version(),
    binary_from = cmd_source(cmd),
    root = client.root(),
    settings = config.values.settings,
    status = "not started",
  }
  if c then
    info.client_id = c.id
    info.status = c.initialized and "running" or "starting"
    info.workspace_folders = c.workspace_folders
    info.client_encoding = c.offset_encoding
    local caps = c.server_capabilities or (state.init_result and state.init_result.capabilities)
    if type(caps) == "table" then
      info.position_encoding = str(caps.positionEncoding)
    end
    -- Where hashline-ls mcp reaches this server (the bridge), from the
    -- answer to initialize: Neovim keeps no experimental capabilities of
    -- its own.
    local raw = state.init_result and state.init_result.capabilities
    local h = type(raw) == "table" and type(raw.experimental) == "table" and raw.experimental.hashline
    if type(h) == "table" then
      info.endpoint = str(h.endpoint)
      info.endpoint_problem = str(h.endpointProblem)
    end
    local si = (state.init_result and state.init_result.serverInfo) or c.server_info
    if type(si) == "table" then
      info.server_name = str(si.name)
      info.version = str(si.version)
    end
    info.attached_buffers = {}
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(buf) and vim.lsp.buf_is_attached(buf, c.id) then
        table.insert(info.attached_buffers, vim.api.nvim_buf_get_name(buf))
      end
    end
  end
  return info
end

return M
