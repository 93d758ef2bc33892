-- The plugin's start-up paths for newer Neovims, checked in Neovim 0.7: the
-- version checks are made to answer as 0.8-0.10 and then as 0.11 would, with
-- the APIs those versions add stood in for. On "0.8" vim.lsp.start is a
-- stand-in built on 0.7's start_client and buf_attach_client, so a real
-- server answers; on "0.11" vim.lsp.config, vim.lsp.enable and vim.lsp.start
-- only record how they are called. Last, in 0.7 itself, calls made while a
-- server starts that never answers initialize.
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local env, check, wait = T.env, T.check, T.wait

local real_has = vim.fn.has
local real_lsp = { start = vim.lsp.start, config = vim.lsp.config, enable = vim.lsp.enable, is_enabled = vim.lsp.is_enabled }
local function pretend(version)
  vim.fn.has = function(feature)
    local want = feature:match("^nvim%-(%d+%.%d+)")
    if want then
      local a1, b1 = want:match("(%d+)%.(%d+)")
      local a2, b2 = version:match("(%d+)%.(%d+)")
      a1, b1, a2, b2 = tonumber(a1), tonumber(b1), tonumber(a2), tonumber(b2)
      return (a2 > a1 or (a2 == a1 and b2 >= b1)) and 1 or 0
    end
    return real_has(feature)
  end
end

local function fresh_plugin()
  for name in pairs(package.loaded) do
    if name == "hashline" or name:match("^hashline%.") then
      package.loaded[name] = nil
    end
  end
  return require("hashline")
end

local cmd = { env.bin, "--stdio", "--log-file", env.log, "--log-level", "debug" }

