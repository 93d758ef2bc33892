-- hashline: runs hashline-ls in Neovim and gives assistants (and people) its
-- commands. See :help hashline.
--
-- The server lands every edit through workspace/applyEdit, so the edit goes
-- through Neovim's buffers and undo. For that to be safe the server must see
-- every buffer an edit touches: this module attaches the client to every
-- buffer that holds a file, whatever its filetype, including the buffers
-- Neovim loads by itself to apply an edit.
local M = {}

local uv = vim.uv or vim.loop

local function has(version)
  return vim.fn.has("nvim-" .. version) == 1
end

local defaults = {
  -- The server command. hashline-ls serves LSP on stdio.
  cmd = { "hashline-ls", "--stdio" },
  -- The workspace folder: a path, or a function returning one. Default: the
  -- current directory when the server starts.
  root = nil,
  -- The server's settings (extraRoots, landTimeoutMs), sent as
  -- initializationOptions and workspace/didChangeConfiguration.
  settings = {},
  -- Client flags, e.g. { debounce_text_changes = 150 }. nil keeps Neovim's
  -- defaults: the server is built to cope with them.
  flags = nil,
  -- Called as on_attach(client, bufnr) for every buffer the client attaches.
  on_attach = nil,
  -- The session of API calls that name none (the server's default is
  -- "default"). Each session has its own reads, registers and repeat guard.
  session = nil,
  -- The session of :HashlineRead and :HashlineEdit, kept apart from an
  -- assistant's so a person's reads never count as the assistant's.
  ui_session = "nvim",
  -- How long the _sync forms wait, in milliseconds.
  timeout_ms = 10000,
  -- Start the server and attach file buffers as they are read.
  autostart = true,
}

M.config = vim.deepcopy(defaults)

-- The plugin's state. Exposed for :HashlineInfo, the health check and tests.
local state = {
  setup = false,
  client_id = nil,
  root = nil,
  init_result = nil, -- the server's answer to initialize
  last_file_buf = nil, -- the file buffer entered last (for :checkhealth, which runs in a scratch buffer)
  warned_missing = false,
  binary_version = nil,
}
M._state = state

local NAME = "hashline"

-- Helpers ------------------------------------------------------------------

local function notify(msg, level)
  vim.notify("hashline: " .. msg, level or vim.log.levels.INFO)
end

-- object keeps an empty Lua table an object on the wire: vim.json encodes {}
-- as [], and the server takes arguments and settings only as objects.
local function object(t)
  if t == nil or next(t) == nil then
    return vim.empty_dict()
  end
  return t
end

local function resolve_root()
  local root = M.config.root
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
function M.root()
  return state.root or resolve_root()
end

--- Whether a buffer holds a file: loaded, a normal buffer, with a name that
--- is a path rather than another plugin's URI (fugitive://, hashline://).
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

local function executable()
  local cmd = M.config.cmd
  return type(cmd) == "table" and type(cmd[1]) == "string" and vim.fn.executable(cmd[1]) == 1
end

-- A file an edit creates starts as an empty buffer, and Neovim holds an
-- empty buffer as one empty line: the server's insert of "a\nb\n" at 0:0
-- then leaves "a", "b", "" and writing the buffer adds a blank line the
-- content never had. When a created file's buffer holds exactly the content
-- plus that phantom line, the line goes, before the answer, so the server
-- sees (and :write saves) the content as sent.
local function trim_created(params)
  local changes = type(params) == "table" and type(params.edit) == "table" and params.edit.documentChanges
  if type(changes) ~= "table" then
    return
  end
  local created = {}
  for _, ch in ipairs(changes) do
    if ch.kind == "create" and type(ch.uri) == "string" then
      created[ch.uri] = true
    elseif ch.kind == nil and type(ch.textDocument) == "table" and created[ch.textDocument.uri] and type(ch.edits) == "table" and #ch.edits == 1 then
      local want = ch.edits[1].newText
      local buf = vim.fn.bufnr(vim.uri_to_fname(ch.textDocument.uri))
      if type(want) == "string" and buf > 0 and vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].eol then
        local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
        if #lines >= 2 and lines[#lines] == "" and table.concat(lines, "\n") == want then
          vim.api.nvim_buf_set_lines(buf, -2, -1, false, {})
        end
      end
    end
  end
