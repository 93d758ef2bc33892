-- Unit tests of the tool adapters (codecompanion.nvim, avante.nvim) against
-- the live describe, and of the help file's tags, in every Neovim. Neither
-- AI plugin is loaded: the adapters return plain tables, and their
-- functions are called here the way those plugins call them (codecompanion.lua
-- and avante.lua run them in the real plugins).
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local env, check, wait = T.env, T.check, T.wait

T.run(function()
  local hl = require("hashline")
  hl.setup({ cmd = { env.bin, "--stdio", "--log-file", env.log, "--log-level", "debug" } })
  vim.cmd("edit greet.py")

  local d = hl.describe_sync()
  check(d and d.ok and type(d.tools) == "table" and #d.tools >= 4, "describe lists the tools", d)
  if not (d and d.ok) then
    return
  end

  -- codecompanion: one entry per describe tool, keyed by name, whose
  -- callback is a function returning the tool (codecompanion v19 resolves
  -- nothing else there).
  local cc = require("hashline.adapters.codecompanion")
  local tools = cc.tools({ describe = d })
  check(vim.tbl_count(tools) == #d.tools, "codecompanion: one tool per describe tool", vim.tbl_keys(tools))
  local resolved = {}
  for _, def in ipairs(d.tools) do
    local t = tools[def.name]
    local tool = t and type(t.callback) == "function" and t.callback() or nil
    resolved[def.name] = tool
    local fn = tool and tool.schema and tool.schema["function"]
    check(tool and t.description == def.description and tool.name == def.name and type(tool.cmds[1]) == "function",
      "codecompanion: " .. def.name .. "'s callback returns the tool, with its name, description and a function", t)
    check(fn and tool.schema.type == "function" and fn.name == def.name and fn.description == def.description
      and vim.deep_equal(fn.parameters, def.inputSchema), "codecompanion: " .. def.name .. " has its parameters schema", fn)
  end
  check(resolved.hashline_edit and resolved.hashline_edit.system_prompt == d.guidance, "codecompanion: the edit tool carries the guide", nil)
  local function asks(ts)
    local out = {}
    for name, t in pairs(ts) do
      -- A tool that asks plans the call first: a function of the call.
      local ask = t.opts.require_approval_before
      out[name] = type(ask) == "function" or ask
    end
    return out
  end
  check(vim.deep_equal(asks(tools), { hashline_read = false, hashline_grep = false, hashline_edit = true, hashline_write = true, hashline_patch = true }),
    "codecompanion: edit, write and patch ask before they run by default (require_approval_before)", asks(tools))
  local ask = asks(cc.tools({ describe = d, requires_approval = { hashline_edit = false, hashline_read = true } }))
  check(ask.hashline_edit == false and ask.hashline_read == true and ask.hashline_write == true and ask.hashline_grep == false,
    "codecompanion: requires_approval per tool, over the defaults", ask)
  check(vim.deep_equal(asks(cc.tools({ describe = d, requires_approval = false })), { hashline_read = false, hashline_grep = false,
    hashline_edit = false, hashline_write = false, hashline_patch = false }), "codecompanion: requires_approval = false asks for none", nil)
  local group = cc.group({ describe = d })
  check(#group.tools == #d.tools, "codecompanion: a group of every tool", group)

  -- Running a codecompanion tool the way its runner does:
  -- cmds[1](tools, args, { input, output_cb }), then output.success or
  -- output.error with the list of what the cmds answered and { tools }.
  local read_tool = resolved.hashline_read
  local chat7 = { chat = { bufnr = 7, cycle = 1 } }
  local out, answered_at_once
  local ret = read_tool.cmds[1](chat7, { path = "greet.py" }, { output_cb = function(o)
    out = o
  end })
  answered_at_once = out ~= nil
  wait(5000, function()
    return out ~= nil
  end)
  check(ret == nil and not answered_at_once, "codecompanion: the command returns at once and answers later, never blocking", { ret, answered_at_once })
  check(out and out.status == "success" and out.data:match("^%[greet%.py#%x%x%x%x%]\n1:def greet"),
    "codecompanion: the read tool answers through output_cb", out)
  local bad
  read_tool.cmds[1](chat7, { path = "no-such-file.txt" }, { output_cb = function(o)
    bad = o
  end })
  wait(5000, function()
    return bad ~= nil
  end)
  check(bad and bad.status == "error" and bad.data:match("^[A-Z_]+: "), "codecompanion: a failure is an error with its code", bad)
  -- What they answer is the text the server rendered, as it came.
  local rr, rf = hl.read_sync({ path = "greet.py" }), hl.read_sync({ path = "no-such-file.txt" })
  check(rr and type(rr.text) == "string" and out.data == rr.text and hl.render(rr) == rr.text,
    "codecompanion: the read tool answers with the result's text", { out = out, result = rr })
  check(rf and rf.ok == false and bad.data == rf.text and rf.text:match("\nargument: path\n"), "codecompanion: a failure answers with its text", { bad = bad, result = rf })
  local ended = hl.session_end_sync({ session = "codecompanion-7" })
  local never = hl.session_end_sync({ session = "codecompanion-99" })
  check(ended and ended.ended == true and never and never.ended == false, "codecompanion: each chat reads in a session of its own", { ended, never })

  local said = {}
  local chat = {
    add_tool_output = function(_, tool, text)
      table.insert(said, { tool = tool.name, text = text })
    end,
  }
  read_tool.output.success(read_tool, { out.data }, { tools = { chat = chat }, cmd = {} })
  read_tool.output.error(read_tool, { "EARLIER: another tool's error", bad.data }, { tools = { chat = chat }, cmd = {} })
  check(#said == 2 and said[1].text == out.data and said[2].text == bad.data and said[1].tool == "hashline_read",
    "codecompanion: output puts this call's text in the chat", said)
  local edit_tool = resolved.hashline_edit
  local q = edit_tool.output.prompt({ args = { path = "greet.py", tag = "ABCD", ops = "PUT 1.=1:\n+x" } }, {})
  check(q == "Run hashline_edit on greet.py?\n````\nPUT 1.=1:\n+x\n````", "codecompanion: a question the server did not plan shows the file and the ops", q)
  -- Before asking, the call is planned (dryRun) in the chat's session: the
  -- question shows its diff, nothing is written; a call the server would
  -- refuse is not asked about.
  local before = T.text(vim.fn.bufnr("greet.py"))
  local r8 = hl.read_sync({ path = "greet.py", session = "codecompanion-8" })
  local pending = { args = { path = "greet.py", tag = r8 and r8.tag, ops = "PUT 1.=1:\n+def hi(name):" } }
  local ask = tools.hashline_edit.opts.require_approval_before(pending, { chat = { bufnr = 8, cycle = 1 } })
  q = edit_tool.output.prompt(pending, {})
  check(ask == true and q:find("Run hashline_edit on greet.py?\n````diff\n--- a/greet.py\n+++ b/greet.py\n@@ ", 1, true)
    and q:find("\n-def greet(name):\n+def hi(name):\n", 1, true) and not q:find("PUT", 1, true),
    "codecompanion: the approval question shows the diff the server planned", { ask = ask, q = q, planned = pending.planned })
  check(T.text(vim.fn.bufnr("greet.py")) == before, "codecompanion: planning wrote nothing", T.text(vim.fn.bufnr("greet.py")))
  local stale = { args = { path = "greet.py", tag = "0000", ops = "PUT 1.=1:\n+x" } }
  ask = tools.hashline_edit.opts.require_approval_before(stale, { chat = { bufnr = 8, cycle = 1 } })
  check(ask == false and stale.planned and stale.planned.ok == false, "codecompanion: a call the server would refuse is not asked about", stale.planned)

  -- avante: a list, one tool per describe tool.
  local av = require("hashline.adapters.avante")
  local list = av.tools({ describe = d })
  check(#list == #d.tools, "avante: one tool per describe tool", #list)
  for i, def in ipairs(d.tools) do
    local t = list[i]
    check(t and t.name == def.name and type(t.description) == "string" and t.description:sub(1, #def.description) == def.description
      and type(t.func) == "function" and type(t.returns) == "table",
      "avante: " .. def.name .. " has its name, description, returns and func", t and t.name)
    local required = {}
    for _, r in ipairs(def.inputSchema.required or {}) do
      required[r] = true
    end
    local fields_ok = t and t.param and t.param.type == "table" and #t.param.fields == vim.tbl_count(def.inputSchema.properties)
    for _, f in ipairs(t and t.param and t.param.fields or {}) do
      local prop = def.inputSchema.properties[f.name]
      fields_ok = fields_ok and prop ~= nil and f.type == prop.type and f.optional == not required[f.name]
        and type(f.description) == "string" and f.description:sub(1, #(prop.description or "")) == (prop.description or "")
        and vim.deep_equal(f.choices, prop.enum)
        and (prop.minimum == nil or f.description:find("At least " .. prop.minimum .. ".", 1, true) ~= nil)
        and (prop.minLength == nil or f.description:find("At least " .. prop.minLength .. " characters.", 1, true) ~= nil)
        and (prop.pattern == nil or f.description:find(prop.pattern, 1, true) ~= nil)
    end
    check(fields_ok, "avante: " .. def.name .. " has one field per parameter, with type, optional, choices for an enum and its limits", t and t.param)
  end
  local edit_tool
  for _, t in ipairs(list) do
    if t.name == "hashline_edit" then
      edit_tool = t
    end
  end
  check(edit_tool and edit_tool.description:find(d.guidance, 1, true), "avante: the edit tool carries the guide", nil)

  -- Running an avante tool in each calling style.
  local avread = list[1]
  local got
  avread.func({ path = "greet.py" }, { on_log = function() end, on_complete = function(res, e)
    got = { res = res, err = e }
  end })
  wait(5000, function()
    return got ~= nil
  end)
  check(got and got.err == nil and got.res == out.data, "avante: func(params, {on_complete}) answers", got)
  got = nil
  avread.func({ path = "no-such-file.txt" }, function() end, function(res, e)
    got = { res = res, err = e }
  end)
  wait(5000, function()
    return got ~= nil
  end)
  check(got and got.res == nil and type(got.err) == "string" and got.err:match("^[A-Z_]+: "), "avante: func(params, on_log, on_complete) reports a failure", got)
  local res, e = avread.func({ path = "greet.py" })
  check(res == out.data and e == nil, "avante: func(params) answers synchronously", { res, e })

  -- Reading less goes through the adapters as describe has it: the read
  -- tool's view and symbol, the grep tool's symbols mode.
  local props = d.tools[1].inputSchema.properties
  local grep_modes = d.tools[2].inputSchema.properties.mode.enum
  check(d.tools[1].name == "hashline_read" and vim.tbl_contains(props.view.enum, "outline") and props.symbol.type == "string"
    and vim.tbl_contains(grep_modes, "symbols"), "describe: read takes view outline and symbol, grep takes mode symbols", props)
  local want_outline = hl.read_sync({ path = "greet.py", view = "outline" })
  local av_outline = avread.func({ path = "greet.py", view = "outline" })
  check(want_outline and want_outline.ok and av_outline == want_outline.text and av_outline:find("\n1%-2 def  1:def greet%(name%):\n"),
    "avante: the read tool answers an outline", { av_outline, want_outline })
  local cc_symbol
  read_tool.cmds[1](chat7, { path = "greet.py", symbol = "greet" }, { output_cb = function(o)
    cc_symbol = o
  end })
  wait(5000, function()
    return cc_symbol ~= nil
  end)
  check(cc_symbol and cc_symbol.status == "success" and cc_symbol.data:find("\n1:def greet%(name%):\n2:    return f\"hello {name}\"\nnote: "),
    "codecompanion: the read tool answers one symbol", cc_symbol)

  -- The adapters fetch describe themselves when not given one.
  check(vim.tbl_count(cc.tools()) == #d.tools and #av.tools() == #d.tools, "the adapters ask describe themselves", nil)

  -- The help file parses: :helptags on a copy (the plugin's own folder is
  -- left alone), then :help finds each tag.
  local docdir = env.tmp .. "/helpdoc/doc"
  vim.fn.mkdir(docdir, "p")
  vim.fn.writefile(vim.fn.readfile(env.plugin .. "/doc/hashline.txt"), docdir .. "/hashline.txt")
  local ok, herr = pcall(vim.cmd, "helptags " .. vim.fn.fnameescape(docdir))
  check(ok, ":helptags accepts doc/hashline.txt", herr)
  local tags = {}
  for _, l in ipairs(vim.fn.readfile(docdir .. "/tags")) do
    tags[l:match("^[^\t]+")] = true
  end
  vim.opt.runtimepath:append(env.tmp .. "/helpdoc")
  for _, tag in ipairs({ "hashline.txt", "hashline", "hashline-setup", "hashline-enable", "hashline-install", "hashline-api", ":HashlineRead", ":HashlineOutline", ":HashlineEdit",
    ":HashlineApply", ":HashlineInfo", "hashline-health", "hashline-codecompanion", "hashline-avante" }) do
    local found = pcall(vim.cmd, "help " .. tag)
    check(tags[tag] and found and vim.fn.expand("%:t") == "hashline.txt", "help tag " .. tag, tags[tag])
  end
end)
