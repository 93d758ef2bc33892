-- The editor of TestCodexNeovimBridge and TestNeovimBridge: the plugin runs hashline-ls, which
-- publishes its endpoint; clean.py is open as on disk, with a formatter on
-- save, and dirty.py holds the user's unsaved typing. Once both are in the
-- server it writes $HASHLINE_READY and waits, serving, until the test
-- writes $HASHLINE_DONE (Codex has run); then it writes what each buffer
-- holds to $HASHLINE_STATE and quits.
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local env, check, wait = T.env, T.check, T.wait

local function write_file(path, s)
  local f = assert(io.open(path, "w"))
  f:write(s)
  f:close()
end

T.run(function()
  local hl = require("hashline")
  hl.setup({ cmd = { env.bin, "--stdio", "--log-file", env.log, "--log-level", "debug" }, root = env.root })
  -- A format-on-save of clean.py: single quotes become double ones.
  vim.api.nvim_create_autocmd("BufWritePre", {
    pattern = "*/clean.py",
    callback = function()
      vim.cmd([[silent! keeppatterns %s/'/"/g]])
    end,
  })
  vim.cmd("edit clean.py")
  local clean = vim.api.nvim_get_current_buf()
  vim.cmd("edit dirty.py")
  local dirty = vim.api.nvim_get_current_buf()
  vim.api.nvim_buf_set_lines(dirty, 0, 0, false, { "# typed, unsaved" })
  check(T.attached(hl, 10000, clean, dirty), "the server runs with both buffers attached", hl.info())
  -- A request flushes the debounced didChange: the server has the typing.
  local r = hl.read_sync({ path = "dirty.py" })
  check(r and r.ok and r.content:find("1:# typed, unsaved", 1, true), "the server sees the typing", r)
  local info = vim.api.nvim_exec2 and vim.api.nvim_exec2("HashlineInfo", { output = true }).output
    or vim.api.nvim_exec("HashlineInfo", true)
  local endpoint = info:match("mcp endpoint:%s+(%S+)")
  check(endpoint ~= nil and vim.loop.fs_stat(endpoint) ~= nil, ":HashlineInfo shows the endpoint", info)

  write_file(os.getenv("HASHLINE_READY"), info)
  check(wait(180000, function()
    return vim.loop.fs_stat(os.getenv("HASHLINE_DONE")) ~= nil
  end), "the test said Codex is done", nil)

  local state = {}
  for name, buf in pairs({ ["clean.py"] = clean, ["dirty.py"] = dirty }) do
    state[name] = { text = T.text(buf) .. "\n", modified = vim.bo[buf].modified }
  end
  write_file(os.getenv("HASHLINE_STATE"), vim.json.encode(state))
end)