end

-- Buffers Neovim loads while it applies an edit (a file no window shows, a
-- created file, the target of a move) are attached once the edit is in
-- them, not while they load: their didOpen then carries the text the edit
-- left, so the server sees it at once instead of a half-made buffer (an
-- empty one, for a created file) that a late, debounced didChange corrects.
local applying = nil

local function apply_edit(err, params, ctx, config)
  applying = {}
  local ok, result = pcall(vim.lsp.handlers["workspace/applyEdit"], err, params, ctx, config)
  local loaded = applying
  applying = nil
  if not ok then
    result = { applied = false, failureReason = tostring(result) }
  elseif type(result) == "table" and result.applied then
    pcall(trim_created, params)
  end
  for _, buf in ipairs(loaded) do
    if M.is_file_buffer(buf) then
      M.attach(buf)
    end
  end
  return result
end

--- The client configuration handed to Neovim's LSP client.
function M.client_config()
  state.root = state.root or resolve_root()
  local settings = object(vim.deepcopy(M.config.settings or {}))
  return {
    name = NAME,
    cmd = M.config.cmd,
    root_dir = state.root,
    workspace_folders = { { uri = vim.uri_from_fname(state.root), name = vim.fn.fnamemodify(state.root, ":t") } },
    init_options = { hashline = settings },
    settings = { hashline = settings },
    flags = M.config.flags,
    handlers = { ["workspace/applyEdit"] = apply_edit },
    on_attach = M.config.on_attach,
    on_init = function(client, result)
      state.init_result = result
      state.client_id = client.id
    end,
    on_exit = function(_, _, client_id)
      if state.client_id == client_id then
        state.client_id = nil
        state.init_result = nil
      end
    end,
  }
end

-- Starting and attaching ----------------------------------------------------

-- The config to start or reuse the client with: on 0.11 the one registered
-- with vim.lsp.config at setup (a copy: starting a client may change it).
local function lsp_config()
  if has("0.11") and state.setup then
    local ok, cfg = pcall(function()
      return vim.lsp.config[NAME]
    end)
    if ok and type(cfg) == "table" then
      cfg = vim.deepcopy(cfg)
      -- vim.lsp.start takes the root as a path, not as the function
      -- registered for enable().
      cfg.root_dir = M.root()
      return cfg
    end
  end
  return M.client_config()
end

--- Starts the server unless it runs, and returns the client id (nil when it
--- cannot start: see :checkhealth hashline).
function M.start()
  local c = M.client()
  if c then
    return c.id
  end
  if not executable() then
    if not state.warned_missing then
      state.warned_missing = true
      notify(string.format("%s is not executable; see :checkhealth hashline", tostring(M.config.cmd[1])), vim.log.levels.WARN)
    end
    return nil
  end
  local id
  if has("0.11") then
    -- The config registered with vim.lsp.config at setup; attach = false
    -- starts the client without a buffer (an API call may come first).
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
function M.attach(buf)
  buf = (buf == nil or buf == 0) and vim.api.nvim_get_current_buf() or buf
  if not M.is_file_buffer(buf) then
    return false
  end
  if not M.client() and not executable() then
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
function M.is_attached(buf)
  local c = M.client()
  if not c then
    return false
  end
  return vim.lsp.buf_is_attached(buf, c.id) and true or false
end

-- Called by plugin/hashline.lua for every buffer read, created or added.
function M._on_buffer(buf)
  if applying then
    table.insert(applying, buf)
    return
  end
  if not (state.setup and M.config.autostart) then
    return
  end
  if M.is_file_buffer(buf) then
    M.attach(buf)
  end
