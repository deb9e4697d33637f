-- The plugin's state: one sidecar per Neovim (started on first use), the session state of the
-- configured profile for the statusline, and the sidecar's notifications turned into User
-- autocommands (`AuthSessionChanged`, `AuthLoginPrompt`).

local client = require('auth_sidecar.client')

local M = {}

--- Options (`setup()`); every one may be left out.
M.options = {
  binary = nil, -- path of the auth-sidecar executable (else $AUTH_SIDECAR_BIN, the bundled one, PATH)
  profile = nil, -- added to every call that names none; the statusline follows it ("default" when nil)
  locale = nil, -- "en" or "zh-Hans", added to every call that names none
  state_dir = nil, -- --state-dir
  config = nil, -- --config (a file)
  log_level = nil, -- --log-level
  args = {}, -- more arguments for the sidecar
  env = nil, -- more environment for the sidecar
  test = false, -- AUTH_SIDECAR_TEST_MODE=1 (tests and demos only)
}

local current = nil
--- The configured profile's session as last seen: state is nil (unknown), "loggedIn", "refreshed",
--- "loggedOut" or "expired".
M.session = { state = nil, username = nil }

function M.setup(options)
  M.options = vim.tbl_extend('force', M.options, options or {})
end

function M.profile()
  return M.options.profile or 'default'
end

function M.notify(text, level)
  vim.notify('auth-sidecar: ' .. text, level or vim.log.levels.INFO)
end

local function fire(pattern, variable, data)
  vim.g[variable] = data -- Neovim 0.7 has no autocommand data: handlers read this instead
  if vim.fn.exists('#User#' .. pattern) == 0 then return end
  local options = { pattern = pattern, modeline = false }
  if vim.fn.has('nvim-0.8') == 1 then options.data = data end
  vim.api.nvim_exec_autocmds('User', options)
end

--- Records a session state of the configured profile and redraws the statuslines.
function M.set_session(state, username)
  M.session.state = state
  if username ~= nil or state == 'loggedOut' or state == 'expired' then M.session.username = username end
  vim.cmd('redrawstatus!')
end

--- What a `loginPrompt` asks of the user, in one line.
function M.describe_prompt(prompt)
  if prompt.userCode then
    local uri = prompt.verificationUriComplete or prompt.verificationUri or '?'
    return ('to sign in, open %s and enter the code %s (until %s)'):format(uri, prompt.userCode,
      prompt.expiresAt or '?')
  end
  return ('to sign in, open %s (until %s)'):format(prompt.authorizationUrl or '?', prompt.expiresAt or '?')
end

local function on_notification(method, params)
  if method == 'sessionChanged' and type(params) == 'table' then
    if params.profile == M.profile() then M.set_session(params.state) end
    fire('AuthSessionChanged', 'auth_sidecar_session_changed', params)
  elseif method == 'loginPrompt' and type(params) == 'table' then
    M.notify(M.describe_prompt(params), vim.log.levels.WARN)
    fire('AuthLoginPrompt', 'auth_sidecar_login_prompt', params)
  elseif method == '$/protocolError' then
    M.notify(params.message, vim.log.levels.WARN)
  end
end

local function on_exit()
  vim.cmd('redrawstatus!')
end

--- The running sidecar, started on first use (and again after it exited). Returns nil and an error
--- when it cannot be started.
function M.client()
  if current and current.state == 'running' then return current end
  local o = M.options
  local started, err = client.start({
    binary = o.binary, state_dir = o.state_dir, config = o.config, log_level = o.log_level, args = o.args,
    env = o.env, test = o.test, on_notification = on_notification, on_exit = on_exit,
  })
  if started then current = started end
  return started, err
end

--- The sidecar of this Neovim if one was started (running or not).
function M.current()
  return current
end

--- Calls `method`; `callback(err, result)`. Adds the `profile` and `locale` options to params that
--- name none. `{}` (or nil) is fine for "no params".
function M.call(method, params, callback)
  local o = M.options
  if (o.profile or o.locale) and (params == nil or (type(params) == 'table' and params[1] == nil)) then
    local with_defaults = {}
    for k, v in pairs(params or {}) do with_defaults[k] = v end
    if with_defaults.profile == nil then with_defaults.profile = o.profile end
    if with_defaults.locale == nil then with_defaults.locale = o.locale end
    params = with_defaults
  end
  local sidecar, err = M.client()
  if not sidecar then
    vim.schedule(function() callback(err, nil) end)
    return nil
  end
  return sidecar:call(method, params, callback)
end

--- Closes the sidecar (it answers what is in flight, then exits).
function M.stop()
  if current then current:close() end
end

--- For 'statusline': "auth: alice", "auth: logged out", "auth: expired", "auth: sidecar exited",
--- or "" until the plugin has been used.
function M.statusline()
  if current == nil then return '' end
  if current.state == 'exited' and M.session.state == nil then return 'auth: sidecar exited' end
  local state = M.session.state
  if state == 'loggedIn' or state == 'refreshed' then return 'auth: ' .. (M.session.username or 'logged in') end
  if state == 'loggedOut' then return 'auth: logged out' end
  if state == 'expired' then return 'auth: expired' end
  return 'auth: …'
end

return M
