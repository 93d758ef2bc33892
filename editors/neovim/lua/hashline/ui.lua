-- hashline: the user commands' windows. :HashlineRead shows the numbered read
-- of a file and :HashlineOutline its outline; :HashlineEdit opens a buffer to
-- type ops in and lands them with hashline.edit on :write (or
-- :HashlineApply); :HashlineInfo shows the status.
local H = require("hashline")
local notify = require("hashline.nvim").notify

local U = {}

-- State of each :HashlineEdit buffer, by buffer number.
local edits = {}

local function split_lines(s)
  if type(s) ~= "string" or s == "" then
    return {}
  end
  local lines = vim.split(s, "\n", { plain = true })
  if lines[#lines] == "" then
    table.remove(lines)
  end
  return lines
end

-- The path a command runs on: the argument, else the current file buffer's.
local function target(path)
  if path and path ~= "" then
    return vim.fn.fnamemodify(path, ":p")
  end
  local buf = H.current_file_buffer()
  if not buf then
    notify("the current buffer holds no file: name one, e.g. :HashlineRead src/main.go", vim.log.levels.ERROR)
    return nil
  end
  return vim.api.nvim_buf_get_name(buf)
end

local function relative(path)
  local root = H.root()
  if root and path:sub(1, #root + 1) == root .. "/" then
    return path:sub(#root + 2)
  end
  return path
end

local function find_buffer(name)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_valid(b) and vim.api.nvim_buf_get_name(b) == name then
      return b
    end
  end
  return nil
end

-- Shows buf in a window: the one that shows it already, else a new split.
local function show(buf)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == buf then
      vim.api.nvim_set_current_win(win)
      return win
    end
  end
  vim.cmd("split")
  local win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(win, buf)
  return win
end

-- A scratch buffer of this name: the old one is reused, so a second read of
-- the same file replaces the first.
local function scratch(name, buftype)
  local buf = find_buffer(name)
  if not buf then
    buf = vim.api.nvim_create_buf(false, true)
    vim.api.nvim_buf_set_name(buf, name)
  end
  vim.bo[buf].buftype = buftype
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].swapfile = false
  return buf
end

local function set_lines(buf, lines, modifiable)
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = modifiable
  vim.bo[buf].modified = false
end

-- Reads path with args into the scratch window named hashline://{kind}/,
-- showing the result's text; prepare(buf) sets the window up.
local function show_read(kind, path, args, on_done, prepare)
  path = target(path)
  if not path then
    return
  end
  args.path, args.session = path, H.config.ui_session
  H.read(args, function(res, err)
    local buf = scratch("hashline://" .. kind .. "/" .. relative(path), "nofile")
    set_lines(buf, split_lines(H.render(res, err)), false)
    vim.bo[buf].filetype = "hashline"
    if prepare then
      prepare(buf, path)
    end
    show(buf)
    if on_done then
      on_done(buf, res, err)
    end
  end)
end

--- :HashlineRead [path]: the numbered read in a scratch window.
function U.read(path, on_done)
  show_read("read", path, {}, on_done)
end

-- The declaration line an outline row shows ("12-40 method Server.read
-- 14:func ...", "7 const  7:const X = 1"), or nil for a row that is none.
local function row_line(row)
  local n = row:match("^%s*[%d%-]+ .-  (%d+):")
  return n and tonumber(n) or nil
end

--- :HashlineOutline [path]: one row per declaration, with its lines, in a
--- scratch window; <CR> on a row goes to the declaration in the file.
function U.outline(path, on_done)
  show_read("outline", path, { view = "outline" }, on_done, function(buf, file)
    vim.keymap.set("n", "<CR>", function()
      U.jump(file, row_line(vim.api.nvim_get_current_line()))
    end, { buffer = buf, desc = "hashline: go to this declaration" })
  end)
end

--- Goes to line of the file at path, in a window that shows it or the
--- window before the outline's.
function U.jump(path, line)
  if not line then
    notify("this row names no declaration", vim.log.levels.WARN)
    return
  end
  local file = find_buffer(path)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if file and vim.api.nvim_win_get_buf(win) == file then
      vim.api.nvim_set_current_win(win)
      vim.api.nvim_win_set_cursor(win, { line, 0 })
      return
    end
  end
  vim.cmd("wincmd p")
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  vim.api.nvim_win_set_cursor(0, { line, 0 })
end

local header = "# hashline edit of %s at tag %s: type ops below, then :w or :HashlineApply. Lines starting with # are ignored."

-- Lays out an edit buffer: notes (the last outcome), the header, the ops,
-- then the file as the server showed it, as comments to read line numbers by.
local function render(buf, notes, ops)
  local st = edits[buf]
  local lines = {}
  for _, n in ipairs(notes or {}) do
    table.insert(lines, n == "" and "#" or "# " .. n)
  end
  table.insert(lines, string.format(header, relative(st.path), st.tag or "????"))
  if ops == nil or #ops == 0 then
    ops = { "" }
  end
  for _, l in ipairs(ops) do
    table.insert(lines, l)
  end
  table.insert(lines, "#")
  table.insert(lines, "# The file as read:")
  for _, l in ipairs(split_lines(st.content)) do
    table.insert(lines, "# " .. l)
  end
  set_lines(buf, lines, true)
end

-- The ops typed in an edit buffer: every line not starting with #, without
-- the blank lines around them.
local function ops_of(buf)
  local ops = {}
  for _, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if l:sub(1, 1) ~= "#" then
      table.insert(ops, l)
    end
  end
  while #ops > 0 and vim.trim(ops[1]) == "" do
    table.remove(ops, 1)
  end
  while #ops > 0 and vim.trim(ops[#ops]) == "" do
    table.remove(ops)
  end
  return ops
end

--- :HashlineEdit [path]: reads the file (so the server knows what was shown
--- and which tag is latest) and opens a buffer to type ops in.
function U.edit(path, on_done)
  path = target(path)
  if not path then
    return
  end
  H.read({ path = path, session = H.config.ui_session }, function(res, err)
    if not (res and res.ok) then
      notify(split_lines(H.render(res, err))[1], vim.log.levels.ERROR)
      if on_done then
        on_done(nil, res, err)
      end
      return
    end
    local buf = scratch("hashline://edit/" .. relative(path), "acwrite")
    local fresh = edits[buf] == nil
    edits[buf] = { path = path, tag = res.tag, content = res.content }
    vim.bo[buf].filetype = "hashline"
    render(buf, nil, nil)
    if fresh then
      U._watch(buf)
    end
    local win = show(buf)
    -- The cursor goes to the first ops line.
    local first = 1
    for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
      if l:sub(1, 1) ~= "#" then
        first = i
        break
      end
    end
    vim.api.nvim_win_set_cursor(win, { first, 0 })
    if on_done then
      on_done(buf, res, nil)
    end
  end)
end

-- An edit buffer applies its ops when written, and forgets them when wiped.
function U._watch(buf)
  vim.api.nvim_create_autocmd("BufWriteCmd", {
    buffer = buf,
    callback = function()
      U.apply(buf)
    end,
  })
  vim.api.nvim_create_autocmd("BufWipeout", {
    buffer = buf,
    callback = function()
      edits[buf] = nil
    end,
  })
end

--- :HashlineApply (or :write in the edit buffer): runs hashline.edit with the
--- typed ops against the tag of the latest read, and shows what happened.
function U.apply(buf, on_done)
  local st = edits[buf]
  if not st then
    notify("this is not a :HashlineEdit buffer", vim.log.levels.ERROR)
    return
  end
  local ops = ops_of(buf)
  vim.bo[buf].modified = false
  if #ops == 0 then
    notify("no ops to apply: type them below the header", vim.log.levels.WARN)
    return
  end
  st.pending = true
  H.edit({ path = st.path, tag = st.tag, ops = table.concat(ops, "\n"), session = H.config.ui_session }, function(res, err)
    -- The outcome as the server rendered it, at the top of the buffer.
    local notes = split_lines(H.render(res, err))
    table.insert(notes, "")
    local function finish(keep_ops)
      st.pending = false
      st.last = { result = res, err = err }
      if vim.api.nvim_buf_is_valid(buf) then
        render(buf, notes, keep_ops)
      end
      if on_done then
        on_done(res, err)
      end
    end
    if not (res and res.ok) then
      -- The error carries the live tag and lines: the next :w retries
      -- against them with the ops as typed, once they are fixed.
      local e = res and type(res.error) == "table" and res.error or err or {}
      local details = type(e.details) == "table" and e.details or {}
      if type(details.liveTag) == "string" then
        st.tag = details.liveTag
      end
      if type(details.content) == "string" then
        st.content = details.content
      end
      notify(notes[1], vim.log.levels.ERROR)
      finish(ops)
      return
    end
    if res.removed then
      st.content = ""
      notify("removed " .. tostring(res.path))
      finish(nil)
      return
    end
    notify("edit landed: " .. tostring(res.header))
    -- Read again so the comments show the line numbers of what landed. An
    -- MV moved the file: the result names the new path, as the server
    -- resolves it.
    local moved = false
    for _, l in ipairs(ops) do
      moved = moved or l:match("^MV%s") ~= nil
    end
    if moved and type(res.path) == "string" and res.path ~= "" then
      st.path = res.path
    end
    H.read({ path = st.path, session = H.config.ui_session }, function(r2)
      if r2 and r2.ok then
        st.tag, st.content = r2.tag, r2.content
      else
        st.tag = res.tag
      end
      finish(nil)
    end)
  end)
end

--- The state of a :HashlineEdit buffer: path, tag, content, pending, last
--- ({result, err} of the last apply).
function U.state(buf)
  return edits[buf]
end

--- :HashlineInfo
function U.info()
  local i = H.info()
  local lines = {
    "hashline-ls: " .. i.status .. ((i.setup or i.enabled) and "" or " (setup() was not called)"),
    "  binary:            " .. tostring(i.binary or "not found: " .. tostring(i.cmd and i.cmd[1])) .. (i.binary_version and (" (" .. i.binary_version .. ")") or ""),
    "  client id:         " .. tostring(i.client_id or "-"),
    "  root:              " .. tostring(i.root),
    "  position encoding: " .. tostring(i.position_encoding or "-") .. " (client: " .. tostring(i.client_encoding or "-") .. ")",
    "  server version:    " .. tostring(i.version or "-"),
    "  attached buffers:  " .. tostring(i.attached_buffers and #i.attached_buffers or 0),
    "  mcp endpoint:      " .. tostring(i.endpoint or (i.endpoint_problem and ("not published: " .. i.endpoint_problem)) or "-"),
  }
  vim.api.nvim_echo({ { table.concat(lines, "\n") } }, false, {})
  return lines
end

return U