end

-- Called by plugin/hashline.lua on BufEnter.
function M._on_enter(buf)
  if M.is_file_buffer(buf) then
    state.last_file_buf = buf
  end
end

--- The buffer the user works in: the current buffer when it holds a file,
--- else the file buffer entered last (:checkhealth runs in a scratch buffer).
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

--- Configures the plugin; see :help hashline-setup.
function M.setup(opts)
  opts = opts or {}
  local cfg = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts)
  -- Lists replace, never merge index by index.
  if opts.cmd then
    cfg.cmd = type(opts.cmd) == "string" and { opts.cmd, "--stdio" } or vim.deepcopy(opts.cmd)
  end
  -- Neither executable() nor the process spawn expands a leading ~.
  if type(cfg.cmd[1]) == "string" and cfg.cmd[1]:sub(1, 1) == "~" then
    cfg.cmd[1] = vim.fn.expand(cfg.cmd[1])
  end
  M.config = cfg
  state.setup = true
  -- A running server keeps its root until it restarts.
  if not M.client() then
    state.root = nil
  end
  state.warned_missing = false
  state.binary_version = nil
  if has("0.11") then
    local cfg11 = M.client_config()
    -- enable() attaches a buffer as it loads; one that loads while an edit
    -- is applied is attached by apply_edit once the edit is in it.
    cfg11.root_dir = function(bufnr, on_dir)
      if not applying and M.is_file_buffer(bufnr) then
        on_dir(M.root())
      end
    end
    -- Assigned, not merged: a second setup() replaces the config whole.
    vim.lsp.config[NAME] = cfg11
    if M.config.autostart then
      -- enable() attaches buffers that have a filetype; plugin/hashline.lua
      -- attaches the rest (files with no filetype, buffers an edit loads).
      vim.lsp.enable(NAME)
    end
  end
  if M.config.autostart then
    -- Buffers loaded before setup ran (a lazy-loaded plugin, files named on
    -- the command line) get attached now.
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      M._on_buffer(buf)
    end
    M._on_enter(vim.api.nvim_get_current_buf())
  end
  return M
end

-- Commands -----------------------------------------------------------------

local function request(client, method, params, handler)
  if has("0.11") then
    return client:request(method, params, handler)
  end
  -- No buffer: the client flushes every buffer's pending didChange first, so
  -- the server checks an edit against what the user typed a moment ago and
  -- not against text the debounce still holds back.
  return client.request(method, params, handler)
end

local function cancel(client, id)
  if has("0.11") then
    pcall(client.cancel_request, client, id)
  else
    pcall(client.cancel_request, id)
  end
end

-- Calls fn(client) once the client has answered initialize, or fn(nil, err).
local function with_client(fn)
  local id = M.start()
  if not id then
    return fn(nil, { code = "NO_SERVER", message = "hashline-ls is not running: see :checkhealth hashline" })
  end
  local c = vim.lsp.get_client_by_id(id)
  if c and c.initialized then
    return fn(c)
  end
  local deadline = uv.now() + M.config.timeout_ms
  local timer = uv.new_timer()
  local done = false
  timer:start(10, 10, vim.schedule_wrap(function()
    if done then
      return
    end
    local cl = vim.lsp.get_client_by_id(id)
    local ready = cl and cl.initialized
    if ready or not cl or uv.now() > deadline then
      done = true
      timer:stop()
      timer:close()
      if ready then
        fn(cl)
      else
        fn(nil, { code = "NO_SERVER", message = "hashline-ls did not start: see :checkhealth hashline" })
      end
    end
  end))
end

