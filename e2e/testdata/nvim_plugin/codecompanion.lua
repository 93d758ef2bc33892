-- A real codecompanion.nvim chat (the vendored v19.22, with plenary) using
-- the hashline tools as :help hashline-codecompanion sets them up, word for
-- word. The model is played by the test's chat-completions server on
-- 127.0.0.1 ($HASHLINE_MODEL_URL): in each chat it reads greet.py and edits
-- it with the tag of that read; in the second, the user changes the line in
-- between. codecompanion asks before an edit the server would make, showing
-- its diff, and the test accepts with g2, codecompanion's key for it; the
-- refused edit asks nothing.
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local env, check, wait = T.env, T.check, T.wait

vim.opt.runtimepath:append(os.getenv("HASHLINE_PLENARY"))
vim.opt.runtimepath:append(os.getenv("HASHLINE_CODECOMPANION"))

-- The example of the help file, between the > and < after its tag.
local function help_example()
  local lines = vim.fn.readfile(env.plugin .. "/doc/hashline.txt")
  local code, inside, seen = {}, false, false
  for _, l in ipairs(lines) do
    if l:find("*hashline-codecompanion*", 1, true) then
      seen = true
    elseif seen and not inside and l:match(">$") then
      inside = true
    elseif inside and l:match("^<") then
      break
    elseif inside then
      table.insert(code, l)
    end
  end
  return table.concat(code, "\n")
end

-- The test's model, as an adapter added to the config the example hands
-- codecompanion's setup().
local function with_model(opts)
  opts.adapters = {
    http = {
      test_model = function()
        return require("codecompanion.adapters").extend("openai_compatible", {
          env = { url = os.getenv("HASHLINE_MODEL_URL"), api_key = "not-a-key", chat_url = "/v1/chat/completions" },
          schema = { model = { default = "test-model" } },
        })
      end,
    },
  }
  local interactions = opts.interactions or opts.strategies
  interactions.chat.adapter = "test_model"
  return opts
end

local function chat_text(chat)
  return table.concat(vim.api.nvim_buf_get_lines(chat.bufnr, 0, -1, false), "\n")
end

-- Types a message into the chat, sends it, and accepts each approval asked;
-- prompts are the chat's text at each approval, before it is accepted.
local function converse(chat, message, want, prompts)
  vim.api.nvim_buf_set_lines(chat.bufnr, -1, -1, false, { message })
  chat:submit()
  local asked = 0
  local done = wait(20000, function()
    local text = chat_text(chat)
    local _, n = text:gsub("Approval Required", "")
    if n > asked then
      asked = n
      table.insert(prompts or {}, text)
      vim.api.nvim_buf_call(chat.bufnr, function()
        vim.cmd("normal g2")
      end)
    end
    return text:find(want, 1, true) ~= nil and not chat.current_request
  end)
  return done, asked
end

T.run(function()
  local hl = require("hashline")
  hl.setup({ cmd = { env.bin, "--stdio", "--log-file", env.log, "--log-level", "debug" } })
  vim.cmd("edit greet.py")
  local src = vim.api.nvim_get_current_buf()

  local codecompanion = require("codecompanion")
  local setup = codecompanion.setup
  codecompanion.setup = function(opts)
    return setup(with_model(opts))
  end
  local example = help_example()
  local ok, err = pcall(assert(loadstring(example)))
  check(ok and example:find("interactions", 1, true), "the help's codecompanion example runs as written", { err, example })
  local config = require("codecompanion.config")
  check(type(config.interactions.chat.tools.hashline_edit.opts.require_approval_before) == "function"
    and config.interactions.chat.tools.hashline_read.opts.require_approval_before == false, "codecompanion reads our approvals", nil)

  -- 1. Read, then edit with the read's tag; the edit asks first, showing
  -- the change its dry run planned, not the ops.
  local chat = codecompanion.chat()
  check(chat and chat.bufnr, "a chat opens", chat)
  local prompts = {}
  local done, asked = converse(chat, "@{hashline} Make greet say hi.", "The greeting now says hi.", prompts)
  check(done, "the model's turn ends with its answer", chat_text(chat))
  check(asked == 1, "codecompanion asks once, for the edit and not for the read", { asked = asked, chat = chat_text(chat) })
  local diff = '````diff\n--- a/greet.py\n+++ b/greet.py\n@@ -1,4 +1,4 @@\n def greet(name):\n-    return f"hello {name}"\n+    return f"hi {name}"\n \n print(greet("x"))\n````'
  check(prompts[1] and prompts[1]:find(diff, 1, true) and not prompts[1]:find("PUT 2.=2:", 1, true),
    "the approval shows the planned diff", prompts[1])
  check(vim.api.nvim_buf_get_lines(src, 1, 2, false)[1] == '    return f"hi {name}"', "the edit landed in the buffer", T.text(src))
  check(vim.bo[src].modified and T.disk("greet.py"):find("hello", 1, true), "unsaved, as typed", T.disk("greet.py"))
  check(chat_text(chat):find("[greet.py#", 1, true), "the chat shows the tools' text", chat_text(chat))

  -- 2. The user changes the line between the model's read and its edit:
  -- refused, with the code and the live lines in the tool's output, which
  -- codecompanion sends the model.
  local typed = '    return f"howdy {name}"'
  vim.api.nvim_create_autocmd("User", {
    pattern = "CodeCompanionToolFinished",
    once = true,
    callback = function(ev)
      if ev.data and ev.data.name == "hashline_read" then
        vim.api.nvim_buf_set_lines(src, 1, 2, false, { typed })
      end
    end,
  })
  local chat2 = codecompanion.chat()
  done, asked = converse(chat2, "@{hashline} Make greet say hi (stale).", "I will read the file again.")
  check(done and asked == 0, "the second chat ends without asking: its dry run was refused", chat_text(chat2))
  check(vim.api.nvim_buf_get_lines(src, 1, 2, false)[1] == typed, "the refused edit left the user's line", T.text(src))
  check(chat_text(chat2):find("EDIT_TAG_MISMATCH", 1, true), "the chat shows the refusal", chat_text(chat2))

  -- The older strategies key still reaches the same tools.
  local cc = require("hashline.adapters.codecompanion")
  setup(with_model({ strategies = { chat = { tools = cc.tools() } } }))
  local tool = require("codecompanion.interactions.chat.tools").resolve(config.interactions.chat.tools.hashline_read)
  check(tool and tool.name == "hashline_read" and tool.schema["function"].name == "hashline_read",
    "strategies.chat.tools is converted and resolves our tools", tool)
end)
