-- hashline: user commands and the autocommands that keep every file buffer
-- attached to hashline-ls. Nothing starts until require("hashline").setup()
-- is called, or on Neovim 0.11+ vim.lsp.enable("hashline"); see :help
-- hashline.
if vim.g.loaded_hashline then
  return
end
vim.g.loaded_hashline = 1

if vim.fn.has("nvim-0.7") ~= 1 then
  vim.notify("hashline needs Neovim 0.7 or later", vim.log.levels.WARN)
  return
end

local group = vim.api.nvim_create_augroup("hashline", { clear = true })

-- Every buffer that holds a file is attached, whatever its filetype: an edit
-- may load a file no window shows (BufReadPost), create one (BufNewFile,
-- BufAdd once loaded), and the server must get didOpen/didChange for each,
-- or it cannot see the text the edit left.
vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile", "BufAdd" }, {
  group = group,
  callback = function(args)
    require("hashline")._on_buffer(args.buf)
  end,
})

vim.api.nvim_create_autocmd("BufEnter", {
  group = group,
  callback = function(args)
    if package.loaded["hashline"] then
      require("hashline")._on_enter(args.buf)
    end
  end,
})

vim.api.nvim_create_user_command("HashlineRead", function(opts)
  require("hashline.ui").read(opts.args ~= "" and opts.args or nil)
end, { nargs = "?", complete = "file", desc = "hashline: the numbered read of a file in a scratch window" })

vim.api.nvim_create_user_command("HashlineEdit", function(opts)
  require("hashline.ui").edit(opts.args ~= "" and opts.args or nil)
end, { nargs = "?", complete = "file", desc = "hashline: type edit ops for a file in a scratch buffer" })

vim.api.nvim_create_user_command("HashlineApply", function()
  require("hashline.ui").apply(vim.api.nvim_get_current_buf())
end, { desc = "hashline: apply the ops of this :HashlineEdit buffer" })

vim.api.nvim_create_user_command("HashlineInfo", function()
  require("hashline.ui").info()
end, { desc = "hashline: server status, client, position encoding, root, version" })
