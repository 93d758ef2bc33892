-- hashline.apply: the client's workspace/applyEdit handler. Neovim's own
-- handler applies the edit; around it, this one refuses an edit made
-- against text the buffer no longer holds, keeps it quiet, makes the
-- folders a created or moved file needs, trims the phantom last line of a
-- created file, attaches the buffers the edit loaded, notes the version
-- each buffer was left at (a save asked for later saves only that), and
-- sends the text that landed to the server before the answer.
local config = require("hashline.config")
local nvim = require("hashline.nvim")

local M = {}

-- The version of a buffer as its LSP client counts it: the changedtick of
-- its last change, 0 when nothing changed since the client opened it.
local function version_of(buf)
  return vim.lsp.util.buf_versions[buf]
end
M.version_of = version_of

-- The version each buffer was at when an edit of hashline-ls left it,
-- until the buffer is wiped out.
local left = nvim.per_buffer("hashline.apply")

--- The version the last edit left buf at, or nil when no edit did.
function M.left_at(buf)
  return left[buf]
end

-- The text edits of an edit, each with the buffer that holds its file now
-- (nil when none is loaded).
local function text_documents(params)
  local out = {}
  local changes = type(params.edit) == "table" and params.edit.documentChanges
  for _, ch in ipairs(type(changes) == "table" and changes or {}) do
    if ch.kind == nil and type(ch.textDocument) == "table" and type(ch.textDocument.uri) == "string" then
      local buf = vim.fn.bufnr(vim.uri_to_fname(ch.textDocument.uri))
      if buf <= 0 or not vim.api.nvim_buf_is_loaded(buf) then
        buf = nil
      end
      table.insert(out, { change = ch, buf = buf, edits = #(type(ch.edits) == "table" and ch.edits or {}) })
    end
  end
  return out
end

-- Neovim checks an edit's version only when it is above 0 (its didOpen is
-- version 0), and answers "applied" for an edit it skipped as older than
-- the buffer. So every versioned edit is checked here, before anything is
-- applied: a buffer the person typed in since the server saw it must not
-- take positions counted in older text. An unversioned edit was made
-- against the file on disk, which a buffer with unsaved changes is not.
local function stale(params)
  for _, d in ipairs(text_documents(params)) do
    local want = d.change.textDocument.version
    local name = vim.uri_to_fname(d.change.textDocument.uri)
    if want ~= nil and want ~= vim.NIL then
      local now = d.buf and version_of(d.buf)
      if now ~= want then
        return string.format("%s changed after hashline-ls checked the edit (the edit is for version %s, the buffer is at %s)", name, tostring(want), tostring(now))
      end
    elseif d.buf and vim.bo[d.buf].modified and d.edits > 0 then
      return string.format("%s has unsaved changes in Neovim, and the edit was made against the file on disk", name)
    end
  end
  return nil
end

-- The changedtick of each loaded buffer an edit changes, before it is
-- applied: a buffer whose tick did not move was skipped.
local function ticks(params)
  local out = {}
  for _, d in ipairs(text_documents(params)) do
    if d.buf and d.edits > 0 then
      out[d.buf] = vim.api.nvim_buf_get_changedtick(d.buf)
    end
  end
  return out
end

local function skipped(before)
  for buf, tick in pairs(before) do
    if vim.api.nvim_buf_is_valid(buf) and vim.api.nvim_buf_get_changedtick(buf) == tick then
      return string.format("Neovim did not apply the edit to %s", vim.api.nvim_buf_get_name(buf))
    end
  end
  return nil
end

-- note_left records the version the edit left each of its buffers at.
local function note_left(params)
  for _, d in ipairs(text_documents(params)) do
    if d.buf then
      left[d.buf] = version_of(d.buf)
    end
  end
end

-- Buffers Neovim loads while it applies an edit (a file no window shows, a
-- created file, the target of a move) are attached once the edit is in
-- them, not while they load: their didOpen then carries the text the edit
-- left, so the server sees it at once instead of a half-made buffer (an
-- empty one, for a created file) that a late, debounced didChange corrects.
local loading = nil

--- Whether an edit is being applied; if so, buf is attached once it is in.
function M.defer_attach(buf)
  if loading then
    table.insert(loading, buf)
    return true
  end
  return false
end

--- Whether an edit is being applied now.
function M.applying()
  return loading ~= nil
end

-- Neovim prints an edit's label (0.7 to 0.12) and notifies the change
-- annotations it applied (0.12): up to three lines, and a hit-enter prompt,
-- per edit. The edit goes to Neovim without them.
local function unlabelled(params)
  local p = vim.deepcopy(params)
  p.label = nil
  local edit = type(p.edit) == "table" and p.edit or {}
  edit.changeAnnotations = nil
  local function strip(edits)
    for _, e in ipairs(type(edits) == "table" and edits or {}) do
      e.annotationId = nil
    end
  end
  for _, ch in ipairs(type(edit.documentChanges) == "table" and edit.documentChanges or {}) do
    ch.annotationId = nil
    strip(ch.edits)
  end
  for _, edits in pairs(type(edit.changes) == "table" and edit.changes or {}) do
    strip(edits)
  end
  return p
end

-- Neovim 0.7 creates (and renames to) a file only in a folder that exists.
-- The folders an edit needs are made first, and removed again, deepest
-- first, when the edit fails, so a failed edit leaves the disk as it was.
local function make_folders(params)
  local made = {}
  local changes = type(params.edit) == "table" and params.edit.documentChanges
  for _, ch in ipairs(type(changes) == "table" and changes or {}) do
    local uri = (ch.kind == "create" and ch.uri) or (ch.kind == "rename" and ch.newUri) or nil
    if type(uri) == "string" then
      local missing = {}
      local dir = vim.fn.fnamemodify(vim.uri_to_fname(uri), ":h")
      while vim.fn.isdirectory(dir) == 0 and dir ~= vim.fn.fnamemodify(dir, ":h") do
        table.insert(missing, 1, dir)
        dir = vim.fn.fnamemodify(dir, ":h")
      end
      for _, d in ipairs(missing) do
        if vim.fn.mkdir(d) == 1 then
          table.insert(made, d)
        end
      end
    end
  end
  return made
end

local function remove_folders(made)
  for i = #made, 1, -1 do
    vim.fn.delete(made[i], "d")
  end
end

-- A file an edit creates starts as an empty buffer, and Neovim holds an
-- empty buffer as one empty line: the server's insert of "a\nb\n" at 0:0
-- then leaves "a", "b", "" and writing the buffer adds a blank line the
-- content never had. When a created file's buffer holds exactly the content
-- plus that phantom line, the line goes, before the answer, so the server
-- sees (and :write saves) the content as sent.
local function trim_created(params)
  local changes = type(params.edit) == "table" and params.edit.documentChanges
  local created = {}
  for _, ch in ipairs(type(changes) == "table" and changes or {}) do
    if ch.kind == "create" and type(ch.uri) == "string" then
      created[ch.uri] = true
    elseif ch.kind == nil and type(ch.textDocument) == "table" and created[ch.textDocument.uri] and type(ch.edits) == "table" and #ch.edits == 1 then
      local want = ch.edits[1].newText
      local buf = vim.fn.bufnr(vim.uri_to_fname(ch.textDocument.uri))
      if type(want) == "string" and buf > 0 and vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].eol then
        local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
        if #lines >= 2 and lines[#lines] == "" and table.concat(lines, "\n") == want then
          vim.api.nvim_buf_set_lines(buf, -2, -1, false, {})
        end
      end
    end
  end
