-- Which binary the plugin starts: the binary option, else AUTH_SIDECAR_BIN, else the bundled one,
-- else PATH; a named file that is not executable is an error saying which setting named it, and a
-- call then fails with binary_not_found instead of starting anything.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h') .. '/helpers.lua')
local binary = require('auth_sidecar.binary')
local real = vim.fn.fnamemodify(vim.env.AUTH_SIDECAR_BIN, ':p')
local dir = vim.env.AUTH_NVIM_TEST_DIR

h.check(binary.find(nil) == real, 'AUTH_SIDECAR_BIN: ' .. tostring(binary.find(nil)))
local not_executable = dir .. '/not-executable'
vim.fn.writefile({ 'text' }, not_executable)
h.check(binary.find(real, { AUTH_SIDECAR_BIN = not_executable }) == real, 'the option wins over the environment')
local found, problem = binary.find(not_executable)
h.check(found == nil and problem:find('option binary = ', 1, true), tostring(problem))
found, problem = binary.find(nil, { AUTH_SIDECAR_BIN = not_executable })
h.check(found == nil and problem:find('AUTH_SIDECAR_BIN = ', 1, true), tostring(problem))

-- Without both, PATH (the bundled bin/ is absent in a source checkout).
h.check(vim.fn.executable(binary.bundled()) == 0, 'no bundled binary in a checkout')
vim.env.AUTH_SIDECAR_BIN = nil
vim.fn.mkdir(dir .. '/bin', 'p')
vim.loop.fs_symlink(real, dir .. '/bin/auth-sidecar')
local path = vim.env.PATH
vim.env.PATH = dir .. '/bin:' .. path
h.check(binary.find(nil) == dir .. '/bin/auth-sidecar', 'PATH: ' .. tostring(binary.find(nil)))
vim.env.PATH = '/nonexistent'
found, problem = binary.find(nil)
h.check(found == nil and problem:find('put `auth-sidecar` on PATH', 1, true), tostring(problem))
vim.env.PATH = path

require('auth_sidecar').setup({ binary = not_executable })
local err = h.call('status', {})
h.check(err and err.kind == 'binary_not_found', vim.inspect(err))
h.check(require('auth_sidecar').current() == nil, 'nothing was started')
h.pass('binary')
