-- Neovim 0.11 and later without setup(): vim.lsp.config finds the plugin's
-- lsp/hashline.lua on the runtimepath, and vim.lsp.enable("hashline") starts
-- the server and attaches file buffers, those with no filetype included.
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local env, check, wait = T.env, T.check, T.wait

T.run(function()
  vim.lsp.config("hashline", { cmd = { env.bin, "--stdio", "--log-file", env.log, "--log-level", "debug" } })
  vim.lsp.enable("hashline")
  local hl = require("hashline")
  vim.cmd("edit greet.py")
  local buf = vim.api.nvim_get_current_buf()
  check(wait(5000, function()
    return hl.is_attached(buf)
  end), "enable() starts the server and attaches a file buffer", hl.info())
  vim.cmd("edit notes.zzz")
  check(vim.bo.filetype == "" and wait(5000, function()
    return hl.is_attached(0)
  end), "a file with no filetype is attached", hl.info())
  wait(5000, function()
    local c = hl.client()
    return c ~= nil and c.initialized
  end)
  local clients = vim.tbl_filter(function(c)
    return c.name == "hashline"
  end, vim.lsp.get_clients())
  check(#clients == 1 and not hl._state.setup, "one client, and setup() was never called", #clients)
  check(clients[1] and vim.deep_equal(clients[1].config.cmd, { env.bin, "--stdio", "--log-file", env.log, "--log-level", "debug" }),
    "the client runs vim.lsp.config's cmd", clients[1] and clients[1].config.cmd)
  local roots = {}
  vim.lsp.config.hashline.root_dir(buf, function(dir)
    table.insert(roots, dir)
  end)
  check(vim.deep_equal(roots, { vim.fn.getcwd() }), "its root_dir names the workspace folder", roots)

  local r = hl.read_sync({ path = "greet.py" })
  check(r and r.ok and r.text == r.content, "the API reads through it", r)
  local e = hl.edit_sync({ path = "greet.py", tag = r and r.tag, ops = 'PUT 2.=2:\n+    return f"hi {name}"' })
  check(e and e.ok and vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1] == '    return f"hi {name}"', "an edit lands in the buffer", e)

  vim.cmd("buffer " .. buf)
  vim.cmd("checkhealth hashline")
  local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  check(report:find('started by vim.lsp.enable("hashline")', 1, true) and not report:find("setup() was not called", 1, true),
    ":checkhealth knows it was started by enable()", report)
end)
