-- hashline.client: the LSP client of hashline-ls. Its config and handlers,
-- starting it, attaching buffers, and waiting for the client to answer
-- initialize.
--
-- The server lands every edit through workspace/applyEdit (hashline.apply),
-- so the edit goes through Neovim's buffers and undo. For that to be safe
-- the server must see every buffer an edit touches: the client is attached
-- to every buffer that holds a file, whatever its filetype, including the
-- buffers Neovim loads by itself to apply an edit.
local config = require("hashline.config")
local apply = require("hashline.apply")
local nvim = require("hashline.nvim")

local M = {}

local uv = vim.uv or vim.loop

M.NAME = "hashline"
local NAME = M.NAME

local has = nvim.has

--- The plugin's state. Exposed for :HashlineInfo, the health check and tests.
---@class hashline.State
---@field setup boolean whether setup() ran
---@field client_id? integer the client the API talks to
---@field root? string the workspace folder the server runs in
---@field init_result? table the server's answer to initialize
---@field last_file_buf? integer the file buffer entered last (for :checkhealth, which runs in a scratch buffer)
---@field warned_missing boolean
---@field binary_version? string
---@field enable_seen boolean Neovim 0.11: vim.lsp.enable has asked the config for a root
M.state = {
  setup = false,
  client_id = nil,
  root = nil,
  init_result = nil,
  last_file_buf = nil,
  warned_missing = false,
  binary_version = nil,
  enable_seen = false,
}
local state = M.state

--- object keeps an empty Lua table an object on the wire: vim.json encodes
--- {} as [], and the server takes arguments and settings only as objects.
---@param t? table
---@return table
function M.object(t)
  if t == nil or next(t) == nil then
    return vim.empty_dict()
  end
  return t
end

--- Whether vim.lsp.enable("hashline") turned the client on (Neovim 0.11+).
---@return boolean
function M.enabled()
  if not has("0.11") then
    return false
  end
  if vim.lsp.is_enabled then
    return vim.lsp.is_enabled(NAME)
  end
  -- 0.11 has no is_enabled(), and says so only by asking the config for a
  -- root (enable_config), for the first buffer with a filetype; a later
  -- vim.lsp.enable("hashline", false) goes unseen.
  return state.enable_seen
end

-- The config registered with vim.lsp.config (a copy: starting a client may
-- change it), when setup() or the user's vim.lsp.enable put one there.
local function registered()
  if not (has("0.11") and (state.setup or M.enabled())) then
    return nil
  end
  local ok, cfg = pcall(function()
    return vim.lsp.config[NAME]
  end)
  return ok and type(cfg) == "table" and vim.deepcopy(cfg) or nil
end

--- The server command: setup()'s, else the one vim.lsp.config holds for a
--- client started with vim.lsp.enable alone.
---@return string[]
function M.cmd()
  if not state.setup then
    local cfg = registered()
    if cfg and type(cfg.cmd) == "table" then
      return cfg.cmd
    end
  end
  return config.values.cmd
end

--- Whether the server command names an executable.
---@return boolean
function M.executable()
  local cmd = M.cmd()
  return type(cmd) == "table" and type(cmd[1]) == "string" and vim.fn.executable(cmd[1]) == 1
end

local function resolve_root()
  local root = config.values.root
  if type(root) == "function" then
    root = root()
  end
  if type(root) ~= "string" or root == "" then
    root = vim.fn.getcwd()
  end
  root = vim.fn.fnamemodify(root, ":p")
  if #root > 1 then
    root = root:gsub("/$", "")
  end
  return root
end

--- The workspace folder the server runs in (or will).
---@return string
function M.root()
  return state.root or resolve_root()
end

--- Whether a buffer holds a file: loaded, a normal buffer, with a name that
--- is a path rather than another plugin's URI (fugitive://, hashline://).
---@param buf? integer
---@return boolean
function M.is_file_buffer(buf)
  if not (buf and vim.api.nvim_buf_is_valid(buf) and vim.api.nvim_buf_is_loaded(buf)) then
    return false
  end
  if vim.bo[buf].buftype ~= "" then
    return false
  end
  local name = vim.api.nvim_buf_get_name(buf)
  return name ~= "" and not name:match("^%a[%w+.-]*://")
