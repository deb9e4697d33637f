-- :checkhealth auth_sidecar names the binary it found and its version, and the running sidecar.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h') .. '/helpers.lua')
h.setup()

local function report()
  vim.cmd('checkhealth auth_sidecar')
  local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
  vim.cmd('bwipeout!')
  return text
end

local before = report()
local binary = vim.fn.fnamemodify(vim.env.AUTH_SIDECAR_BIN, ':p')
h.check(before:find('OK: binary: ' .. binary .. ' (auth-sidecar ', 1, true), before)
h.check(before:find('no sidecar started yet', 1, true), before)
h.check(not before:find('ERROR', 1, true), before)

local err = h.call('status', {})
h.check(err == nil, tostring(err))
local after = report()
h.check(after:find('OK: sidecar running, pid ', 1, true), after)
h.pass('health')
