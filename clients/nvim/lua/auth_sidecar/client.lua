-- One auth-sidecar process: spawned with LSP framing through Neovim's job API, JSON-RPC calls
-- multiplexed by id (each with its callback), notifications handed to `on_notification`, and a
-- sidecar that exits failing every pending callback instead of leaving it waiting forever.

local binary = require('auth_sidecar.binary')
local framing = require('auth_sidecar.framing')

local M = {}
local Client = {}
Client.__index = Client

local STDERR_LINES_KEPT = 50
local ERROR_MT = { __tostring = function(e) return e.message end }

--- An error passed to callbacks: `kind` (the sidecar's `error.data.kind`, or `sidecar_exited`,
--- `client_state`, `protocol_error` from this client), `message`, `code`, `retryable`, `data`.
local function make_error(kind, message, extra)
  local e = { kind = kind, message = message, retryable = false }
  for k, v in pairs(extra or {}) do e[k] = v end
  return setmetatable(e, ERROR_MT)
end
M.make_error = make_error

local function from_response(error_object)
  local data = type(error_object.data) == 'table' and error_object.data or {}
  return make_error(data.kind or 'internal', error_object.message or 'auth-sidecar error', {
    code = error_object.code,
    retryable = data.retryable == true,
    data = data,
  })
end

--- A callback that throws must not break the read loop: its error is raised on its own tick.
local function run_safely(fn, ...)
  local ok, problem = pcall(fn, ...)
  if not ok then vim.schedule(function() error(problem, 0) end) end
end

local function describe_exit(code)
  if code > 128 then return ('killed by signal %d'):format(code - 128) end
  return ('exit code %d'):format(code)
end

--- Spawns the sidecar. Returns the client, or nil and an error.
--- options: binary, state_dir, config (a file), log_level, args (list), env (table), test (bool:
--- AUTH_SIDECAR_TEST_MODE=1), on_notification(method, params), on_exit(code).
function M.start(options)
  options = options or {}
  local path, problem = binary.find(options.binary, options.env)
  if not path then return nil, make_error('binary_not_found', problem) end
  local argv = { path, '--framing', 'lsp' }
  if options.state_dir then vim.list_extend(argv, { '--state-dir', options.state_dir }) end
  if options.config then vim.list_extend(argv, { '--config', options.config }) end
  if options.log_level then vim.list_extend(argv, { '--log-level', options.log_level }) end
  vim.list_extend(argv, options.args or {})
  local env = vim.deepcopy(options.env or {})
  if options.test then env.AUTH_SIDECAR_TEST_MODE = '1' end

  local self = setmetatable({
    binary = path, state = 'running', pending = {}, next_id = 1, stderr_tail = {},
    on_notification = options.on_notification, on_exit = options.on_exit,
  }, Client)
  self.decoder = framing.decoder(function(body) self:_receive(body) end, function(text)
    self:_protocol_error(text)
  end)
  local job_options = {
    on_stdout = function(_, data) self.decoder.push(table.concat(data, '\n')) end,
    on_stderr = function(_, data) self:_keep_stderr(data) end,
    on_exit = function(_, code) self:_exited(code) end,
  }
  if next(env) then job_options.env = env end
  local ok, job = pcall(vim.fn.jobstart, argv, job_options)
  if not ok or job <= 0 then
    local why = not ok and tostring(job) or ('jobstart answered %d for %s'):format(job, path)
    return nil, make_error('sidecar_exited', 'auth-sidecar could not be started: ' .. why)
  end
  self.job = job
  self.pid = vim.fn.jobpid(job)
  return self
end

