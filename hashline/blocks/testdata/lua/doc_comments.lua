--- Documents the function.
--- Its second line.
---@param x number
---@return number
local function double(x)
  return x * 2
end

-- A plain comment is no doc comment.
local function plain()
  return 1
end

--- Separated by a blank line.

local function separated()
  return 1
end

--- Above a one-line statement.
local one = 1

---@class Config
---@field name string
local Config = {
  name = "x",
}

----------
--- A banner line is no doc comment; the run starts below it.
function Config.run()
  return 1
end

--- The plain line below breaks the run.
-- plain
--- Only this line documents the function.
function Config.mixed()
  return 2
end

return Config
