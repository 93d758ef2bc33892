-- hashline: runs hashline-ls in Neovim and gives assistants (and people) its
-- commands. See :help hashline.
--
-- This is the public module; the work is done in hashline.config (the
-- options), hashline.client (starting the server, attaching buffers),
-- hashline.apply (landing its edits), hashline.api (the commands),
-- hashline.status (:HashlineInfo and :checkhealth) and hashline.hooks (the
-- user commands and autocommands).
local config = require("hashline.config")
local client = require("hashline.client")
local api = require("hashline.api")
local status = require("hashline.status")

local M = {}

-- The options in force; setup() refills this same table.
M.config = config.values
M._state = client.state

for _, name in ipairs({
  "root", "is_file_buffer", "client", "client_config", "start", "attach", "is_attached",
  "current_file_buffer", "_on_buffer", "_on_enter",
}) do
  M[name] = client[name]
end

M.commands = api.commands
for _, name in ipairs({ "execute", "execute_sync", "tool_definitions", "render" }) do
  M[name] = api[name]
end
for fn in pairs(api.commands) do
  M[fn], M[fn .. "_sync"] = api[fn], api[fn .. "_sync"]
end

M.binary_version = status.binary_version
M.info = status.info

--- Configures the plugin; see :help hashline-setup.
function M.setup(opts)
  require("hashline.hooks").install()
  config.apply(opts)
  client.configure()
  return M
end

return M