--- Sends a request; `callback(err, result)` runs once, with exactly one of them non-nil.
--- `params` is encoded as given: an empty table becomes `[]`, which the sidecar takes as no params.
function Client:call(method, params, callback)
  assert(type(method) == 'string', 'auth_sidecar: method must be a string')
  assert(type(callback) == 'function', 'auth_sidecar: callback must be a function')
  if self.state ~= 'running' then
    local err = self.exit_error or make_error('client_state', 'auth-sidecar is closing: no new requests')
    vim.schedule(function() callback(err, nil) end)
    return nil
  end
  local id = self.next_id
  self.next_id = id + 1
  local message = { jsonrpc = '2.0', id = id, method = method, params = params }
  local ok, body = pcall(vim.json.encode, message)
  message = nil
  if not ok then
    vim.schedule(function() callback(make_error('invalid_params', 'params cannot be encoded as JSON'), nil) end)
    return nil
  end
  self.pending[id] = { method = method, callback = callback }
  -- A pipe that is already closed fails here; the exit that follows fails the callback.
  pcall(vim.fn.chansend, self.job, framing.encode(body))
  -- The request may carry a password: keep no copy of it past the write.
  body = nil
  return id
end

--- Sends a notification (no answer), e.g. `$/cancelRequest`.
function Client:notify(method, params)
  if self.state ~= 'running' then return false end
  local frame = framing.encode(vim.json.encode({ jsonrpc = '2.0', method = method, params = params }))
  return (pcall(vim.fn.chansend, self.job, frame))
end

--- Closes the sidecar's stdin: it answers what is in flight, then exits 0.
function Client:close()
  if self.state ~= 'running' then return end
  self.state = 'closing'
  pcall(vim.fn.chanclose, self.job, 'stdin')
end

function Client:_receive(body)
  local ok, message = pcall(vim.json.decode, body)
  if not ok or type(message) ~= 'table' then
    return self:_protocol_error(('auth-sidecar wrote a message that is not a JSON object (%d bytes)'):format(#body))
  end
  if message[1] ~= nil then -- a batch
    for _, each in ipairs(message) do self:_dispatch(each) end
  else
    self:_dispatch(message)
  end
end

function Client:_dispatch(message)
  if type(message.method) == 'string' then
    local params = message.params ~= vim.NIL and message.params or nil
    if self.on_notification then run_safely(self.on_notification, message.method, params) end
    return
  end
  local entry = type(message.id) == 'number' and self.pending[message.id] or nil
  if not entry then return self:_protocol_error('auth-sidecar answered an id that is not pending') end
  self.pending[message.id] = nil
  if message.error ~= nil and message.error ~= vim.NIL then
    run_safely(entry.callback, from_response(message.error), nil)
  else
    run_safely(entry.callback, nil, message.result)
  end
end

function Client:_protocol_error(text)
  if self.on_notification then run_safely(self.on_notification, '$/protocolError', { message = text }) end
end

function Client:_keep_stderr(data)
  data[1] = (self.stderr_partial or '') .. data[1]
  self.stderr_partial = table.remove(data)
  for _, line in ipairs(data) do
    line = line:gsub('\r$', '')
    if line ~= '' then
      table.insert(self.stderr_tail, line)
      if #self.stderr_tail > STDERR_LINES_KEPT then table.remove(self.stderr_tail, 1) end
    end
  end
end

--- The process is gone: every pending callback gets a `sidecar_exited` error, and so does every later call.
function Client:_exited(code)
  if self.stderr_partial and self.stderr_partial ~= '' then self:_keep_stderr({ '', '' }) end
  local why = self.state == 'closing' and 'auth-sidecar was closed' or 'auth-sidecar exited unexpectedly'
  local tail = { unpack(self.stderr_tail, math.max(1, #self.stderr_tail - 4)) }
  local message = ('%s (%s)'):format(why, describe_exit(code))
  if #tail > 0 then message = message .. '; last stderr:\n  ' .. table.concat(tail, '\n  ') end
  self.state = 'exited'
  self.exit_code = code
  self.exit_error = make_error('sidecar_exited', message, { exit_code = code, stderr = vim.deepcopy(self.stderr_tail) })
  local pending = self.pending
  self.pending = {}
  local ids = vim.tbl_keys(pending)
  table.sort(ids)
  for _, id in ipairs(ids) do run_safely(pending[id].callback, self.exit_error, nil) end
  if self.on_exit then run_safely(self.on_exit, code) end
end

return M
