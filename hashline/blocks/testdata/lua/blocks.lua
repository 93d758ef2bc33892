-- A module.
local M = {}

---@param x number
---@return number
function M.double(x)
  return x * 2
end

local function one() return 1 end

local config = {
  name = "x",
  list = {
    1,
    2,
  },
}

for i = 1, 3 do
  print(i)
end

if M then
  print("m")
else
  print("no")
end

return M