end

--- The hashline client, if one is running.
---@return table? client a vim.lsp.Client
function M.client()
  if state.client_id then
    local c = vim.lsp.get_client_by_id(state.client_id)
    if c then
      return c
    end
    state.client_id = nil
  end
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  for _, c in ipairs(all) do
    if c.name == NAME and (state.root == nil or c.config.root_dir == state.root) then
      state.client_id = c.id
      return c
    end
  end
  return nil
end

-- Waiting for initialize --------------------------------------------------

-- Calls waiting for a client to answer initialize, by client id. on_init
-- runs them, on_exit fails them, and each gives up after timeout_ms.
local waiting = {}

local function settle(id, client, err)
  local q = waiting[id] or {}
  waiting[id] = nil
  for _, w in ipairs(q) do
    w.timer:stop()
    w.timer:close()
    w.fn(client, err)
  end
end

local function no_server(message)
  return { code = "NO_SERVER", message = message }
end

--- Calls fn(client) once the client has answered initialize, starting it if
--- need be, or fn(nil, err) when it cannot start.
---@param fn fun(client: table?, err: hashline.Error?)
function M.when_ready(fn)
  local id = M.start()
  if not id then
    return fn(nil, no_server("hashline-ls is not running: see :checkhealth hashline"))
  end
  local c = vim.lsp.get_client_by_id(id)
  if c and c.initialized then
    return fn(c)
  end
  local w = { fn = fn, timer = uv.new_timer() }
  waiting[id] = waiting[id] or {}
  table.insert(waiting[id], w)
  local timeout = config.values.timeout_ms
  w.timer:start(timeout, 0, vim.schedule_wrap(function()
    local q = waiting[id] or {}
    for i, x in ipairs(q) do
      if x == w then
        table.remove(q, i)
        w.timer:close()
        -- A client whose on_init a user's config replaced never calls
        -- back; it may have started all the same.
        local cl = vim.lsp.get_client_by_id(id)
        if cl and cl.initialized then
          return fn(cl)
        end
        return fn(nil, no_server(string.format("hashline-ls did not start within %d ms: see :checkhealth hashline", timeout)))
      end
    end
  end))
end

-- The client config ---------------------------------------------------------

-- hashline/saveDocument: hashline-ls asks for a buffer to be saved after a
-- terminal agent's edit (through hashline-ls mcp) landed in it; the server
-- asks only when the buffer held no unsaved changes before the edit, so the
-- agent's next step on the disk sees it. The buffer is saved only if it is
-- exactly as the edit left it (its version then, and the one the server
-- names): a person who typed since keeps those changes unsaved. Decided
-- and done in one step here, where the person types. Neovim's own :write
-- saves it, so BufWritePre autocmds (formatters) run; :write! because the
-- server has checked that the disk holds what the buffer held.
local function save_document(_, params)
  local uri = type(params) == "table" and params.uri
  if type(uri) ~= "string" then
    return { saved = false, reason = "the request names no uri" }
  end
  local fname = vim.uri_to_fname(uri)
  local buf = vim.fn.bufnr(fname)
  if buf <= 0 or not vim.api.nvim_buf_is_loaded(buf) then
    return { saved = false, reason = "Neovim holds no buffer for " .. fname }
  end
  if vim.bo[buf].readonly or not vim.bo[buf].modifiable then
    return { saved = false, reason = "the buffer is read-only in Neovim" }
  end
  local now, left = apply.version_of(buf), apply.left_at(buf)
  local want = params.version
  if left == nil or now ~= left or (want ~= nil and want ~= vim.NIL and want ~= now) then
    return { saved = false, reason = "the buffer changed after the edit landed (typing that is not saved)" }
  end
  local ok, err = pcall(vim.api.nvim_buf_call, buf, function()
    vim.cmd("silent write!")
  end)
  if not ok then
    return { saved = false, reason = tostring(err) }
  end
  return { saved = true }
end

