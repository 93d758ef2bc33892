-- :checkhealth hashline: the binary, where it comes from and its version
-- (how to build it when there is none), the server attached to the current
-- buffer, the position encoding both sides use.
local config = require("hashline.config")

local M = {}

-- The health API moved: Neovim 0.7 has require("health").report_*, 0.8 has
-- vim.health.report_*, 0.9 and later vim.health.start/ok/warn/error/info.
local function reporter()
  local vh = vim.health
  if vh and vh.start then
    return { start = vh.start, ok = vh.ok, warn = vh.warn, error = vh.error, info = vh.info }
  end
  if vh and vh.report_start then
    return { start = vh.report_start, ok = vh.report_ok, warn = vh.report_warn, error = vh.report_error, info = vh.report_info }
  end
  local old = require("health")
  return { start = old.report_start, ok = old.report_ok, warn = old.report_warn, error = old.report_error, info = old.report_info }
end

function M.check()
  local h = reporter()
  local hl = require("hashline")
  local v = vim.version()
  h.start("hashline")

  h.ok(string.format("Neovim %d.%d.%d", v.major, v.minor, v.patch))
  local started = hl._state.setup
  if not started and require("hashline.client").enabled() then
    started = true
    h.ok('started by vim.lsp.enable("hashline"), without setup()')
  end
  if not started then
    h.warn('require("hashline").setup() was not called: nothing starts the server', {
      "Call it from your init.lua, or on Neovim 0.11+ vim.lsp.enable(\"hashline\"); see :help hashline-setup",
    })
  end

  local info = hl.info()
  local exe = type(info.cmd) == "table" and info.cmd[1] or tostring(info.cmd)
  if not info.binary then
    local repo = vim.fn.fnamemodify(config.built, ":h:h")
    h.error(string.format("%s is not executable (%s)", tostring(exe), info.binary_from), {
      string.format("Build it into the plugin's repository: cd %s && go build -o bin/hashline-ls ./cmd/hashline-ls (lazy.nvim: :Lazy build, with the spec's build step; see :help hashline-install)", repo),
      "Or install it on PATH: make install in the hashline-ls repository",
      'Or name it: require("hashline").setup{ cmd = { "/path/to/hashline-ls", "--stdio" } }',
    })
    return
  end
  if info.binary_version then
    h.ok(string.format("binary: %s (%s), %s", info.binary, info.binary_version, info.binary_from))
  else
    h.error(string.format("binary: %s does not answer `%s version`", info.binary, exe))
  end

  if info.status ~= "running" then
    if started and hl.current_file_buffer() then
      h.error("server: " .. info.status, { "Look at :LspLog and the server's --log-file" })
    else
      h.warn("server: " .. info.status .. " (it starts with the first file buffer or API call)")
    end
    return
  end
  h.ok(string.format("server: running as client %d, root %s", info.client_id, info.root))
  if info.version then
    local line = string.format("server version: %s %s", info.server_name or "hashline-ls", info.version)
    if info.binary_version and not info.binary_version:find(info.version, 1, true) then
      h.warn(line .. ", but the binary says " .. info.binary_version, { "Restart Neovim to run the installed binary" })
    else
      h.ok(line)
    end
  end

  local buf = hl.current_file_buffer()
  if not buf then
    h.info("no file buffer to check the attachment of")
  elseif hl.is_attached(buf) then
    h.ok(string.format("attached to the current buffer %d (%s)", buf, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":~:.")))
  else
    h.error(string.format("not attached to the current buffer %d (%s)", buf, vim.api.nvim_buf_get_name(buf)), {
      "Edits to it would not reach the server: run :lua require('hashline').attach()",
    })
  end

  -- The server's copy of each attached buffer, compared by digest: a
  -- change Neovim sent with the wrong range leaves it behind, and every
  -- read and edit of it would be judged against text the buffer does not
  -- hold.
  local status = require("hashline.status")
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if hl.is_attached(b) then
      local name = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ":~:.")
      local why = status.compare(b)
      if why then
        h.error(string.format("buffer %d (%s): %s", b, name, why), {
          "Save it, then restart the client (:lua vim.lsp.stop_client(require('hashline').client().id)) and :edit the file again",
        })
      else
        h.ok(string.format("buffer %d (%s): the server holds the buffer's text", b, name))
      end
    end
  end

  -- The server counts positions in the encoding it announced; the client
  -- must count in the same one, or every range after a non-ASCII
  -- character lands in the wrong place.
  local server_enc = info.position_encoding or "utf-16"
  if info.client_encoding == nil then
    h.warn("position encoding: the client does not say which it uses; the server uses " .. server_enc)
  elseif info.client_encoding == server_enc then
    h.ok("position encoding: " .. server_enc .. " on both sides")
  else
    h.error(string.format("position encoding: the server uses %s, the client %s", server_enc, info.client_encoding))
  end
end

return M
