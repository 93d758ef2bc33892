-- hashline.nvim: what the plugin's modules ask of Neovim itself, in one
-- place: which version runs, how to call a client's methods on it, and
-- how to tell the user something.
local M = {}

--- Whether Neovim is at least this version, e.g. has("0.11").
---@param version string
---@return boolean
function M.has(version)
  return vim.fn.has("nvim-" .. version) == 1
end

--- Calls a method of an LSP client (request, request_sync, notify,
--- cancel_request): a method on 0.11 and later, a plain function before.
---@param client table a vim.lsp.Client
---@param method string
---@return any ...
function M.call(client, method, ...)
  if M.has("0.11") then
    return client[method](client, ...)
  end
  return client[method](...)
end

--- Tells the user msg, prefixed "hashline: ".
---@param msg string
---@param level? integer a vim.log.levels value; default INFO
function M.notify(msg, level)
  vim.notify("hashline: " .. msg, level or vim.log.levels.INFO)
end

--- A table of what a module keeps for each buffer, by buffer number: a
--- buffer's entry goes when the buffer is wiped out, through the autocmd
--- group named group.
---@param group string
---@return table
function M.per_buffer(group)
  local t = {}
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = vim.api.nvim_create_augroup(group, { clear = true }),
    callback = function(args)
      t[args.buf] = nil
    end,
  })
  return t
end

return M