T.run(function()
  -- 0.8-0.10: vim.lsp.start per buffer, reusing the client by name and root.
  pretend("0.10")
  local starts = {}
  vim.lsp.start = function(config, opts)
    table.insert(starts, { config = config, opts = opts })
    -- Like 0.8's, it looks at clients still initializing too.
    local id
    for i = 1, 50 do
      local c = vim.lsp.get_client_by_id(i)
      if c and c.name == config.name and c.config.root_dir == config.root_dir then
        id = c.id
      end
    end
    id = id or vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(opts and opts.bufnr or 0, id)
    return id
  end
  local hl = fresh_plugin()
  hl.setup({ cmd = cmd })
  vim.cmd("edit greet.py")
  local buf = vim.api.nvim_get_current_buf()
  vim.cmd("edit notes.zzz")
  local notes = vim.api.nvim_get_current_buf()
  local for_buf = {}
  for _, s in ipairs(starts) do
    if s.opts and s.opts.bufnr then
      for_buf[s.opts.bufnr] = s.config
    end
  end
  check(for_buf[buf] and for_buf[buf].name == "hashline" and for_buf[buf].root_dir == vim.fn.getcwd(), "0.8+: vim.lsp.start for a file buffer", starts)
  check(for_buf[notes] ~= nil, "0.8+: vim.lsp.start for a file with no filetype", starts)
  check(wait(5000, function()
    local c = hl.client()
    return c ~= nil and c.initialized
  end), "0.8+: the server starts", hl.info())
  local clients = vim.tbl_filter(function(c)
    return c.name == "hashline"
  end, vim.lsp.get_active_clients())
  check(#clients == 1 and hl.is_attached(buf) and hl.is_attached(notes), "0.8+: one client, attached to every buffer", #clients)
  local r = hl.read_sync({ path = "greet.py" })
  local e = hl.edit_sync({ path = "greet.py", tag = r and r.tag, ops = "PUT >$:\n+# via 0.8+" })
  check(e and e.ok and vim.api.nvim_buf_get_lines(buf, -2, -1, false)[1] == "# via 0.8+", "0.8+: an edit lands", e)
  for _, c in ipairs(vim.lsp.get_active_clients()) do
    vim.lsp.stop_client(c.id)
  end
  wait(5000, function()
    return #vim.lsp.get_active_clients() == 0
  end)
  vim.cmd("%bwipeout!")

  -- 0.11: vim.lsp.config and vim.lsp.enable at setup; vim.lsp.start per
  -- buffer (for files with no filetype, which enable() never sees) and with
  -- attach = false for an API call before any buffer.
  pretend("0.11")
  local configs, enabled, calls = {}, {}, {}
  vim.lsp.config = setmetatable({}, {
    __index = function(_, name)
      local c = configs[name]
      if c then
        c = vim.deepcopy(c)
        c.name = name
      end
      return c
    end,
    __newindex = function(_, name, cfg)
      configs[name] = cfg
    end,
    __call = function(_, name, cfg)
      configs[name] = vim.tbl_deep_extend("force", configs[name] or {}, cfg)
    end,
  })
  vim.lsp.enable = function(name)
    table.insert(enabled, name)
  end
  vim.lsp.start = function(config, opts)
    table.insert(calls, { config = config, opts = opts or {} })
    return nil
  end

  -- 0.11 without setup(): vim.lsp.config loads lsp/hashline.lua from the
  -- runtimepath, and vim.lsp.enable("hashline") turns it on.
  hl = fresh_plugin()
  local files = vim.api.nvim_get_runtime_file("lsp/hashline.lua", true)
  check(#files == 1, "lsp/hashline.lua is on the runtimepath", files)
  local rtp = files[1] and loadfile(files[1])()
  check(type(rtp) == "table" and vim.deep_equal(rtp.cmd, { "hashline-ls", "--stdio" }) and type(rtp.root_dir) == "function"
    and type(rtp.handlers["workspace/applyEdit"]) == "function" and type(rtp.on_init) == "function" and type(rtp.on_exit) == "function"
    and type(rtp.settings.hashline) == "table", "lsp/hashline.lua returns the client config", rtp)
  -- As vim.lsp.config("hashline", { cmd = cmd }) over it would leave it.
  configs.hashline = vim.tbl_extend("force", rtp or {}, { cmd = cmd })
  vim.lsp.is_enabled = function(name)
    return name == "hashline"
  end
  calls = {}
  vim.cmd("edit notes.zzz")
  local eb = vim.api.nvim_get_current_buf()
  local started = false
  for _, c in ipairs(calls) do
    started = started or c.opts.bufnr == eb and c.config.root_dir == vim.fn.getcwd() and vim.deep_equal(c.config.cmd, cmd)
  end
  check(started, "0.11, enable() without setup(): a file with no filetype is attached, with vim.lsp.config's cmd", calls)
  local enabled_roots = {}
  if rtp then
    rtp.root_dir(eb, function(dir)
      table.insert(enabled_roots, dir)
    end)
  end
  check(vim.deep_equal(enabled_roots, { vim.fn.getcwd() }), "0.11, enable() without setup(): root_dir names the workspace folder", enabled_roots)
  vim.lsp.is_enabled = real_lsp.is_enabled
  vim.cmd("%bwipeout!")

  hl = fresh_plugin()
  hl.setup({ cmd = cmd, settings = { landTimeoutMs = 1234 } })
  local reg = configs.hashline
  local roots = {}
  vim.cmd("edit greet.py")
  if reg and type(reg.root_dir) == "function" then
    reg.root_dir(vim.api.nvim_get_current_buf(), function(dir)
      table.insert(roots, dir)
    end)
  end
  check(vim.deep_equal(roots, { vim.fn.getcwd() }), "0.11: the registered root_dir names the workspace folder for a file buffer", roots)
  check(reg and vim.deep_equal(reg.cmd, cmd) and reg.workspace_folders[1].uri == vim.uri_from_fname(vim.fn.getcwd())
    and reg.init_options.hashline.landTimeoutMs == 1234 and reg.settings.hashline.landTimeoutMs == 1234
    and type(reg.handlers["workspace/applyEdit"]) == "function", "0.11: setup registers the config with vim.lsp.config", reg)
  check(vim.deep_equal(enabled, { "hashline" }), "0.11: setup calls vim.lsp.enable", enabled)
  calls = {}
  vim.cmd("edit notes.zzz")
  local nb = vim.api.nvim_get_current_buf()
  local attached = false
  for _, c in ipairs(calls) do
    if c.opts.bufnr == nb and c.config.name == "hashline" and c.config.root_dir == vim.fn.getcwd() and vim.deep_equal(c.config.cmd, cmd) then
      attached = true
    end
  end
  check(attached, "0.11: a file with no filetype is started with vim.lsp.start", calls)
  calls = {}
  hl.start()
  check(#calls == 1 and calls[1].opts.attach == false and calls[1].config.name == "hashline", "0.11: start() without a buffer uses attach = false", calls)

  vim.fn.has = real_has
  vim.lsp.start, vim.lsp.config, vim.lsp.enable = real_lsp.start, real_lsp.config, real_lsp.enable

  -- A call made while the server starts waits for its answer to initialize:
  -- a server that exits first fails it at once, one that never answers
  -- fails it after timeout_ms.
  vim.cmd("%bwipeout!")
  hl = fresh_plugin()
  hl.setup({ cmd = { "false" } })
  local _, gone = hl.read_sync({ path = "greet.py" })
  check(gone and gone.code == "NO_SERVER" and gone.message:find("exited", 1, true), "a server that exits fails the waiting call", gone)
  hl = fresh_plugin()
  hl.setup({ cmd = { "sleep", "30" }, timeout_ms = 300 })
  local _, slow = hl.read_sync({ path = "greet.py" }, 5000)
  check(slow and slow.code == "NO_SERVER" and slow.message:find("did not start within 300 ms", 1, true), "a server that never answers fails the waiting call after timeout_ms", slow)
  local sleeper = hl.client()
  if sleeper then
    vim.lsp.stop_client(sleeper.id, true)
  end
end)
