-- hashline.config: the options of setup(), their defaults, and how setup()
-- merges what it is given. See :help hashline-setup.
local M = {}

-- The repository the plugin came in: the plugin is its editors/neovim.
local repo = vim.fn.fnamemodify(vim.fn.resolve(debug.getinfo(1, "S").source:sub(2)), ":p:h:h:h:h:h")

--- Where a build in the repository puts the binary (lazy.nvim's `build`,
--- see :help hashline-install).
M.built = repo .. "/bin/hashline-ls"

--- The server command when setup() names none: the binary built in the
--- repository the plugin came in, else hashline-ls on PATH.
---@return string[]
function M.default_cmd()
  if vim.fn.executable(M.built) == 1 then
    return { M.built, "--stdio" }
  end
  return { "hashline-ls", "--stdio" }
end

--- The options of setup(); see :help hashline-options.
---@class hashline.Options
---@field cmd? string|string[] the server command (a string: the binary, run with --stdio)
---@field root? string|fun(): string the workspace folder
---@field settings? table the server's settings (extraRoots, landTimeoutMs, applyEditTimeoutMs)
---@field flags? table the LSP client's flags
---@field on_attach? fun(client: table, bufnr: integer)
---@field session? string the session of API calls that name none
---@field ui_session? string the session of :HashlineRead and :HashlineEdit
---@field timeout_ms? integer how long the _sync forms wait
---@field autostart? boolean start the server and attach file buffers as they are read
---@field notify_edits? boolean echo a one-line notice of each edit that lands

---@type hashline.Options
M.defaults = {
  -- The server command; hashline-ls serves LSP on stdio. nil: see
  -- default_cmd().
  cmd = nil,
  -- The workspace folder: a path, or a function returning one. Default: the
  -- current directory when the server starts.
  root = nil,
  -- The server's settings (extraRoots, landTimeoutMs, applyEditTimeoutMs),
  -- sent as initializationOptions and workspace/didChangeConfiguration.
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
  -- How long the _sync forms, and calls made while the server starts, wait,
  -- in milliseconds.
  timeout_ms = 10000,
  -- Start the server and attach file buffers as they are read.
  autostart = true,
  -- Echo a one-line notice of each edit that lands. Neovim's own messages
  -- (the edit's label, "Applied changes") are never shown.
  notify_edits = false,
}

-- The options in force. setup() refills this table rather than replacing
-- it, so require("hashline").config stays the table the plugin reads.
M.values = vim.deepcopy(M.defaults)
M.values.cmd = M.default_cmd()

--- Merges opts over the defaults into M.values, and returns it.
---@param opts? hashline.Options
---@return hashline.Options
function M.apply(opts)
  opts = opts or {}
  local cfg = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts)
  -- Lists replace, never merge index by index.
  M.cmd_given = opts.cmd ~= nil
  if opts.cmd then
    cfg.cmd = type(opts.cmd) == "string" and { opts.cmd, "--stdio" } or vim.deepcopy(opts.cmd)
  else
    cfg.cmd = M.default_cmd()
  end
  -- Neither executable() nor the process spawn expands a leading ~.
  if type(cfg.cmd[1]) == "string" and cfg.cmd[1]:sub(1, 1) == "~" then
    cfg.cmd[1] = vim.fn.expand(cfg.cmd[1])
  end
  for k in pairs(M.values) do
    M.values[k] = nil
  end
  for k, v in pairs(cfg) do
    M.values[k] = v
  end
  return M.values
end

return M