--- The handlers of the requests the server sends the client, one table:
--- each is function(err, params, ctx, config) and returns the answer.
M.handlers = {
  ["workspace/applyEdit"] = apply.handler,
  ["hashline/saveDocument"] = save_document,
  ["hashline/flush"] = apply.flush_handler,
}


local function on_init(client, result)
  -- The client the API talks to stays the one that holds the buffers.
  local current = state.client_id and vim.lsp.get_client_by_id(state.client_id)
  if not current or current.id == client.id then
    state.init_result = result
    state.client_id = client.id
  end
  -- Scheduled: Neovim sends the didOpen of buffers attached while the
  -- client started only after on_init returns, and a command must not
  -- reach the server before them.
  vim.schedule(function()
    settle(client.id, client)
  end)
end

-- on_exit may run in a fast event, where most of the API is off limits.
local function on_exit(code, _, client_id)
  if state.client_id == client_id then
    state.client_id = nil
    state.init_result = nil
  end
  vim.schedule(function()
    settle(client_id, nil, no_server(string.format("hashline-ls exited (code %s) before it answered: see :checkhealth hashline", tostring(code))))
  end)
end

-- The languageId each buffer was opened with, kept until it is wiped out.
-- A buffer is attached as it is read, before Neovim detects its filetype;
-- were its languageId then "", vim.lsp.enable (0.11+) would reopen the
-- document as its filetype once detected, and that reopening leaves
-- Neovim's change tracking counting the buffer twice: after :bdelete it
-- computes changes from lines the buffer no longer holds. So the
-- languageId is the detected filetype from the start, and never changes:
-- hashline-ls treats every language alike.
local language_ids = nvim.per_buffer("hashline.client")

local function language_id(buf, filetype)
  if language_ids[buf] == nil then
    local detected
    if has("0.8") then
      local ok, ft = pcall(vim.filetype.match, { buf = buf })
      detected = ok and ft or nil
    end
    language_ids[buf] = detected or filetype or ""
  end
  return language_ids[buf]
end

