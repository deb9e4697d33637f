-- Shared by the headless test cases (run by test_nvim.py, one Neovim per case). A case calls
-- `h.check` for every expectation and ends with `h.pass()`, which prints the line the runner looks
-- for; an expectation that fails exits Neovim with status 1 at once, naming it.

local h = {}

local plugin_root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h:h')
vim.opt.runtimepath:prepend(plugin_root)
vim.cmd('runtime plugin/auth_sidecar.lua')

h.PASSWORD = 'correct horse battery staple'
h.state_dir = assert(vim.env.AUTH_NVIM_TEST_DIR, 'AUTH_NVIM_TEST_DIR is not set') .. '/state'

--- The plugin set up for the real binary ($AUTH_SIDECAR_BIN) in test mode with a fast KDF.
function h.setup(extra)
  require('auth_sidecar').setup(vim.tbl_extend('force', {
    state_dir = h.state_dir, test = true, args = { '--test-kdf-iterations', '1000' },
  }, extra or {}))
end

function h.fail(what)
  io.stderr:write('FAIL: ' .. what .. '\n')
  io.stderr:write('messages:\n' .. vim.fn.execute('messages') .. '\n')
  vim.cmd('cquit 1')
end

function h.check(condition, what)
  if not condition then h.fail(what) end
end

--- Waits for `condition()` while Neovim runs its event loop; the bound only stops a hang.
function h.wait(condition, what)
  if not vim.wait(60000, condition, 10) then h.fail('gave up waiting for ' .. what) end
end

--- Calls through the plugin and waits for the answer: returns err, result.
function h.call(method, params)
  local done, err, result = false, nil, nil
  require('auth_sidecar').call(method, params, function(e, r) done, err, result = true, e, r end)
  h.wait(function() return done end, 'the answer to ' .. method)
  return err, result
end

--- Types `keys` as a user would (feedkeys with "t": as typed, so they count for histories), and
--- runs them to the end.
function h.type(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), 'tx', false)
end

function h.messages()
  return vim.fn.execute('messages')
end

--- Where `secret` is in Neovim: a history, a register, the message history or a global variable
--- (a description), or nil.
function h.find_anywhere(secret)
  for _, kind in ipairs({ 'cmd', 'search', 'expr', 'input', 'debug' }) do
    for i = 1, math.max(vim.fn.histnr(kind), 0) do
      if vim.fn.histget(kind, i):find(secret, 1, true) then return ('the %s history'):format(kind) end
    end
  end
  -- The clipboard registers only when a clipboard provider exists (reading them otherwise
  -- prints a warning, and there is nothing to find).
  local registers = '"0123456789abcdefghijklmnopqrstuvwxyz-.:%#/=' .. (vim.fn.has('clipboard') == 1 and '*+' or '')
  for i = 1, #registers do
    local name = registers:sub(i, i)
    local ok, value = pcall(vim.fn.getreg, name)
    if ok and type(value) == 'string' and value:find(secret, 1, true) then return 'register ' .. name end
  end
  if h.messages():find(secret, 1, true) then return 'the message history' end
  if vim.fn.eval('string(g:)'):find(secret, 1, true) then return 'a global variable' end
  return nil
end

function h.check_nowhere(secret)
  local place = h.find_anywhere(secret)
  h.check(place == nil, 'the secret is in ' .. tostring(place))
end

function h.pass(name)
  require('auth_sidecar').stop()
  local sidecar = require('auth_sidecar').current()
  if sidecar then h.wait(function() return sidecar.state == 'exited' end, 'the sidecar to exit') end
  io.stdout:write('PASS ' .. name .. '\n')
  vim.cmd('qa!')
end

return h
