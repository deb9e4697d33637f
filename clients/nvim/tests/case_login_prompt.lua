-- :AuthLoginFlow device: the loginPrompt notification is shown with the user code and the address
-- and fires User AuthLoginPrompt, before the login's answer updates the statusline; an
-- authorizationCode login's prompt is shown with the address to open. Against a
-- scripted sidecar (prompting_sidecar.py), as no device-authorization server runs here.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:gsub('^@', ''), ':p:h')
local h = dofile(here .. '/helpers.lua')
local auth = require('auth_sidecar')
auth.setup({ binary = here .. '/prompting_sidecar.py' })

local prompts = {}
vim.api.nvim_create_autocmd('User', {
  pattern = 'AuthLoginPrompt',
  callback = function(args) table.insert(prompts, args.data or vim.g.auth_sidecar_login_prompt) end,
})

h.type(':AuthLoginFlow device<CR>')
h.wait(function() return auth.statusline() == 'auth: dora' end, 'the device login to complete')
h.check(#prompts == 1 and prompts[1].userCode == 'WDJB-MJHT', 'AuthLoginPrompt: ' .. vim.inspect(prompts))
local shown = h.messages()
h.check(shown:find('open https://id.example.com/device and enter the code WDJB-MJHT', 1, true), shown)
h.check(shown:find('WDJB-MJHT', 1, true) < shown:find('logged in as dora', 1, true), 'the prompt comes first')

h.type(':AuthLoginFlow authorizationCode<CR>')
h.wait(function() return #prompts == 2 end, 'the authorization-code prompt')
h.check(h.messages():find('open https://id.example.com/authorize?state=s (until ', 1, true), h.messages())
h.pass('login_prompt')
