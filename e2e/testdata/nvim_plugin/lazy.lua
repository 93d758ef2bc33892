-- The README's lazy.nvim spec, as lazy.nvim runs it, without lazy.nvim: its
-- build step in a shell in the plugin's folder (a copy of the repository,
-- $HASHLINE_CLONE), then config(plugin, opts) during startup, with
-- 'loadplugins' off as lazy.nvim leaves it, so Neovim never sources the
-- plugin/ folder config puts on the runtimepath. setup() names no cmd: the
-- plugin must find the binary the build made.
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local check = T.check

local clone = os.getenv("HASHLINE_CLONE")
local f = assert(io.open(os.getenv("HASHLINE_SPEC")))
local spec = assert(loadstring("return " .. f:read("*a")))()
f:close()
spec.dir = clone
vim.go.loadplugins = false

local build = vim.fn.jobstart({ vim.o.shell, "-c", spec.build }, { cwd = spec.dir })
local built = vim.fn.jobwait({ build }, 120000)[1]
spec.config({ dir = spec.dir, name = "hashline-ls" }, spec.opts or {})

T.run(function()
  check(built == 0, "the spec's build step succeeds: " .. spec.build, built)
  check(vim.fn.executable(clone .. "/bin/hashline-ls") == 1, "it builds bin/hashline-ls in the plugin's folder", clone)
  check(vim.fn.exists(":HashlineInfo") == 2 and vim.fn.exists(":HashlineRead") == 2, "setup() installs the user commands", nil)
  local hl = require("hashline")
  vim.cmd("edit greet.py")
  local buf = vim.api.nvim_get_current_buf()
  check(T.attached(hl, 5000, buf), "the server starts and the file buffer is attached", hl.info())
  local info = hl.info()
  check(info.binary == clone .. "/bin/hashline-ls" and hl.client().config.cmd[1] == info.binary, "the client runs the binary the build made", info)
  local r = hl.read_sync({ path = "greet.py" })
  check(r and r.ok and r.content:find("\n1:def greet(name):\n", 1, true), "a read works", r)
  -- Started with no --log-file, the server writes nothing on stderr, which
  -- Neovim would log as errors.
  local log = table.concat(vim.fn.filereadable(vim.lsp.get_log_path()) == 1 and vim.fn.readfile(vim.lsp.get_log_path()) or {}, "\n")
  check(not log:find("stderr", 1, true), "the server writes nothing on stderr", log)
  vim.cmd("checkhealth hashline")
  local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  check(report:find(info.binary, 1, true) and report:find("built in the plugin's repository", 1, true), ":checkhealth names the binary and where it comes from", report)
end)
