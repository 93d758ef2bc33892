-- The hashline-ls config for vim.lsp.config (Neovim 0.11 and later). With
-- the plugin on the runtimepath, vim.lsp.enable("hashline") starts the
-- server and attaches every buffer that holds a file, setup() or not; the
-- config is setup()'s defaults, and vim.lsp.config("hashline", {...})
-- changes it. See :help hashline-enable.
return require("hashline.client").enable_config()
