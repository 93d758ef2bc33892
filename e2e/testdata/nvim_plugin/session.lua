-- A scripted session of the Neovim plugin against hashline-ls, with Neovim's
-- default didChange debounce: the Lua API, edits the user races, a file no
-- window shows, write, MV, REM, the user commands and :checkhealth.
local T = dofile(os.getenv("HASHLINE_TESTDATA") .. "/harness.lua")
local env, check, wait = T.env, T.check, T.wait

-- opened runs the user command cmd and waits for it to show the buffer
-- whose name matches pattern, and returns that buffer, or nil.
local function opened(cmd, pattern)
  vim.cmd(cmd)
  local b
  wait(5000, function()
    b = T.find_buffer(pattern)
    return b ~= nil and vim.api.nvim_get_current_buf() == b
  end)
  return b
end

T.run(function()
  check(vim.g.loaded_hashline == 1, "plugin/hashline.lua is loaded from the runtimepath", vim.g.loaded_hashline)
  local hl = require("hashline")

  -- A buffer loaded before setup, as with a lazy-loaded plugin.
  vim.cmd("edit pre.txt")
  local pre = vim.api.nvim_get_current_buf()

  hl.setup({
    cmd = { env.bin, "--stdio", "--log-file", env.log, "--log-level", "debug" },
    settings = { landTimeoutMs = 3000 },
  })
  check(wait(5000, function()
    local c = hl.client()
    return c ~= nil and c.initialized
  end), "setup starts the server", hl.info())
  check(hl.is_attached(pre), "a buffer loaded before setup is attached", hl.info())

  vim.cmd("edit greet.py")
  local buf = vim.api.nvim_get_current_buf()
  check(hl.is_attached(buf), "a file buffer is attached when read", hl.info())
  vim.cmd("edit notes.zzz")
  check(vim.bo.filetype == "" and hl.is_attached(0), "a file with no filetype is attached", vim.bo.filetype)
  vim.cmd("edit brand-new.txt")
  check(hl.is_attached(0), "a new file's buffer is attached", hl.info())
  vim.cmd("buffer " .. buf)
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  check(#vim.tbl_filter(function(c)
    return c.name == "hashline"
  end, all) == 1 and #hl.info().attached_buffers == 4, "one client holds the four file buffers", hl.info())

  -- 1. read, both forms.
  local r, err = hl.read_sync({ path = "greet.py" })
  check(r and r.ok and r.content:match("^%[greet%.py#%x%x%x%x%]\n1:def greet%(name%):\n2:    return f\"hello {name}\"\n"),
    "read_sync returns the numbered read", r or err)
  local got
  hl.read({ path = "greet.py" }, function(res, e)
    got = { res = res, err = e }
  end)
  wait(5000, function()
    return got ~= nil
  end)
  check(got and got.res and got.res.ok and r and got.res.tag == r.tag and got.err == nil, "read calls back with the result", got)

  -- 2. edit: the buffer shows it, unsaved.
  local e = hl.edit_sync({ path = "greet.py", tag = r and r.tag, ops = 'PUT 2.=2:\n+    return f"hi {name}"' })
  check(e and e.ok and #e.tag == 4, "edit lands", e)
  check(T.text(buf) == 'def greet(name):\n    return f"hi {name}"\n\nprint(greet("x"))', "the buffer shows the edit", T.text(buf))
  check(vim.bo[buf].modified, "the edit left the buffer modified, not saved", nil)
  check(T.disk("greet.py"):find("hello {name}", 1, true), "the disk is untouched", T.disk("greet.py"))

  -- 3. The user adds a line above; a stale edit of a line the user did not
  -- touch either recovers (exactly) or is refused with the live tag.
  vim.api.nvim_buf_set_lines(buf, 0, 0, false, { "# greeting helpers" })
  local before = T.text(buf)
  -- A read in a session of its own, so the stale edit below stays stale.
  local typed = hl.read_sync({ path = "greet.py", session = "typing" })
  check(typed and typed.ok and typed.content:find("\n1:# greeting helpers\n2:def greet", 1, true) and not T.disk("greet.py"):find("greeting", 1, true),
    "a read sees the unsaved typing at once", typed)
  local s = hl.edit_sync({ path = "greet.py", tag = e and e.tag, ops = 'PUT 4.=4:\n+print(greet("y"))' })
  if s and s.ok then
    local recovered = false
    for _, w in ipairs(s.warnings or {}) do
      if tostring(w.kind):lower():find("recover") or tostring(w.message):lower():find("recover") then
        recovered = true
      end
    end
    check(recovered, "a stale edit that succeeds says it recovered", s)
    check(T.text(buf) == '# greeting helpers\ndef greet(name):\n    return f"hi {name}"\n\nprint(greet("y"))',
      "the recovered edit landed on the moved line", T.text(buf))
  else
    local d = s and s.error and s.error.details
    check(s and s.ok == false and s.error.code == "EDIT_TAG_MISMATCH" and d and d.liveTag and d.liveTag ~= (e and e.tag),
      "a stale edit is refused with the live tag", s)
    check(T.text(buf) == before, "the refused edit wrote nothing", T.text(buf))
  end

  -- 4. The user changes the very line an edit anchors on: refused, always.
  local r3 = hl.read_sync({ path = "greet.py" })
  local last = #vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  vim.api.nvim_buf_set_lines(buf, last - 1, last, false, { 'print(greet("user"))' })
  local before4 = T.text(buf)
  local a = hl.edit_sync({ path = "greet.py", tag = r3 and r3.tag, ops = string.format('PUT %d.=%d:\n+print(greet("model"))', last, last) })
  local live = a and a.error and a.error.details and a.error.details.liveTag
  check(a and a.ok == false and a.error.code == "EDIT_TAG_MISMATCH" and type(live) == "string" and live ~= (r3 and r3.tag),
    "an edit of a line the user changed is refused with the live tag", a)
  check(T.text(buf) == before4, "the refused edit left the user's line", T.text(buf))
  check(a and a.error and type(a.error.details.content) == "string" and a.error.details.content:find('print(greet("user"))', 1, true),
    "the refusal shows the live lines", a)

  -- 5. One honest retry with the live tag needs no read.
  local f = hl.edit_sync({ path = "greet.py", tag = live, ops = string.format('PUT %d.=%d:\n+print(greet("both"))', last, last) })
  check(f and f.ok, "the retry with the live tag lands", f)
  check(vim.api.nvim_buf_get_lines(buf, last - 1, last, false)[1] == 'print(greet("both"))', "the retry is in the buffer", T.text(buf))

  -- 6. A file no window shows: Neovim loads it to apply the edit, the
  -- plugin attaches that buffer, and the server sees what landed.
  check(vim.fn.bufloaded(T.path("other.txt")) == 0, "other.txt is not loaded", nil)
  local o = hl.read_sync({ path = "other.txt" })
  local oe = hl.edit_sync({ path = "other.txt", tag = o and o.tag, ops = "PUT 2.=2:\n+BETA" })
  check(oe and oe.ok, "an edit to a file no window shows lands", oe)
  local ob = vim.fn.bufnr(T.path("other.txt"))
  check(ob > 0 and vim.api.nvim_buf_is_loaded(ob) and T.text(ob) == "alpha\nBETA\ngamma", "it landed in a buffer Neovim loaded", ob > 0 and T.text(ob))
  check(ob > 0 and vim.fn.bufwinnr(ob) == -1, "no window shows that buffer", nil)
  check(ob > 0 and hl.is_attached(ob), "the loaded buffer is attached", hl.info())
  local o2 = hl.read_sync({ path = "other.txt" })
  check(o2 and o2.ok and o2.content:find("\n2:BETA\n", 1, true) and oe and o2.tag == oe.tag, "the next read shows the edit", o2)
  check(T.disk("other.txt") == "alpha\nbeta\ngamma\n", "other.txt on disk is untouched", T.disk("other.txt"))

  -- 7. write creates a file.
  local w = hl.write_sync({ path = "created.txt", content = "fresh\nfile\n" })
  check(w and w.ok and w.created == true, "write creates a file", w)
  check(T.disk("created.txt") ~= nil, "the file exists on disk", nil)
  local cb = vim.fn.bufnr(T.path("created.txt"))
  check(cb > 0 and vim.api.nvim_buf_is_loaded(cb) and T.text(cb) == "fresh\nfile", "its buffer holds the content", cb > 0 and T.text(cb))
  check(cb > 0 and hl.is_attached(cb), "its buffer is attached", hl.info())
  local w2 = hl.read_sync({ path = "created.txt" })
  check(w and type(w.warnings) == "table" and #w.warnings == 0, "the written text landed as sent", w)
  check(w2 and w2.ok and w and w2.content == "[created.txt#" .. tostring(w.tag) .. "]\n1:fresh\n2:file\n", "the next read shows the written file", w2)
  vim.api.nvim_buf_call(cb, function()
    vim.cmd("silent write")
  end)
  check(T.disk("created.txt") == "fresh\nfile\n", ":write saves exactly the written content", T.disk("created.txt"))

  -- 7b. write into folders that do not exist yet.
  local nw = hl.write_sync({ path = "new/deeper/made.txt", content = "made\nhere\n" })
  check(nw and nw.ok and nw.created == true, "write into a new folder creates the file", nw)
  check(vim.fn.isdirectory(T.path("new/deeper")) == 1 and T.disk("new/deeper/made.txt") ~= nil, "the folders and the file exist on disk", nil)
  local nb = vim.fn.bufnr(T.path("new/deeper/made.txt"))
  check(nb > 0 and T.text(nb) == "made\nhere" and hl.is_attached(nb), "its buffer holds the content and is attached", nb > 0 and T.text(nb))
  -- When Neovim fails to apply the edit, the folders made for it go again.
  local apply = vim.lsp.handlers["workspace/applyEdit"]
  vim.lsp.handlers["workspace/applyEdit"] = function()
    error("refused for this test")
  end
  local fw = hl.write_sync({ path = "never/made.txt", content = "x\n" })
  vim.lsp.handlers["workspace/applyEdit"] = apply
  check(fw and fw.ok == false and vim.fn.isdirectory(T.path("never")) == 0, "a write whose edit fails leaves no folder behind", fw)

  -- 8. MV, with the file shown in a window.
  vim.cmd("split mv_src.txt")
  local mwin = vim.api.nvim_get_current_win()
  local m = hl.read_sync({ path = "mv_src.txt" })
  local me = hl.edit_sync({ path = "mv_src.txt", tag = m and m.tag, ops = "PUT 1.=1:\n+ONE\nMV mv_dest.txt" })
  check(me and me.ok, "an edit with MV lands", me)
  check(T.disk("mv_src.txt") == nil, "MV: the old path is gone from disk", T.disk("mv_src.txt"))
  check(T.disk("mv_dest.txt") == "ONE\ntwo\n", "MV: the new path holds the edited text on disk", T.disk("mv_dest.txt"))
  local oldb = vim.fn.bufnr(T.path("mv_src.txt"))
  check(oldb == -1 or not vim.api.nvim_buf_is_loaded(oldb), "MV: no loaded buffer holds the old path", oldb)
  local wb = vim.api.nvim_win_get_buf(mwin)
  check(vim.api.nvim_buf_get_name(wb) == T.path("mv_dest.txt") and T.text(wb) == "ONE\ntwo", "MV: the window shows the moved file",
    { vim.api.nvim_buf_get_name(wb), T.text(wb) })
  check(hl.is_attached(wb), "MV: the moved file's buffer is attached", hl.info())
  local md = hl.read_sync({ path = "mv_dest.txt" })
  check(md and md.ok and md.content:find("\n1:ONE\n2:two", 1, true), "MV: the next read of the new path shows it", md)
  vim.cmd("close")

  -- 9. REM, with the file in a hidden buffer.
  vim.cmd("badd rem.txt")
  local rb = vim.fn.bufnr(T.path("rem.txt"))
  vim.fn.bufload(rb)
  check(hl.is_attached(rb), "a buffer loaded by bufload is attached", hl.info())
  local rr = hl.read_sync({ path = "rem.txt" })
  local re = hl.edit_sync({ path = "rem.txt", tag = rr and rr.tag, ops = "REM" })
  check(re and re.ok and re.removed == true, "REM lands", re)
  check(T.disk("rem.txt") == nil, "REM: the file is gone from disk", T.disk("rem.txt"))
  check(not vim.api.nvim_buf_is_valid(rb) or not vim.api.nvim_buf_is_loaded(rb), "REM: its buffer is gone", rb)
  local rr2 = hl.read_sync({ path = "rem.txt" })
  check(rr2 and rr2.ok == false, "REM: a read of it fails", rr2)

  -- 10. :HashlineRead shows the numbered read of the current buffer.
  vim.cmd("only")
  vim.cmd("buffer " .. buf)
  local want = hl.read_sync({ path = "greet.py" })
  local rbuf = opened("HashlineRead", "^hashline://read/greet%.py$")
  check(rbuf ~= nil, ":HashlineRead opens a scratch window", vim.api.nvim_buf_get_name(0))
  if rbuf then
    local shown = vim.api.nvim_buf_get_lines(rbuf, 0, -1, false)
    check(want and vim.deep_equal(shown, T.lines(want.content)), ":HashlineRead shows the numbered read", { shown = shown, want = want.content })
    check(want and vim.deep_equal(shown, T.lines(want.text)), ":HashlineRead shows the result's text", { shown = shown, want = want.text })
    check(shown[1] == "[greet.py#" .. tostring(want and want.tag) .. "]", ":HashlineRead starts with the header", shown[1])
    check(vim.bo[rbuf].buftype == "nofile" and not vim.bo[rbuf].modifiable, "the read buffer is a scratch buffer", nil)
  end

  -- 10b. :HashlineOutline shows the outline, and <CR> on a row goes to its
  -- declaration in the file.
  vim.cmd("only")
  vim.cmd("buffer " .. buf)
  local wanto = hl.read_sync({ path = "greet.py", view = "outline" })
  local obuf = opened("HashlineOutline", "^hashline://outline/greet%.py$")
  check(obuf ~= nil, ":HashlineOutline opens a scratch window", vim.api.nvim_buf_get_name(0))
  if obuf then
    local shown = vim.api.nvim_buf_get_lines(obuf, 0, -1, false)
    check(wanto and wanto.ok and vim.deep_equal(shown, T.lines(wanto.text)), ":HashlineOutline shows the result's text", { shown = shown, want = wanto and wanto.text })
    local row, decl
    for i, l in ipairs(shown) do
      local n = l:match("^[%d%-]+ %S+  (%d+):def greet")
      if n then
        row, decl = i, tonumber(n)
      end
    end
    check(row ~= nil and vim.bo[obuf].buftype == "nofile" and not vim.bo[obuf].modifiable, "the outline lists greet in a scratch buffer", shown)
    if row then
      vim.api.nvim_win_set_cursor(0, { row, 0 })
      vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("<CR>", true, false, true), "x", false)
      check(vim.api.nvim_get_current_buf() == buf and vim.api.nvim_win_get_cursor(0)[1] == decl, "<CR> on the row goes to the declaration's line", vim.api.nvim_win_get_cursor(0))
    end
  end

  -- 11. :HashlineEdit: type ops, :write, see the result.
  vim.cmd("only")
  vim.cmd("buffer " .. buf)
  local ebuf = opened("HashlineEdit", "^hashline://edit/greet%.py$")
  local ui = require("hashline.ui")
  check(ebuf ~= nil and ui.state(ebuf) and #ui.state(ebuf).tag == 4, ":HashlineEdit opens an ops buffer at the latest tag", ebuf and ui.state(ebuf))
  if ebuf then
    local row = vim.api.nvim_win_get_cursor(0)[1]
    vim.api.nvim_buf_set_lines(ebuf, row - 1, row, false, { "PUT >$:", "+# typed in :HashlineEdit" })
    local tag_before = ui.state(ebuf).tag
    vim.cmd("write")
    wait(5000, function()
      return ui.state(ebuf).last ~= nil
    end)
    local res = ui.state(ebuf).last and ui.state(ebuf).last.result
    check(res and res.ok, ":write in the ops buffer applies the ops", ui.state(ebuf).last)
    local gl = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
    check(gl[#gl] == "# typed in :HashlineEdit", "the ops landed in the file's buffer", gl)
    local el = vim.api.nvim_buf_get_lines(ebuf, 0, -1, false)
    check(res and el[1] == "# " .. res.header and ui.state(ebuf).tag ~= tag_before, "the ops buffer shows the result and the new tag", el)
    check(not vim.bo[ebuf].modified, "the ops buffer is not left modified", nil)

    -- A mistake: the error is shown, nothing lands.
    ui.state(ebuf).last = nil
    local first
    for i, l in ipairs(vim.api.nvim_buf_get_lines(ebuf, 0, -1, false)) do
      if l:sub(1, 1) ~= "#" then
        first = i
        break
      end
    end
    vim.api.nvim_buf_set_lines(ebuf, first - 1, first, false, { "PUT 1:", "+oops" })
    local text_before = T.text(buf)
    vim.cmd("HashlineApply")
    wait(5000, function()
      return ui.state(ebuf).last ~= nil
    end)
    local bad = ui.state(ebuf).last and ui.state(ebuf).last.result
    check(bad and bad.ok == false and bad.error.code == "EDIT_PARSE_FAILED", ":HashlineApply reports a malformed op", bad)
    check(T.text(ebuf):find("# EDIT_PARSE_FAILED:", 1, true) and T.text(ebuf):find("\nPUT 1:\n+oops\n", 1, true),
      "the ops buffer shows the error and keeps the ops", T.text(ebuf))
    check(T.text(ebuf):find("\n# retriable: false\n", 1, true), "the ops buffer shows the error's whole text", T.text(ebuf))
    check(T.text(buf) == text_before, "the malformed op wrote nothing", T.text(buf))
  end

  -- 12. :HashlineInfo.
  vim.cmd("only")
  vim.cmd("buffer " .. buf)
  local info = hl.info()
  -- The server counts in UTF-8 when the client offers it (0.12 does), else
  -- in UTF-16.
  local general = vim.lsp.protocol.make_client_capabilities().general
  local enc = general and vim.tbl_contains(general.positionEncodings or {}, "utf-8") and "utf-8" or "utf-16"
  check(info.status == "running" and info.client_id == hl.client().id, ":HashlineInfo: running, with the client id", info)
  check(info.position_encoding == enc and info.client_encoding == enc, ":HashlineInfo: the position encoding", info)
  check(info.root == vim.fn.getcwd() and info.version == "0.1.0" and info.binary_version == "hashline-ls 0.1.0", ":HashlineInfo: root and versions", info)
  local shown = vim.api.nvim_exec("HashlineInfo", true)
  check(shown:find("running", 1, true) and shown:find(enc, 1, true) and shown:find(info.root, 1, true), ":HashlineInfo prints the status", shown)

  -- 13. :checkhealth hashline on a buffer the server lost: its advice
  -- attaches it again, to the same client.
  local id = hl.client().id
  vim.lsp.buf_detach_client(buf, id)
  check(wait(2000, function()
    return not hl.is_attached(buf)
  end), "the buffer is detached", hl.info())
  vim.cmd("checkhealth hashline")
  local lost = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
  local advice = lost:match(":lua ([^\n]-attach%(%))")
  check(lost:find("not attached to the current buffer " .. buf, 1, true) and advice, ":checkhealth reports the lost buffer and what to run", lost)
  vim.cmd("tabclose")
  vim.cmd("lua " .. tostring(advice))
  check(wait(2000, function()
    return hl.is_attached(buf)
  end) and hl.client().id == id and #hl.info().attached_buffers >= 4, "its advice attaches the buffer to the same client", hl.info())

  -- 13b. :checkhealth hashline reports OK.
  vim.cmd("checkhealth hashline")
  local report = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  local oks, bad_lines = 0, {}
  for _, l in ipairs(report) do
    -- "- OK ..." up to 0.11, "- ✅ OK ..." in 0.12.
    if l:match("^%s*[-*]?%s*[^%w%s]*%s*OK") then
      oks = oks + 1
    end
    if l:match("ERROR") or l:match("WARN") then
      table.insert(bad_lines, l)
    end
  end
  local joined = table.concat(report, "\n")
  check(oks >= 5 and #bad_lines == 0, ":checkhealth hashline reports OK", report)
  check(joined:find("hashline-ls 0.1.0", 1, true) and joined:find("attached to the current buffer", 1, true) and joined:find(enc .. " on both sides", 1, true),
    ":checkhealth names the version, the attachment and the encoding", report)
  vim.cmd("tabclose")

  -- 14. The rest of the API.
  local g = hl.grep_sync({ pattern = "greet", path = "greet.py" })
  check(g and g.ok and #g.matches >= 2, "grep_sync", g)
  local d = hl.describe_sync()
  check(d and d.ok and #d.tools >= 4 and type(d.guidance) == "string", "describe_sync", d and d.ok)
  local se = hl.session_end_sync({ session = "scratch" })
  check(se and se.ok, "session_end_sync", se)

  -- patch is forwarded as is to hashline.patch. A server without that
  -- command answers with a JSON-RPC error, which comes back as nil, err; one
  -- with it refuses this patch (its anchor hash is wrong) with a result.
  -- Either way the answer is the server's, unchanged, and nothing is written.
  local text_before = T.text(buf)
  local bogus = { patch = "@@ greet.py\n= 1:zz..1:zz\n~x" }
  local p, perr = hl.patch_sync(bogus)
  local function answered(res, e2)
    if res == nil then
      return type(e2) == "table" and tostring(e2.message):find("unknown command", 1, true) ~= nil
    end
    return type(res) == "table" and res.ok == false and type(res.error) == "table" and type(res.error.code) == "string"
  end
  check(answered(p, perr), "patch_sync forwards to hashline.patch and returns the server's answer", { p, perr })
  local pa
  hl.patch(bogus, function(res, e2)
    pa = { res = res, err = e2 }
  end)
  wait(5000, function()
    return pa ~= nil
  end)
  check(pa and answered(pa.res, pa.err), "patch calls back with the server's answer", pa)
  check(T.text(buf) == text_before, "the refused patch wrote nothing", T.text(buf))
  local unknown, uerr = hl.execute_sync("hashline.no-such-command", {})
  check(unknown == nil and type(uerr) == "table" and tostring(uerr.message):find("unknown command", 1, true), "an unknown command is nil, err", { unknown, uerr })

  local c = hl.client()
  vim.lsp.stop_client(c.id)
  check(wait(5000, function()
    return hl.client() == nil
  end), "the server stops", nil)
end)