end

-- Neovim 0.10 (and others before the fix of neovim#40133) appends an
-- insertion past the last line as lines and keeps the empty piece after its
-- final newline: "x\n" at the end of "a\nb\n" leaves a, b, x and an extra
-- empty line. When a document got one line more than its edits make, and
-- that line is the empty last one, it goes.
local function line_counts(params)
  local counts = {}
  local changes = type(params.edit) == "table" and params.edit.documentChanges
  local created = {}
  for _, ch in ipairs(type(changes) == "table" and changes or {}) do
    if ch.kind == "create" or ch.kind == "rename" then
      created[ch.uri or ch.newUri] = true
    elseif ch.kind == nil and type(ch.textDocument) == "table" and not created[ch.textDocument.uri] then
      local fname = vim.uri_to_fname(ch.textDocument.uri)
      local buf = vim.fn.bufnr(fname)
      local n
      if buf > 0 and vim.api.nvim_buf_is_loaded(buf) then
        n = vim.bo[buf].eol and vim.api.nvim_buf_line_count(buf) or nil
      elseif vim.fn.filereadable(fname) == 1 then
        n = #vim.fn.readfile(fname)
        n = n > 0 and n or nil
      end
      counts[ch.textDocument.uri] = n
    end
  end
  return counts
end

local function fix_end_inserts(params, counts)
  for _, ch in ipairs(params.edit.documentChanges or {}) do
    local before = ch.kind == nil and type(ch.textDocument) == "table" and counts[ch.textDocument.uri]
    if before and type(ch.edits) == "table" then
      local want, past_end = before, false
      for _, e in ipairs(ch.edits) do
        local _, newlines = e.newText:gsub("\n", "")
        want = want + newlines - (e.range["end"].line - e.range.start.line)
        past_end = past_end or e.range.start.line >= before and e.newText:sub(-1) == "\n"
      end
      local buf = vim.fn.bufnr(vim.uri_to_fname(ch.textDocument.uri))
      if past_end and buf > 0 and vim.api.nvim_buf_line_count(buf) == want + 1
        and vim.api.nvim_buf_get_lines(buf, -2, -1, false)[1] == "" then
        vim.api.nvim_buf_set_lines(buf, -2, -1, false, {})
      end
    end
  end
end

-- Neovim holds a buffer's didChange back for its debounce (150 ms) and
-- sends it after the answer, and the server waits for it. Every other
-- notification a client sends first flushes the didChanges it holds (0.7 to
-- 0.12), so one the server ignores ($/ notifications may be ignored) sends
-- the landed text ahead of the answer.
local function flush(client)
  if not client then
    return
  end
  nvim.call(client, "notify", "$/hashline/flush", vim.empty_dict())
end

-- A one-line notice of what landed, when the notify_edits option asks for
-- it: cut to the room the command line has, so it never asks for Enter.
local function notice(params)
  if not config.values.notify_edits or type(params.label) ~= "string" then
    return
  end
  local msg = "hashline: " .. params.label:gsub("\n.*", "")
  local room = math.max(vim.v.echospace or (vim.o.columns - 12), 1)
  if vim.fn.strdisplaywidth(msg) > room then
    msg = vim.fn.strcharpart(msg, 0, room - 1) .. "…"
  end
  vim.api.nvim_echo({ { msg } }, false, {})
end

--- The workspace/applyEdit handler (err, params, ctx, config), as Neovim
--- calls it on every version.
function M.handler(err, params, ctx, cfg)
  local client = require("hashline.client")
  local this = vim.lsp.get_client_by_id(ctx and ctx.client_id or -1)
  if type(params) ~= "table" then
    return vim.lsp.handlers["workspace/applyEdit"](err, params, ctx, cfg)
  end
  local why = stale(params)
  if why then
    -- The server plans again against the text flushed here.
    flush(this)
    return { applied = false, failureReason = why }
  end
  local made_ok, made = pcall(make_folders, params)
  local counts_ok, counts = pcall(line_counts, params)
  made, counts = made_ok and made or {}, counts_ok and counts or {}
  local before = ticks(params)
  loading = {}
  local ok, result = pcall(vim.lsp.handlers["workspace/applyEdit"], err, unlabelled(params), ctx, cfg)
  local loaded = loading
  loading = nil
  if not ok then
    result = { applied = false, failureReason = tostring(result) }
  elseif type(result) == "table" and result.applied then
    local miss = skipped(before)
    if miss then
      result = { applied = false, failureReason = miss }
    end
  end
  if type(result) == "table" and result.applied then
    pcall(trim_created, params)
    pcall(fix_end_inserts, params, counts)
    notice(params)
  else
    remove_folders(made)
  end
  for _, buf in ipairs(loaded) do
    if client.is_file_buffer(buf) then
      client.attach(buf)
    end
  end
  if type(result) == "table" and result.applied then
    note_left(params)
  end
  flush(this)
  return result
end

--- The hashline/flush request: the server asks for the changes Neovim
--- holds back (its debounce) before it plans an edit. They go out ahead of
--- the answer.
function M.flush_handler(_, _, ctx)
  flush(vim.lsp.get_client_by_id(ctx and ctx.client_id or -1))
  return vim.empty_dict()
end

return M
