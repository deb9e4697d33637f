-- A sidecar killed while a call is in flight: the call's callback gets a sidecar_exited error
-- (it does not wait forever), and so does a later call on that client. The call is held in flight
-- by a loopback server that reads the login request and never answers.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h') .. '/helpers.lua')
local uv = vim.loop

local server, connections, received = uv.new_tcp(), {}, false
server:bind('127.0.0.1', 0)
server:listen(8, function()
  local connection = uv.new_tcp()
  server:accept(connection)
  table.insert(connections, connection)
  connection:read_start(function(_, data) if data then received = true end end)
end)
local port = server:getsockname().port

local config = h.state_dir .. '.config.json'
vim.fn.writefile({ vim.json.encode({ profiles = { default = { provider = 'rest', rest = {
  baseURL = 'http://127.0.0.1:' .. port,
  login = { path = '/login', body = { username = '{username}', password = '{password}' } },
  response = { accessToken = 'access' },
} } } }) }, config)
h.setup({ config = config })

local done, err, result = false, nil, nil
require('auth_sidecar').call('login', { username = 'carol', password = h.PASSWORD }, function(e, r)
  done, err, result = true, e, r
end)
h.wait(function() return received end, 'the login request to reach the server')
h.check(not done, 'the login is still in flight')
local sidecar = require('auth_sidecar').current()
uv.kill(sidecar.pid, 'sigkill')
h.wait(function() return done end, 'the pending callback')
h.check(result == nil and err and err.kind == 'sidecar_exited', vim.inspect(err))
h.check(err.message:find('exited unexpectedly (killed by signal 9)', 1, true), err.message)
h.check(sidecar.state == 'exited', 'the client knows')

local later = false
sidecar:call('status', {}, function(e) later = e end)
h.wait(function() return later end, 'a later call')
h.check(later.kind == 'sidecar_exited', 'a later call: ' .. vim.inspect(later))
h.check(require('auth_sidecar').statusline() == 'auth: sidecar exited', 'the statusline says so')

for _, connection in ipairs(connections) do connection:close() end
server:close()
vim.fn.delete(config)
h.pass('killed')
