-- Finding the auth-sidecar executable, in the order the Python and Node clients use: the `binary`
-- option, else $AUTH_SIDECAR_BIN, else the binary a release package carries in the plugin's bin/,
-- else `auth-sidecar` on PATH.

local M = {}

local NAME = 'auth-sidecar'

local function is_executable(path)
  return path ~= nil and path ~= '' and vim.fn.isdirectory(path) == 0 and vim.fn.executable(path) == 1
end

--- The plugin's root: this file is <root>/lua/auth_sidecar/binary.lua.
local function plugin_root()
  local source = debug.getinfo(1, 'S').source:gsub('^@', '')
  return vim.fn.fnamemodify(source, ':p:h:h:h')
end

--- Where a release package carries the binary; a source checkout has none there.
function M.bundled()
  return plugin_root() .. '/bin/' .. NAME
end

--- Returns an absolute path, or nil and a message saying what was tried.
--- @param binary string|nil the `binary` option
--- @param env table|nil extra environment for the sidecar (its AUTH_SIDECAR_BIN wins over ours)
function M.find(binary, env)
  if binary ~= nil and binary ~= '' then
    local path = vim.fn.fnamemodify(binary, ':p')
    if is_executable(path) then return path end
    return nil, ('auth-sidecar binary not found: option binary = %q is not an executable file'):format(binary)
  end
  local from_env = (env and env.AUTH_SIDECAR_BIN) or vim.env.AUTH_SIDECAR_BIN
  if from_env ~= nil and from_env ~= '' then
    local path = vim.fn.fnamemodify(from_env, ':p')
    if is_executable(path) then return path end
    return nil, ('auth-sidecar binary not found: AUTH_SIDECAR_BIN = %q is not an executable file'):format(from_env)
  end
  if is_executable(M.bundled()) then return M.bundled() end
  local on_path = vim.fn.exepath(NAME)
  if on_path ~= '' then return on_path end
  return nil, 'auth-sidecar binary not found: set the binary option, set AUTH_SIDECAR_BIN, install a release'
    .. ' package that carries it, or put `auth-sidecar` on PATH'
    .. ' (build it with `swift build -c release --product auth-sidecar`)'
end

return M
