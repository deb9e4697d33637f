Content-Length: 113

{"jsonrpc":"2.0","id":1,"result":{"valid":true,"fields":{"username":{"valid":true,"value":"alice","errors":[]}}}}Content-Length: 314

{"jsonrpc":"2.0","id":2,"result":{"valid":false,"fields":{"username":{"valid":false,"value":"名字","errors":[{"code":"too_short","message":"Username must be at least 3 characters."},{"code":"invalid_characters","message":"Username can only contain English letters, digits, underscores (_) and hyphens (-)."}]}}}}Content-Length: 161

{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: \"jsonrpc\" must be \"2.0\".","data":{"kind":"invalid_request","retryable":false}}}Content-Length: 175

{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid request: LSP header without a valid Content-Length.","data":{"kind":"invalid_request","retryable":false}}}Content-Length: 162

{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: unexpected data after the JSON value.","data":{"kind":"parse_error","retryable":false}}}Content-Length: 97

{"jsonrpc":"2.0","id":4,"result":{"valid":true,"fields":{"password":{"valid":true,"errors":[]}}}}