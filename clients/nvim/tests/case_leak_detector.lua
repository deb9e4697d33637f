-- The check the password cases rely on finds a secret in each place it looks: an input history
-- entry, a register, a message and a global variable. Without this, "the password is nowhere"
-- could pass because the search never looks.
local h = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h') .. '/helpers.lua')

h.check(h.find_anywhere('probe-secret-0') == nil, 'nothing planted yet')
vim.fn.histadd('input', 'probe-secret-1')
h.check(h.find_anywhere('probe-secret-1') == 'the input history', 'input history')
vim.fn.setreg('q', 'probe-secret-2')
h.check(h.find_anywhere('probe-secret-2') == 'register q', 'register')
vim.api.nvim_echo({ { 'probe-secret-3' } }, true, {})
h.check(h.find_anywhere('probe-secret-3') == 'the message history', 'messages')
vim.g.some_plugin_state = { nested = 'probe-secret-4' }
h.check(h.find_anywhere('probe-secret-4') == 'a global variable', 'globals')
-- What plain input() would do with a typed password (inputsecret() does not).
h.type(':let g:typed = input("Password: ")<CR>probe-secret-5<CR>')
vim.g.typed = nil
h.check(h.find_anywhere('probe-secret-5') == 'the input history', 'input() keeps what was typed')
h.pass('leak_detector')
