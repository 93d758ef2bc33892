-- The editor of the typing tests (typing_test.go): a headless Neovim that
-- serves its RPC socket (--listen) to the test, which types into it as a
-- person would, while an MCP client edits the same files through the
-- bridge. The plugin is set up as a user's init.lua does it, with the
-- debounce $HASHLINE_DEBOUNCE when set.
--
-- $HASHLINE_TYPE_AFTER_EDIT, when set, is text "typed" at the cursor the
-- moment an edit has been applied, before anything else runs: the person
-- typing on at once, deterministically.
vim.opt.runtimepath:prepend(os.getenv("HASHLINE_PLUGIN"))
vim.o.swapfile = false
vim.o.hidden = true
vim.o.more = false
-- Python's ftplugin asks the python3 provider whether it exists, which
-- probes every python on PATH: seconds to a minute on a loaded machine.
for _, p in ipairs({ "python3", "ruby", "perl", "node" }) do
  vim.g["loaded_" .. p .. "_provider"] = 0
end

-- $HASHLINE_TYPE_BEFORE_EDIT, when set, is typed at the cursor as the
-- first edit arrives, before it is applied: a keystroke that reached
-- Neovim after the server last heard from it.
local before = os.getenv("HASHLINE_TYPE_BEFORE_EDIT")
local after = os.getenv("HASHLINE_TYPE_AFTER_EDIT")
local function type_here(text)
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  local lines = vim.split(text, "\n", { plain = true })
  vim.api.nvim_buf_set_text(0, row - 1, col, row - 1, col, lines)
  local last = lines[#lines]
  vim.api.nvim_win_set_cursor(0, { row + #lines - 1, #lines == 1 and col + #last or #last })
end
if (after and after ~= "") or (before and before ~= "") then
  -- Wrapped before hashline.client loads, which takes the handler then.
  local apply = require("hashline.apply")
  local handler = apply.handler
  apply.handler = function(...)
    if before and before ~= "" then
      type_here(before)
      before = nil
    end
    local res = handler(...)
    if after and after ~= "" and type(res) == "table" and res.applied and vim.fn.mode() == "i" then
      type_here(after)
    end
    return res
  end
end

local debounce = tonumber(os.getenv("HASHLINE_DEBOUNCE") or "")
local flags = debounce and { debounce_text_changes = debounce } or nil
local cmd = { os.getenv("HASHLINE_BIN"), "--stdio", "--log-file", os.getenv("HASHLINE_LOG"), "--log-level", "debug" }

if os.getenv("HASHLINE_NO_PLUGIN") ~= "" and os.getenv("HASHLINE_NO_PLUGIN") ~= nil then
  -- hashline-ls as any LSP client runs it: Neovim's own client and
  -- handlers, none of the plugin's checks.
  local root = os.getenv("HASHLINE_ROOT")
  local id
  vim.api.nvim_create_autocmd("BufReadPost", {
    callback = function(args)
      if vim.fn.has("nvim-0.8") == 1 then
        vim.lsp.start({ name = "plain", cmd = cmd, root_dir = root, flags = flags }, { bufnr = args.buf })
      else
        id = id or vim.lsp.start_client({ name = "plain", cmd = cmd, root_dir = root, flags = flags })
        vim.lsp.buf_attach_client(args.buf, id)
      end
    end,
  })
  return
end

require("hashline").setup({ cmd = cmd, root = os.getenv("HASHLINE_ROOT"), flags = flags })
