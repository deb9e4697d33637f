-- :checkhealth auth_sidecar — the Neovim version, the binary the plugin would start, and the
-- running sidecar's state.

local M = {}

--- vim.health (0.8+ names, 0.9+ module) or the 0.7 `health` module's report_* functions.
local function reporter()
  local h = vim.health or require('health')
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
    info = h.info or h.report_info,
  }
end

function M.check()
  local report = reporter()
  local auth = require('auth_sidecar')
  report.start('auth-sidecar')
  if vim.fn.has('nvim-0.7') == 1 then
    report.ok('Neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor))
  else
    report.error('Neovim 0.7 or later is required')
  end

  local path, problem = require('auth_sidecar.binary').find(auth.options.binary, auth.options.env)
  if not path then
    report.error(problem)
  else
    local version = vim.fn.system({ path, '--version' })
    if vim.v.shell_error == 0 then
      report.ok(('binary: %s (%s)'):format(path, vim.trim(version)))
    else
      report.error(('binary: %s does not run: exit code %d'):format(path, vim.v.shell_error))
    end
  end

  local sidecar = auth.current()
  if sidecar == nil then
    report.info('no sidecar started yet (it starts on the first command)')
  elseif sidecar.state == 'running' then
    report.ok(('sidecar running, pid %d; statusline: %s'):format(sidecar.pid, auth.statusline()))
  else
    report.warn(sidecar.exit_error and sidecar.exit_error.message or ('sidecar ' .. sidecar.state))
  end
end

return M
