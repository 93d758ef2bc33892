-- One-line edits of a 2,000-line buffer through the plugin's Lua API, with
-- Neovim's default didChange debounce: each edit's time from the call to
-- its callback, in microseconds, as "edit_us N" lines.
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local env, check, wait = T.env, T.check, T.wait
local samples = tonumber(os.getenv("HASHLINE_BENCH_SAMPLES") or "50")
local uv = vim.uv or vim.loop

T.run(function()
  local hl = require("hashline")
  hl.setup({ cmd = { env.bin, "--stdio", "--log-file", env.log } })
  vim.cmd("edit big.go")
  local buf = vim.api.nvim_get_current_buf()
  check(T.attached(hl, 5000, buf), "the server starts and holds the buffer", hl.info())
  local r = hl.read_sync({ path = "big.go" })
  local tag = r and r.tag
  local middle = math.floor(vim.api.nvim_buf_line_count(buf) / 2)
  local failed
  -- The first edits warm up both sides and are not counted.
  for i = 1, samples + 5 do
    local done, res, err
    local start = uv.hrtime()
    local elapsed
    hl.edit({ path = "big.go", tag = tag, ops = string.format("PUT %d.=%d:\n+\tfmt.Println(%d) // edited", middle, middle, i) }, function(a, b)
      elapsed = uv.hrtime() - start
      done, res, err = true, a, b
    end)
    wait(10000, function()
      return done
    end)
    if not (res and res.ok) then
      failed = { i = i, res = res, err = err }
      break
    end
    tag = res.tag
    if i > 5 then
      T.record("edit_us", math.floor(elapsed / 1000))
    end
  end
  check(failed == nil, "every edit lands", failed)
  check(vim.api.nvim_buf_get_lines(buf, middle - 1, middle, false)[1] == string.format("\tfmt.Println(%d) // edited", samples + 5),
    "the buffer holds the last edit", vim.api.nvim_buf_get_lines(buf, middle - 1, middle, false))
end)
