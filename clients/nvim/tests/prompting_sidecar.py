#!/usr/bin/env python3
"""A scripted sidecar for the device-flow prompt case: it speaks the real wire format (LSP framing,
the loginPrompt and sessionChanged shapes of schema/openrpc.json) but starts no auth server. An
interactive login against a real server is covered by the Swift end-to-end tests; this one checks
what the plugin shows."""

import json
import sys

stdin, stdout = sys.stdin.buffer, sys.stdout.buffer


def read_message():
    length = None
    while True:
        line = stdin.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    return json.loads(stdin.read(length))


def write(message):
    body = json.dumps(message).encode()
    stdout.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stdout.flush()


while (request := read_message()) is not None:
    if request.get("method") != "login" or "id" not in request:
        write({"jsonrpc": "2.0", "id": request.get("id"),
               "error": {"code": -32601, "message": "Method not found.", "data": {"kind": "method_not_found"}}})
        continue
    flow = request["params"]["flow"]
    prompt = {"profile": "default", "id": request["id"], "flow": flow, "expiresAt": "2027-01-01T00:05:00Z"}
    if flow == "device":
        prompt.update(userCode="WDJB-MJHT", verificationUri="https://id.example.com/device")
    else:
        prompt.update(authorizationUrl="https://id.example.com/authorize?state=s",
                      redirectUri="http://127.0.0.1:49407/callback")
    write({"jsonrpc": "2.0", "method": "loginPrompt", "params": prompt})
    write({"jsonrpc": "2.0", "method": "sessionChanged", "params": {"profile": "default", "state": "loggedIn"}})
    write({"jsonrpc": "2.0", "id": request["id"], "result": {
        "user": {"id": "1", "username": "dora"},
        "session": {"accessToken": "at", "tokenType": "Bearer", "expiresAt": "2027-01-01T01:00:00Z"}}})
