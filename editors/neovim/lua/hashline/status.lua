-- hashline.status: what :HashlineInfo and :checkhealth report about the
-- binary and the running client.
local config = require("hashline.config")
local client = require("hashline.client")
local nvim = require("hashline.nvim")

local M = {}

local state = client.state

local function str(v)
  return type(v) == "string" and v or nil
end

--- The installed binary's version line ("hashline-ls 0.1.0"), or nil.
---@return string?
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

-- The text of a buffer as Neovim's LSP client sends it: its lines joined
-- by the file format's line ending, with one at the end unless 'eol' is
-- off.
local function full_text(buf)
  local eol = ({ dos = "\r\n", mac = "\r" })[vim.bo[buf].fileformat] or "\n"
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, true), eol)
  if vim.bo[buf].eol then
    text = text .. eol
  end
  return text
end

--- Compares what the server holds of buf with the buffer, by digest: nil
--- when they agree, else why not. A request first flushes the changes
--- Neovim holds back, so a buffer being typed in compares too.
---@param buf integer
---@return string? why
function M.compare(buf)
  local c = client.client()
  if not c then
    return "the server is not running"
  end
  local params = { uri = vim.uri_from_bufnr(buf) }
  local res, err = nvim.call(c, "request_sync", "hashline/documentDigest", params, 2000, buf)
  if not res or res.err or type(res.result) ~= "table" then
    return "the server did not answer: " .. tostring(err or (res and res.err and res.err.message))
  end
  local d = res.result
  if not d.open then
    return "the server does not hold it open"
  end
  local text = full_text(buf)
  if d.sha256 ~= vim.fn.sha256(text) then
    return string.format("the server's copy differs from the buffer (%d bytes at version %d; the buffer has %d bytes at version %s)",
      d.bytes, d.version, #text, tostring(require("hashline.apply").version_of(buf)))
  end
  return nil
end

--- What :HashlineInfo shows, as a table.
---@class hashline.Info
---@field setup boolean whether setup() ran
---@field enabled boolean whether vim.lsp.enable("hashline") turned the client on
---@field cmd string[] the server command
---@field binary? string the binary's path, when it is executable
---@field binary_version? string
---@field binary_from string where the command comes from
---@field root string the workspace folder
---@field settings table the server's settings
---@field status "not started"|"starting"|"running"
---@field client_id? integer
---@field workspace_folders? table
---@field client_encoding? string the position encoding the client counts in
---@field position_encoding? string the one the server announced
---@field endpoint? string where hashline-ls mcp reaches this server
---@field endpoint_problem? string why it cannot
---@field server_name? string
---@field version? string the server's version
---@field attached_buffers? string[] the names of the buffers attached

---@return hashline.Info
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
