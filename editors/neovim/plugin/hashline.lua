-- hashline: user commands and the autocommands that keep every file buffer
-- attached to hashline-ls (hashline.hooks). Nothing starts until
-- require("hashline").setup() is called, or on Neovim 0.11+
-- vim.lsp.enable("hashline"); see :help hashline.
if vim.g.loaded_hashline then
  return
end

if vim.fn.has("nvim-0.7") ~= 1 then
  vim.notify("hashline needs Neovim 0.7 or later", vim.log.levels.WARN)
  return
end

require("hashline.hooks").install()