--- The client configuration handed to Neovim's LSP client.
---@return table config a vim.lsp.ClientConfig
function M.client_config()
  state.root = state.root or resolve_root()
  local settings = M.object(vim.deepcopy(config.values.settings or {}))
  return {
    name = NAME,
    cmd = config.values.cmd,
    root_dir = state.root,
    -- Named by its path, as Neovim names the folders it makes: 0.8 to 0.10
    -- reuse a running client only for a folder whose name is the root.
    workspace_folders = { { uri = vim.uri_from_fname(state.root), name = state.root } },
    -- What this client does beyond the protocol: it answers
    -- hashline/saveDocument and hashline/flush, and checks the version of
    -- every edit itself (Neovim's own check skips version 0).
    init_options = { hashline = vim.tbl_extend("force", settings, { saveDocument = true, flush = true }) },
    settings = { hashline = settings },
    flags = config.values.flags,
    get_language_id = language_id,
    handlers = M.handlers,
    on_attach = config.values.on_attach,
    on_init = on_init,
    on_exit = on_exit,
  }
end

--- The config for vim.lsp.config (0.11+), which setup() registers and
--- lsp/hashline.lua returns: vim.lsp.enable() attaches a buffer as it loads
--- when it holds a file; one that loads while an edit is applied is
--- attached by hashline.apply once the edit is in it.
---@return table config a vim.lsp.Config
function M.enable_config()
  local cfg = M.client_config()
  cfg.root_dir = function(bufnr, on_dir)
    if not state.enable_seen then
      state.enable_seen = true
      if not vim.lsp.is_enabled and not state.setup then
        -- 0.11: only now known to be enabled; the file buffers loaded so
        -- far (those with no filetype among them) get attached.
        vim.schedule(function()
          for _, buf in ipairs(vim.api.nvim_list_bufs()) do
            M._on_buffer(buf)
          end
        end)
      end
    end
    if not apply.applying() and M.is_file_buffer(bufnr) then
      on_dir(M.root())
    end
  end
  return cfg
end

-- Starting and attaching ----------------------------------------------------

-- The config to start or reuse the client with: on 0.11 the one registered
-- with vim.lsp.config.
local function lsp_config()
  local cfg = registered()
  if cfg then
    -- vim.lsp.start takes the root as a path, not as the function
    -- registered for enable().
    cfg.root_dir = M.root()
    return cfg
  end
  return M.client_config()
end

--- Starts the server unless it runs, and returns the client id (nil when it
--- cannot start: see :checkhealth hashline).
---@return integer? client_id
function M.start()
  local c = M.client()
  if c then
    return c.id
  end
  if not M.executable() then
    if not state.warned_missing then
      state.warned_missing = true
      nvim.notify(string.format("%s is not executable; see :checkhealth hashline", tostring(M.cmd()[1])), vim.log.levels.WARN)
    end
    return nil
  end
  local id
  if has("0.11") then
    -- attach = false starts the client without a buffer (an API call may
    -- come first).
    id = vim.lsp.start(lsp_config(), { attach = false })
  else
    -- 0.7 to 0.10: the one call that starts a client without a buffer.
    id = vim.lsp.start_client(M.client_config())
  end
  state.client_id = id
  return id
end

--- Attaches the server to a buffer that holds a file, starting it if need be.
--- Returns whether the buffer is attached.
---@param buf? integer the buffer; nil or 0: the current one
---@return boolean
function M.attach(buf)
  buf = (buf == nil or buf == 0) and vim.api.nvim_get_current_buf() or buf
  if not M.is_file_buffer(buf) then
    return false
  end
  if not M.client() and not M.executable() then
    M.start() -- says once why it cannot start
    return false
  end
  if has("0.8") then
    -- vim.lsp.start reuses the running client of the same name and root,
    -- and attaches the buffer to it.
    local cfg = lsp_config()
    if not M.client() then
      M.start()
    end
    return vim.lsp.start(cfg, { bufnr = buf }) ~= nil
  end
  local id = M.start()
  if not id then
    return false
  end
  return vim.lsp.buf_attach_client(buf, id) ~= false
end

--- Whether the server is attached to a buffer.
---@param buf integer
---@return boolean
function M.is_attached(buf)
  local c = M.client()
  if not c then
    return false
  end
  return vim.lsp.buf_is_attached(buf, c.id) and true or false
end

--- Called by hashline.hooks for every buffer read, created or added.
---@param buf integer
function M._on_buffer(buf)
  if apply.defer_attach(buf) then
    return
  end
  -- After setup() as autostart says; without it, once vim.lsp.enable
  -- turned the client on (which never sees a file with no filetype).
  if not (state.setup and config.values.autostart or not state.setup and M.enabled()) then
    return
  end
  if M.is_file_buffer(buf) then
    M.attach(buf)
  end
end


--- Called by hashline.hooks on BufEnter.
---@param buf integer
function M._on_enter(buf)
  if M.is_file_buffer(buf) then
    state.last_file_buf = buf
  end
end

--- The buffer the user works in: the current buffer when it holds a file,
--- else the file buffer entered last (:checkhealth runs in a scratch buffer).
---@return integer?
function M.current_file_buffer()
  local cur = vim.api.nvim_get_current_buf()
  if M.is_file_buffer(cur) then
    return cur
  end
  if state.last_file_buf and M.is_file_buffer(state.last_file_buf) then
    return state.last_file_buf
  end
  return nil
end

--- What setup() does once the options are merged: registers the config on
--- 0.11 and, with autostart, attaches the buffers already loaded.
function M.configure()
  state.setup = true
  -- A running server keeps its root until it restarts.
  if not M.client() then
    state.root = nil
  end
  state.warned_missing = false
  state.binary_version = nil
  if has("0.11") then
    -- Assigned, not merged: a second setup() replaces the config whole.
    vim.lsp.config[NAME] = M.enable_config()
    if config.values.autostart then
      -- enable() attaches buffers that have a filetype; hashline.hooks
      -- attaches the rest (files with no filetype, buffers an edit loads).
      vim.lsp.enable(NAME)
    end
  end
  if config.values.autostart then
    -- Buffers loaded before setup ran (a lazy-loaded plugin, files named on
    -- the command line) get attached now.
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      M._on_buffer(buf)
    end
    M._on_enter(vim.api.nvim_get_current_buf())
  end
end

return M
