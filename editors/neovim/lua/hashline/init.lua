-- hashline: runs hashline-ls in Neovim and gives assistants (and people) its
-- commands. See :help hashline.
--
-- This is the public module; the work is done in hashline.config (the
-- options), hashline.client (starting the server, attaching buffers),
-- hashline.apply (landing its edits), hashline.api (running commands),
-- hashline.commands (a function for each, generated from the server's),
-- hashline.status (:HashlineInfo and :checkhealth) and hashline.hooks (the
-- user commands and autocommands).
local config = require("hashline.config")
local client = require("hashline.client")
local api = require("hashline.api")
local commands = require("hashline.commands")
local status = require("hashline.status")

---@class hashline
local M = {}

--- The options in force; setup() refills this same table.
M.config = config.values
M._state = client.state

M.root = client.root
M.is_file_buffer = client.is_file_buffer
M.client = client.client
M.client_config = client.client_config
M.start = client.start
M.attach = client.attach
M.is_attached = client.is_attached
M.current_file_buffer = client.current_file_buffer
M._on_buffer = client._on_buffer
M._on_enter = client._on_enter

M.execute = api.execute
M.execute_sync = api.execute_sync
M.tool_definitions = api.tool_definitions
M.render = api.render

-- The commands: fn(args, callback) and fn_sync(args, timeout_ms) for each
-- (TestNeovimCommands checks that every command of the server is here).
M.commands = commands.commands
M.read, M.read_sync = commands.read, commands.read_sync
M.grep, M.grep_sync = commands.grep, commands.grep_sync
M.edit, M.edit_sync = commands.edit, commands.edit_sync
M.write, M.write_sync = commands.write, commands.write_sync
M.patch, M.patch_sync = commands.patch, commands.patch_sync
M.describe, M.describe_sync = commands.describe, commands.describe_sync
M.session_end, M.session_end_sync = commands.session_end, commands.session_end_sync

M.binary_version = status.binary_version
M.info = status.info

--- Configures the plugin; see :help hashline-setup.
---@param opts? hashline.Options
---@return hashline
function M.setup(opts)
  require("hashline.hooks").install()
  config.apply(opts)
  client.configure()
  return M
end

return M
