-- :AuthLogin with the password typed into inputsecret(), the AuthSessionChanged autocommand,
-- the statusline, :AuthStatus and :AuthLogout against the real binary; and the password nowhere
-- in Neovim afterwards.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h') .. '/helpers.lua')
local auth = require('auth_sidecar')
h.setup()

local events = {}
vim.api.nvim_create_autocmd('User', {
  pattern = 'AuthSessionChanged',
  callback = function(args)
    -- Neovim 0.8+ passes the notification as the autocommand's data; 0.7 only in the variable.
    local data = args.data or vim.g.auth_sidecar_session_changed
    table.insert(events, data)
  end,
})

h.check(auth.statusline() == '', 'no statusline before the plugin is used')
local err = h.call('register', { username = 'alice', password = h.PASSWORD })
h.check(err == nil, 'register: ' .. tostring(err))

-- As a user types it: the command, the account at the vim.ui.input() prompt, then the password at
-- the inputsecret() prompt.
h.type(':AuthLogin<CR>alice<CR>' .. h.PASSWORD .. '<CR>')
h.wait(function() return #events >= 1 end, 'the AuthSessionChanged autocommand')
h.check(events[1].state == 'loggedIn' and events[1].profile == 'default', 'loggedIn event: ' .. vim.inspect(events))
h.wait(function() return auth.statusline() == 'auth: alice' end, 'the statusline to name alice')
h.check(h.messages():find('logged in as alice', 1, true), 'the login is reported')

h.type(':AuthStatus<CR>')
h.wait(function() return h.messages():find('default (local): logged in as alice', 1, true) end, ':AuthStatus')

h.type(':AuthLogout<CR>')
h.wait(function() return #events >= 2 end, 'the second AuthSessionChanged')
h.check(events[2].state == 'loggedOut', 'loggedOut event: ' .. vim.inspect(events))
h.wait(function() return auth.statusline() == 'auth: logged out' end, 'the statusline to say logged out')

h.check(vim.fn.histget('cmd', -1) == 'AuthLogout', 'typed commands do reach the history (the check can fail)')
h.check_nowhere(h.PASSWORD)
h.pass('login')
