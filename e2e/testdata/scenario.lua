-- Runs the scenario in $HASHLINE_SCENARIO (testdata/scenario/*.json) in
-- Neovim against hashline-ls, with Neovim's default didChange debounce, and
-- writes its transcript to $HASHLINE_RESULTS in the form scenario_test.go
-- writes the fake editor's: each step's outcome, then the buffer.
local bin = os.getenv("HASHLINE_BIN")
local root = os.getenv("HASHLINE_ROOT")
local out = assert(io.open(os.getenv("HASHLINE_RESULTS"), "w"))

local function run()
  local f = assert(io.open(os.getenv("HASHLINE_SCENARIO")))
  local sc = vim.fn.json_decode(f:read("*a"))
  f:close()

  local client_id = assert(vim.lsp.start_client({
    name = "hashline",
    cmd = { bin, "--stdio", "--log-file", root .. "/../server.log", "--log-level", "debug" },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = "ws" } },
  }))
  vim.cmd("edit " .. vim.fn.fnameescape(root .. "/" .. sc.file))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  local client
  assert(vim.wait(5000, function()
    client = vim.lsp.get_client_by_id(client_id)
    return client ~= nil and client.initialized
  end, 10), "the client did not initialize")

  local function execute(command, args)
    local done, result, err = false, nil, nil
    client.request("workspace/executeCommand", { command = command, arguments = { args } }, function(e, r)
      err, result, done = e, r, true
    end, buf)
    assert(vim.wait(10000, function() return done end, 10), command .. " timed out")
    assert(err == nil, command .. ": " .. vim.inspect(err))
    return result
  end

  local function text()
    local t = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
    if vim.api.nvim_buf_get_option(buf, "eol") then
      t = t .. "\n"
    end
    return t
  end

  local function lines(s)
    return vim.split(s, "\n", { plain = true })
  end

  local tag = ""
  for i, step in ipairs(sc.steps) do
    if step["do"] == "read" then
      local r = execute("hashline.read", { path = sc.file })
      assert(r.ok, vim.inspect(r))
      tag = r.tag
      out:write(string.format("%d read: ok %s\n", i, r.tag))
    elseif step["do"] == "edit" then
      local r = execute("hashline.edit", { path = sc.file, tag = tag, ops = step.ops })
      if r.ok then
        tag = r.tag
        out:write(string.format("%d edit: ok %s\n", i, r.tag))
        for _, w in ipairs(r.warnings or {}) do
          out:write("    warning: " .. w.kind .. "\n")
        end
      else
        local d = r.error.details or {}
        tag = d.liveTag or tag
        out:write(string.format("%d edit: %s live %s\n", i, r.error.code, d.liveTag or ""))
        if d.content and d.content ~= "" then
          for _, l in ipairs(lines((d.content:gsub("\n$", "")))) do
            out:write("    " .. l .. "\n")
          end
        end
      end
    elseif step["do"] == "type" then
      vim.api.nvim_buf_set_text(buf, step.at[1], step.at[2], step.to[1], step.to[2], lines(step.text))
      out:write(string.format("%d type\n", i))
    else
      error("unknown step " .. vim.inspect(step))
    end
    for _, l in ipairs(lines(text())) do
      out:write("|" .. l .. "\n")
    end
  end
  vim.lsp.stop_client(client_id)
end

local ok, err = pcall(run)
if not ok then
  out:write("error: " .. tostring(err) .. "\n")
end
out:close()
vim.cmd("qall!")
