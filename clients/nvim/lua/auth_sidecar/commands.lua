-- The user commands: :AuthLogin, :AuthLoginFlow, :AuthLogout, :AuthStatus.

local auth = require('auth_sidecar')

local M = {}
local levels = vim.log.levels

local function failed(what, err)
  auth.notify(('%s failed: %s (%s)'):format(what, err.message, err.kind), levels.ERROR)
end

--- Reads the password with inputsecret(): typed characters are shown as `*`, and inputsecret()
--- adds nothing to any history. The prompt line is cleared afterwards; nothing is echoed.
local function ask_password()
  local ok, secret = pcall(vim.fn.inputsecret, 'Password: ')
  vim.api.nvim_echo({ { '' } }, false, {})
  if not ok or secret == '' then return nil end
  return secret
end

local function logged_in(result)
  local user = type(result) == 'table' and result.user or {}
  local name = user.username or user.displayName or user.email or user.id
  auth.set_session('loggedIn', name)
  auth.notify('logged in' .. (name and (' as ' .. name) or ''))
end

--- `:AuthLogin [account]`: the account (asked with vim.ui.input when not given), then the password.
function M.login(account)
  local function with_account(given)
    if given == nil or given == '' then return auth.notify('login cancelled') end
    local params = { account = given, password = ask_password() }
    if params.password == nil then return auth.notify('login cancelled') end
    auth.call('login', params, function(err, result)
      if err then return failed('login', err) end
      logged_in(result)
    end)
    -- The request is written: drop our reference to the password (Lua strings cannot be wiped;
    -- the collector frees it once nothing refers to it).
    params.password = nil
  end
  if account ~= nil and account ~= '' then return with_account(account) end
  vim.ui.input({ prompt = 'Account: ' }, with_account)
end

--- `:AuthLoginFlow device|authorizationCode`: an interactive login; the prompt (code and address)
--- arrives as a `loginPrompt` notification and is shown then.
function M.login_flow(flow)
  auth.call('login', { flow = flow }, function(err, result)
    if err then return failed(flow .. ' login', err) end
    logged_in(result)
  end)
end

function M.logout()
  auth.call('logout', {}, function(err)
    if err then return failed('logout', err) end
    auth.set_session('loggedOut')
    auth.notify('logged out')
  end)
end

--- One line per profile: provider, logged-in state, user, expiry.
function M.describe_status(result)
  local storage = type(result.storage) == 'table' and result.storage or {}
  local lines = { ('auth-sidecar %s, storage: %s'):format(result.version or '?', storage.protection or '?') }
  for _, profile in ipairs(type(result.profiles) == 'table' and result.profiles or {}) do
    local state = profile.loggedIn and ('logged in' .. (profile.username and (' as ' .. profile.username) or ''))
      or 'logged out'
    local expiry = profile.expiresAt and (', until ' .. profile.expiresAt) or ''
    table.insert(lines, ('  %s (%s): %s%s'):format(profile.name, profile.provider, state, expiry))
  end
  return table.concat(lines, '\n')
end

function M.status()
  auth.call('status', {}, function(err, result)
    if err then return failed('status', err) end
    for _, profile in ipairs(result.profiles or {}) do
      if profile.name == auth.profile() then
        auth.set_session(profile.loggedIn and 'loggedIn' or 'loggedOut', profile.username)
      end
    end
    auth.notify(M.describe_status(result))
  end)
end

return M
