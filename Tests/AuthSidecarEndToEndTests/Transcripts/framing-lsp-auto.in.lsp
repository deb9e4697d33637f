
Content-Length: 74

{"jsonrpc":"2.0","id":1,"method":"validate","params":{"username":"alice"}}Content-Length: 75
Content-Type: application/vscode-jsonrpc; charset=utf-8

{"jsonrpc":"2.0","id":2,"method":"validate","params":{"username":"名字"}}content-length: 2

{}X-No-Length: 1

Content-Length: 78

{"jsonrpc":"2.0","id":3,"method":"validate","params":{"email":"x"}}
{"more":1}Content-Length: 97

{"jsonrpc":"2.0","id":4,"method":"validate","params":{"password":"correct horse battery staple"}}