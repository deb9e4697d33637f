-- LSP framing on the sidecar's pipes: `Content-Length: N\r\n\r\n` and N bytes of UTF-8 body.
-- Lua strings are byte strings, so lengths here are byte counts, as the header requires.

local M = {}

local MAX_HEADER_BYTES = 64 * 1024

function M.encode(body)
  return 'Content-Length: ' .. #body .. '\r\n\r\n' .. body
end

--- A decoder: `push(bytes)` calls `on_message(body)` for every complete message, and
--- `on_error(text)` when the framing is broken (the buffered bytes are then dropped).
function M.decoder(on_message, on_error)
  local buffer, body_length = '', nil
  local decoder = {}

  local function fail(text)
    buffer, body_length = '', nil
    on_error(text)
  end

  function decoder.push(bytes)
    buffer = buffer .. bytes
    while true do
      if not body_length then
        local header_end = buffer:find('\r\n\r\n', 1, true)
        if not header_end then
          if #buffer > MAX_HEADER_BYTES then fail('LSP header block longer than 64 KiB') end
          return
        end
        for line in (buffer:sub(1, header_end - 1) .. '\r\n'):gmatch('(.-)\r\n') do
          local name, value = line:match('^%s*([^:]-)%s*:%s*(.-)%s*$')
          if name and name:lower() == 'content-length' and value:match('^%d+$') then body_length = tonumber(value) end
        end
        if not body_length then return fail('LSP header without a valid Content-Length') end
        buffer = buffer:sub(header_end + 4)
      end
      if #buffer < body_length then return end
      local body = buffer:sub(1, body_length)
      buffer, body_length = buffer:sub(body_length + 1), nil
      on_message(body)
    end
  end

  --- Whether the stream ended inside a message.
  function decoder.pending() return body_length ~= nil or buffer ~= '' end

  return decoder
end

return M
