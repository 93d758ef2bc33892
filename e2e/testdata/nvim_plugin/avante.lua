-- The hashline tools in the real avante.nvim (the vendored snapshot, with
-- nui and plenary): avante's config takes them as custom_tools, its get_tools lists
-- them, its OpenAI provider and its prompt-based tool instructions turn
-- them into what a model is sent, and its process_tool_use runs them.
-- avante's chat needs Rust libraries that cannot be built here; its tool
-- machinery is plain Lua.
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local env, check, wait = T.env, T.check, T.wait

vim.opt.runtimepath:append(os.getenv("HASHLINE_NUI"))
vim.opt.runtimepath:append(os.getenv("HASHLINE_PLENARY"))
vim.opt.runtimepath:append(os.getenv("HASHLINE_AVANTE"))

T.run(function()
  local hl = require("hashline")
  hl.setup({ cmd = { env.bin, "--stdio", "--log-file", env.log, "--log-level", "debug" } })
  vim.cmd("edit greet.py")
  local src = vim.api.nvim_get_current_buf()
  local d = hl.describe_sync()

  require("avante.config").setup({
    custom_tools = function()
      return require("hashline.adapters.avante").tools()
    end,
  })
  local llm_tools = require("avante.llm_tools")
  local tools = llm_tools.get_tools("", {})
  local ours = {}
  for _, t in ipairs(tools) do
    if t.name:match("^hashline_") then
      ours[t.name] = t
    end
  end
  check(vim.tbl_count(ours) == #d.tools, "avante's get_tools lists every hashline tool", vim.tbl_keys(ours))

  -- What avante sends a model for each tool keeps the schema's types,
  -- enums and required properties.
  local openai = require("avante.providers.openai")
  for _, def in ipairs(d.tools) do
    local sent = ours[def.name] and openai:transform_tool(ours[def.name])["function"].parameters
    local same = sent ~= nil
    for name, prop in pairs(def.inputSchema.properties) do
      local got = sent and sent.properties[name]
      same = same and got ~= nil and got.type == prop.type and vim.deep_equal(got.enum, prop.enum)
        and got.description:sub(1, #prop.description) == prop.description
    end
    local want_required = vim.deepcopy(def.inputSchema.required or {})
    local got_required = sent and vim.deepcopy(sent.required) or {}
    table.sort(want_required)
    table.sort(got_required)
    check(same and vim.tbl_count(sent.properties) == vim.tbl_count(def.inputSchema.properties) and vim.deep_equal(got_required, want_required),
      "avante sends " .. def.name .. " with the schema's types, enums and required properties", sent)
  end
  local prompt = require("avante.utils.prompts").get_ReAct_system_prompt({}, { tools = tools, system_prompt = "" })
  check(prompt:find("## hashline_read", 1, true) and prompt:find("- anchors: ", 1, true) and prompt:find("    - Choices: tag, line\n", 1, true),
    "avante's prompt-based tool instructions name the enum's choices", prompt:match("## hashline_read.-\n\n"))

  -- process_tool_use runs a tool and answers asynchronously.
  local function use(name, input)
    local got
    local res, err = llm_tools.process_tool_use(tools, { id = "t-" .. name, name = name, input = input }, {
      on_log = function() end,
      on_complete = function(r, e)
        got = { res = r, err = e }
      end,
    })
    check(res == nil and err == nil, "process_tool_use of " .. name .. " answers later", { res, err })
    wait(5000, function()
      return got ~= nil
    end)
    return got or {}
  end
  local r = use("hashline_read", { path = "greet.py" })
  local want = hl.read_sync({ path = "greet.py" })
  check(r.err == nil and want and r.res == want.text, "the read answers with the server's text", r)
  local tag = r.res and r.res:match("^%[greet%.py#(%x%x%x%x)%]")
  local e = use("hashline_edit", { path = "greet.py", tag = tag, ops = 'PUT 2.=2:\n+    return f"hi {name}"' })
  check(e.err == nil and type(e.res) == "string" and e.res:find('+    return f"hi {name}"', 1, true), "the edit answers with its diff", e)
  check(vim.api.nvim_buf_get_lines(src, 1, 2, false)[1] == '    return f"hi {name}"', "the edit landed in the buffer", T.text(src))
  local stale = use("hashline_edit", { path = "greet.py", tag = tag, ops = 'PUT 2.=2:\n+    return f"hey {name}"' })
  check(stale.res == nil and type(stale.err) == "string" and stale.err:match("^EDIT_TAG_MISMATCH") and stale.err:find('2:    return f"hi {name}"', 1, true),
    "a stale edit answers with the code and the live lines as the error", stale)
  check(vim.api.nvim_buf_get_lines(src, 1, 2, false)[1] == '    return f"hi {name}"', "the stale edit changed nothing", T.text(src))
end)
