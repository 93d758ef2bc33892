-- A scripted Neovim session against hashline-ls, with Neovim's default
-- didChange debounce. It writes one line per check to $HASHLINE_RESULTS and
-- ends with "N passed, N failed".
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local bin, root, report = T.env.bin, T.env.root, T.check

local client_id = vim.lsp.start_client({
  name = "hashline",
  cmd = { bin, "--stdio", "--log-file", root .. "/../server.log", "--log-level", "debug" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "ws" } },
})
report(client_id ~= nil, "start_client", client_id)

vim.cmd("edit " .. root .. "/greet.py")
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client_id)
local client
vim.wait(5000, function()
  client = vim.lsp.get_client_by_id(client_id)
  return client ~= nil and client.initialized
end, 10)
report(client and client.initialized, "initialized", nil)

-- execute runs one hashline command and waits for its result table.
local function execute(command, args)
  local done, result, err = false, nil, nil
  client.request("workspace/executeCommand", { command = command, arguments = { args } }, function(e, r)
    err, result, done = e, r, true
  end, buf)
  vim.wait(10000, function() return done end, 10)
  if not done then
    return nil, "timeout"
  end
  return result, err
end

local function lines()
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end

-- 1. read: numbered lines under [path#TAG].
local r = execute("hashline.read", { path = "greet.py" })
report(r and r.ok and r.content:match("^%[greet%.py#%x%x%x%x%]\n1:def greet%(name%):\n2:    return"), "read", r)
local tag = r and r.tag

-- 2. edit: lands in the buffer, through the editor.
local e = execute("hashline.edit", { path = "greet.py", tag = tag, ops = "PUT 2.=2:\n+    return f\"hi {name}\"" })
report(e and e.ok, "edit ok", e)
report(lines() == 'def greet(name):\n    return f"hi {name}"\n\nprint(greet("x"))', "edit in buffer", lines())
report(vim.api.nvim_buf_get_option(buf, "modified"), "edit left the buffer modified, not saved", nil)
local tag2 = e and e.tag

-- 3. the user changes the buffer: a comment above line 1, and line 2 (the
-- line the next edit is anchored on) gets a different greeting.
vim.api.nvim_buf_set_lines(buf, 0, 0, false, { "# greeting helpers" })
vim.api.nvim_buf_set_lines(buf, 2, 3, false, { '    return f"hey {name}"' })

-- 4. a stale edit anchored on the changed line fails with the live tag and
-- the lines as they are now, the changed ones marked >>>.
local s = execute("hashline.edit", { path = "greet.py", tag = tag2, ops = "PUT 2.=2:\n+    return 'stale'" })
local live = s and s.error and s.error.details and s.error.details.liveTag
report(s and s.ok == false and s.error.code == "EDIT_TAG_MISMATCH" and live and live ~= tag2, "stale edit refused with live tag", s)
report(s and s.error and s.error.details.content and s.error.details.content:find(">>>3:    return f\"hey {name}\"", 1, true), "refusal shows the changed line", s)
report(lines():find("return 'stale'", 1, true) == nil, "stale edit wrote nothing", lines())

-- 5. an edit with the fresh tag, against the shown line numbers, lands.
local f = execute("hashline.edit", { path = "greet.py", tag = live, ops = "PUT 3.=3:\n+    return f\"hello, {name}\"" })
report(f and f.ok, "fresh edit ok", f)
report(lines() == '# greeting helpers\ndef greet(name):\n    return f"hello, {name}"\n\nprint(greet("x"))', "fresh edit in buffer", lines())
report(f and f.tag and #f.tag == 4 and f.tag ~= live, "fresh edit returns the new tag", f)

-- 6. the returned tag re-grounds: an edit with it needs no read.
local g = execute("hashline.edit", { path = "greet.py", tag = f and f.tag, ops = "PUT >$:\n+# end" })
report(g and g.ok and lines():sub(-5) == "# end", "edit with returned tag", g)

vim.lsp.stop_client(client_id)
T.finish()
