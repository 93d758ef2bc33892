-- Neovim's real interface under tmux: the plugin with its defaults, and
-- keys the test sends as a person would. <F5> makes an assistant's edit
-- through the Lua API (a read, then an append to the file), <F6> writes
-- the buffer's lines, <F7> turns the one-line edit notice on. Each writes
-- its outcome to $HASHLINE_RESULTS.
vim.opt.runtimepath:prepend(os.getenv("HASHLINE_PLUGIN"))
vim.o.swapfile = false
local results = os.getenv("HASHLINE_RESULTS")
local function write(line)
  local f = assert(io.open(results, "a"))
  f:write(line .. "\n")
  f:close()
end

local hl = require("hashline")
hl.setup({ cmd = { os.getenv("HASHLINE_BIN"), "--stdio", "--log-file", os.getenv("HASHLINE_LOG") } })

-- "ready" once the server holds the buffer the command line opened.
local timer, ready = (vim.uv or vim.loop).new_timer(), false
timer:start(50, 50, vim.schedule_wrap(function()
  local c = hl.client()
  if not ready and c and c.initialized and hl.is_attached(vim.api.nvim_get_current_buf()) then
    ready = true
    timer:stop()
    write("ready")
  end
end))

local edits = 0
vim.keymap.set("n", "<F5>", function()
  edits = edits + 1
  local n = edits
  hl.read({ path = vim.api.nvim_buf_get_name(0) }, function(r)
    hl.edit({ path = r.path, tag = r.tag, ops = "PUT >$:\n+# added by the assistant " .. n }, function(e, err)
      write(string.format("edit %d %s", n, e and e.ok and "ok" or vim.inspect(e or err, { newline = " " })))
    end)
  end)
end)
vim.keymap.set("n", "<F6>", function()
  write("lines " .. vim.json.encode(vim.api.nvim_buf_get_lines(0, 0, -1, false)))
end)
vim.keymap.set("n", "<F7>", function()
  hl.config.notify_edits = true
  write("notice on")
end)
