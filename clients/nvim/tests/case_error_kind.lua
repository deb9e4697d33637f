-- Error answers reach callbacks as {kind, code, message, retryable}: a wrong password typed into
-- :AuthLogin is reported as invalid_credentials (and the wrong password is nowhere in Neovim), a
-- call without a session is not_logged_in, and `{}` params (encoded as `[]`) are "no params".
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h') .. '/helpers.lua')
local auth = require('auth_sidecar')
h.setup()

h.check(vim.json.encode({}) == '[]', 'this Neovim encodes an empty table as []')
local err, result = h.call('status', {})
h.check(err == nil and type(result.profiles) == 'table', 'status with {} params: ' .. tostring(err))

err = h.call('getUser', {})
h.check(err and err.kind == 'not_logged_in' and err.code ~= nil and err.retryable == false,
  'getUser without a session: ' .. vim.inspect(err))

err = h.call('register', { username = 'bob', password = h.PASSWORD })
h.check(err == nil, 'register: ' .. tostring(err))
local wrong = 'wrong horse battery staple'
h.type(':AuthLogin bob<CR>' .. wrong .. '<CR>')
h.wait(function() return h.messages():find('invalid_credentials', 1, true) end, 'the failed login to be reported')
h.check(h.messages():find('login failed: ', 1, true), 'the report says what failed')
h.check(auth.statusline() ~= 'auth: bob', 'no session after a failed login')

err = h.call('login', { username = 'bob', password = wrong })
h.check(err and err.kind == 'invalid_credentials' and err.data.kind == 'invalid_credentials', vim.inspect(err))
err = h.call('noSuchMethod', {})
h.check(err and err.kind == 'method_not_found' and err.code == -32601, vim.inspect(err))
err = h.call('status', { 1 })
h.check(err and err.kind == 'invalid_params' and err.code == -32602, 'a non-empty array: ' .. vim.inspect(err))

h.check_nowhere(wrong)
h.pass('error_kind')
