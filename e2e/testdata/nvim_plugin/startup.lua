-- How the plugin starts the server and attaches buffers in the Neovim it
-- runs in, each path in the version that takes it: vim.lsp.start_client and
-- buf_attach_client on 0.7, vim.lsp.start per buffer on 0.8-0.10,
-- vim.lsp.config and vim.lsp.enable on 0.11 and later. The real functions
-- run; they are only watched. Last, calls made while a server starts that
-- exits, or never answers initialize.
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local env, check, wait = T.env, T.check, T.wait

local has = function(v)
  return vim.fn.has("nvim-" .. v) == 1
end

-- watch replaces vim.lsp[name] with a function that records its arguments
-- and calls the real one.
local calls = {}
local function watch(name)
  local real = vim.lsp[name]
  calls[name] = {}
  vim.lsp[name] = function(...)
    table.insert(calls[name], { ... })
    return real(...)
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

local function hashline_clients()
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  return vim.tbl_filter(function(c)
    return c.name == "hashline"
  end, all)
end

local cmd = { env.bin, "--stdio", "--log-file", env.log, "--log-level", "debug" }

T.run(function()
  local files = vim.api.nvim_get_runtime_file("lsp/hashline.lua", true)
  check(#files == 1, "lsp/hashline.lua is on the runtimepath", files)
  local rtp = files[1] and loadfile(files[1])()
  check(type(rtp) == "table" and type(rtp.cmd) == "table" and rtp.cmd[2] == "--stdio" and type(rtp.root_dir) == "function"
    and type(rtp.handlers["workspace/applyEdit"]) == "function" and type(rtp.on_init) == "function" and type(rtp.on_exit) == "function"
    and type(rtp.settings.hashline) == "table", "lsp/hashline.lua returns the client config", rtp)

  if has("0.11") then
    watch("start")
    watch("enable")
  elseif has("0.8") then
    watch("start")
  else
    watch("start_client")
    watch("buf_attach_client")
  end

  local hl = fresh_plugin()
  hl.setup({ cmd = cmd, settings = { landTimeoutMs = 1234 } })
  if has("0.11") then
    -- An API call before any buffer starts the client without one.
    hl.start()
    local first = calls.start[1]
    check(first and first[2] and first[2].attach == false and first[1].name == "hashline", "0.11+: start() without a buffer uses attach = false", calls.start)
    local reg = vim.lsp.config.hashline
    check(reg and vim.deep_equal(reg.cmd, cmd) and reg.workspace_folders[1].uri == vim.uri_from_fname(vim.fn.getcwd())
      and reg.init_options.hashline.landTimeoutMs == 1234 and reg.settings.hashline.landTimeoutMs == 1234
      and type(reg.handlers["workspace/applyEdit"]) == "function", "0.11+: setup registers the config with vim.lsp.config", reg)
    check(#calls.enable == 1 and calls.enable[1][1] == "hashline", "0.11+: setup calls vim.lsp.enable", calls.enable)
  end

  vim.cmd("edit greet.py")
  local buf = vim.api.nvim_get_current_buf()
  vim.cmd("edit notes.zzz")
  local notes = vim.api.nvim_get_current_buf()
  check(vim.bo[notes].filetype == "", "notes.zzz has no filetype", vim.bo[notes].filetype)
  check(T.attached(hl, 5000, buf, notes), "the server starts and every file buffer is attached", hl.info())
  check(#hashline_clients() == 1, "one client", #hashline_clients())

  if has("0.11") then
    local reg = vim.lsp.config.hashline
    local roots = {}
    reg.root_dir(buf, function(dir)
      table.insert(roots, dir)
    end)
    check(vim.deep_equal(roots, { vim.fn.getcwd() }), "0.11+: the registered root_dir names the workspace folder for a file buffer", roots)
    local started = false
    for _, c in ipairs(calls.start) do
      started = started or c[2] and c[2].bufnr == notes and c[1].root_dir == vim.fn.getcwd() and vim.deep_equal(c[1].cmd, cmd)
    end
    check(started, "0.11+: a file with no filetype is started with vim.lsp.start", calls.start)
  elseif has("0.8") then
    local for_buf = {}
    for _, c in ipairs(calls.start) do
      if c[2] and c[2].bufnr then
        for_buf[c[2].bufnr] = c[1]
      end
    end
    check(for_buf[buf] and for_buf[buf].name == "hashline" and for_buf[buf].root_dir == vim.fn.getcwd(), "0.8-0.10: vim.lsp.start for a file buffer", calls.start)
    check(for_buf[notes] ~= nil, "0.8-0.10: vim.lsp.start for a file with no filetype", calls.start)
  else
    local attached = {}
    for _, c in ipairs(calls.buf_attach_client) do
      attached[c[1]] = c[2]
    end
    check(#calls.start_client == 1 and attached[buf] == hl.client().id and attached[notes] == hl.client().id,
      "0.7: one vim.lsp.start_client, and vim.lsp.buf_attach_client per buffer", calls)
  end

  local r = hl.read_sync({ path = "greet.py" })
  local e = hl.edit_sync({ path = "greet.py", tag = r and r.tag, ops = "PUT >$:\n+# appended" })
  check(e and e.ok and vim.deep_equal(vim.api.nvim_buf_get_lines(buf, -3, -1, false), { 'print(greet("x"))', "# appended" }),
    "an edit appending a line lands, and only that line", { e, vim.api.nvim_buf_get_lines(buf, 0, -1, false) })
  for _, c in ipairs(hashline_clients()) do
    vim.lsp.stop_client(c.id)
  end
  wait(5000, function()
    return #hashline_clients() == 0
  end)
  vim.cmd("%bwipeout!")

  -- A call made while the server starts waits for its answer to initialize:
  -- a server that exits first fails it at once, one that never answers
  -- fails it after timeout_ms.
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
