-- Commands of the auth-sidecar plugin; the sidecar itself starts on first use.

if vim.g.loaded_auth_sidecar then return end
vim.g.loaded_auth_sidecar = true

local command = vim.api.nvim_create_user_command
local function commands() return require('auth_sidecar.commands') end

command('AuthLogin', function(args) commands().login(args.args) end,
  { nargs = '?', desc = 'Log in with an account and a password (the password is never echoed)' })
command('AuthLoginFlow', function(args) commands().login_flow(args.args) end, {
  nargs = 1,
  complete = function() return { 'device', 'authorizationCode' } end,
  desc = 'Log in through the browser: device or authorizationCode',
})
command('AuthLogout', function() commands().logout() end, { desc = 'Log out of the profile' })
command('AuthStatus', function() commands().status() end, { desc = "Show the sidecar's profiles and sessions" })

vim.api.nvim_create_autocmd('VimLeavePre', {
  group = vim.api.nvim_create_augroup('auth_sidecar', { clear = true }),
  callback = function()
    if package.loaded['auth_sidecar'] then require('auth_sidecar').stop() end
  end,
})