--- Runs a hashline command. callback(result, err): result is the command's
--- result table unchanged ({ok = true, ...} or {ok = false, error = {...}});
--- a JSON-RPC error (unknown command, bad arguments) or a failure to reach
--- the server comes as (nil, err) with err.code and err.message.
--- Returns a function that cancels the request.
function M.execute(command, args, callback)
  args = vim.deepcopy(args or {})
  if args.session == nil and M.config.session ~= nil then
    args.session = M.config.session
  end
  local cancelled = false
  local cancel_fn = function()
    cancelled = true
  end
  with_client(function(client, err)
    if err or cancelled then
      if not cancelled then
        callback(nil, err)
      end
      return
    end
    local ok, id = request(client, "workspace/executeCommand", { command = command, arguments = { object(args) } }, function(rpc_err, result)
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
      cancel(client, id)
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
  local timeout = timeout_ms or M.config.timeout_ms
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
local api = {
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
M.commands = api

for fn, command in pairs(api) do
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
  if executable() then
    local out = vim.fn.system({ M.config.cmd[1], "describe", "--json" })
    if vim.v.shell_error == 0 then
      local ok, decoded = pcall(vim.json.decode, out)
      if ok and type(decoded) == "table" and type(decoded.tools) == "table" then
        return decoded
      end
    end
  end
  error("hashline: cannot get the tool definitions: see :checkhealth hashline")
end

local function str(v)
  return type(v) == "string" and v or nil
end

--- The text a model (or a person) reads for a result: the rendered read or
--- grep, an edit's header and diff, or "CODE: message" and the live lines.
function M.render(result, err)
  if err then
    return string.format("%s: %s", tostring(err.code or "ERROR"), tostring(err.message or vim.inspect(err)))
  end
  if type(result) ~= "table" then
    return tostring(result)
  end
  local out = {}
  local function add(s)
    if s and s ~= "" then
      table.insert(out, (s:gsub("\n$", "")))
    end
  end
  if result.ok == false then
    local e = type(result.error) == "table" and result.error or {}
    add(string.format("%s: %s", tostring(e.code), tostring(e.message)))
    if type(e.details) == "table" then
      add(str(e.details.content))
    end
    return table.concat(out, "\n")
  end
  if type(result.files) == "table" and not str(result.content) then
    for _, f in ipairs(result.files) do
      add(str(f) or (type(f) == "table" and str(f.header)) or nil)
    end
  elseif type(result.counts) == "table" then
    local names = vim.tbl_keys(result.counts)
    table.sort(names)
    for _, n in ipairs(names) do
      add(string.format("%s:%s", n, tostring(result.counts[n])))
    end
  elseif str(result.content) then
    add(result.content)
  elseif result.removed == true then
    add("removed " .. tostring(result.path))
    add(str(result.diff))
  elseif str(result.header) then
    add(result.header)
    add(str(result.diff))
  elseif str(result.guidance) then
    add(result.guidance)
  end
  if str(result.notice) then
    add("note: " .. result.notice)
  end
  if type(result.warnings) == "table" then
    for _, w in ipairs(result.warnings) do
      if type(w) == "table" and str(w.message) then
        add("warning: " .. w.message)
      end
    end
  end
  if #out == 0 then
    return vim.inspect(result)
  end
  return table.concat(out, "\n")
end

-- Status -------------------------------------------------------------------

--- The installed binary's version line ("hashline-ls 0.1.0"), or nil.
function M.binary_version()
  if state.binary_version then
    return state.binary_version
  end
  if not executable() then
    return nil
  end
  local out = vim.fn.system({ M.config.cmd[1], "version" })
  if vim.v.shell_error ~= 0 then
    return nil
  end
  state.binary_version = vim.trim(out)
  return state.binary_version
end

--- What :HashlineInfo shows, as a table.
function M.info()
  local c = M.client()
  local info = {
    setup = state.setup,
    cmd = M.config.cmd,
    binary = executable() and vim.fn.exepath(M.config.cmd[1]) or nil,
    binary_version = M.binary_version(),
    root = state.root or resolve_root(),
    settings = M.config.settings,
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
