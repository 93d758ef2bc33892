-- Shared by the scripted sessions: checks written one per line to
-- $HASHLINE_RESULTS, a closing "N passed, N failed" line, and a runner that
-- starts the script once Neovim has loaded its plugins.
local T = {}

T.env = {
  bin = os.getenv("HASHLINE_BIN"),
  root = os.getenv("HASHLINE_ROOT"),
  plugin = os.getenv("HASHLINE_PLUGIN"),
  log = os.getenv("HASHLINE_LOG"),
  tmp = os.getenv("HASHLINE_TMP"),
}

local out = assert(io.open(os.getenv("HASHLINE_RESULTS"), "w"))
local passed, failed = 0, 0

function T.check(ok, name, detail)
  if ok then
    passed = passed + 1
    out:write("ok   " .. name .. "\n")
  else
    failed = failed + 1
    out:write("FAIL " .. name .. ": " .. vim.inspect(detail) .. "\n")
  end
  out:flush()
  return ok
end

-- record writes a line of data for the test to read, "name value".
function T.record(name, value)
  out:write(name .. " " .. tostring(value) .. "\n")
  out:flush()
end

function T.wait(ms, predicate)
  return vim.wait(ms, predicate, 10)
end

-- attached waits up to ms for hl's server to be initialized with every
-- buffer given attached.
function T.attached(hl, ms, ...)
  local bufs = { ... }
  return T.wait(ms, function()
    local c = hl.client()
    if c == nil or not c.initialized then
      return false
    end
    for _, b in ipairs(bufs) do
      if not hl.is_attached(b) then
        return false
      end
    end
    return true
  end)
end

-- finish writes the closing line and quits Neovim.
function T.finish()
  out:write(string.format("%d passed, %d failed\n", passed, failed))
  out:close()
  vim.cmd("qall!")
end

-- The plugin is put on the runtimepath here, before startup loads plugins,
-- as a plugin manager would (unless the script does that itself).
if T.env.plugin ~= nil and T.env.plugin ~= "" then
  vim.opt.runtimepath:prepend(T.env.plugin)
end

-- run calls fn after startup: plugin/ scripts are loaded by then, and fn
-- runs from the event loop rather than inside VimEnter, where the
-- autocommands the plugin relies on would not nest. A Lua error is a
-- failed check, never a hang.
function T.run(fn)
  vim.api.nvim_create_autocmd("VimEnter", {
    once = true,
    callback = function()
      vim.schedule(function()
        local ok, err = xpcall(fn, debug.traceback)
        T.check(ok, "script ran to the end", err)
        T.finish()
      end)
    end,
  })
end

-- Helpers for the scripts.

function T.path(rel)
  return T.env.root .. "/" .. rel
end

function T.disk(rel)
  local f = io.open(T.path(rel), "rb")
  if not f then
    return nil
  end
  local s = f:read("*a")
  f:close()
  return s
end

function T.text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end

function T.find_buffer(pattern)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(b) and vim.api.nvim_buf_get_name(b):match(pattern) then
      return b
    end
  end
  return nil
end

function T.lines(s)
  local l = vim.split(s or "", "\n", { plain = true })
  if l[#l] == "" then
    table.remove(l)
  end
  return l
end

return T
