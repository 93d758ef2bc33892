-- hashline.hooks: the user commands, and the autocommands that keep every
-- file buffer attached to hashline-ls. plugin/hashline.lua installs them at
-- startup, and setup() too, for a plugin manager that puts the plugin on
-- the runtimepath after Neovim has sourced plugin/ (lazy.nvim, with the
-- plugin in a folder of its repository).
local M = {}

--- Installs the hooks, once.
function M.install()
  if vim.g.loaded_hashline then
    return
  end
  vim.g.loaded_hashline = 1

  local group = vim.api.nvim_create_augroup("hashline", { clear = true })

  -- Every buffer that holds a file is attached, whatever its filetype: an
  -- edit may load a file no window shows (BufReadPost), create one
  -- (BufNewFile, BufAdd once loaded), and the server must get
  -- didOpen/didChange for each, or it cannot see the text the edit left.
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

  local cmd = vim.api.nvim_create_user_command
  cmd("HashlineRead", function(opts)
    require("hashline.ui").read(opts.args ~= "" and opts.args or nil)
  end, { nargs = "?", complete = "file", desc = "hashline: the numbered read of a file in a scratch window" })

  cmd("HashlineOutline", function(opts)
    require("hashline.ui").outline(opts.args ~= "" and opts.args or nil)
  end, { nargs = "?", complete = "file", desc = "hashline: the outline of a file (its declarations and their lines) in a scratch window" })

  cmd("HashlineEdit", function(opts)
    require("hashline.ui").edit(opts.args ~= "" and opts.args or nil)
  end, { nargs = "?", complete = "file", desc = "hashline: type edit ops for a file in a scratch buffer" })

  cmd("HashlineApply", function()
    require("hashline.ui").apply(vim.api.nvim_get_current_buf())
  end, { desc = "hashline: apply the ops of this :HashlineEdit buffer" })

  cmd("HashlineInfo", function()
    require("hashline.ui").info()
  end, { desc = "hashline: server status, client, position encoding, root, version" })
end

return M
