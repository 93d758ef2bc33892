def f
  if x
end
