#!/usr/bin/env python3
"""A fake auth server for the AuthHTTP tests: standard library only, loopback only.

Usage: http_server.py HOST [CERT KEY]
Prints "PORT <n>" once listening, serves until stdin reaches EOF (so it never outlives the
test process that spawned it), then exits.

Every request is counted per `key` query parameter, and all of them under "*". GET /count?of=K
reads a count back; GET /sent?of=K reads how many body bytes /big?key=K wrote before the client
went away (-1 while it is still writing). Neither read-back request counts itself.
"""

import base64
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOCK = threading.Lock()
COUNTS = {}
SENT = {}


def bump(key):
    with LOCK:
        COUNTS[key] = COUNTS.get(key, 0) + 1
        return COUNTS[key]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY: headers and body go out in two writes, and with Nagle on, the body waits for the client's
    # delayed ACK of the headers, 40 ms per request on a kept-alive connection.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.route()

    def do_POST(self):
        self.route()

    def do_PUT(self):
        self.route()

    def do_DELETE(self):
        self.route()

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def json(self, status, value, headers=()):
        self.reply(status, json.dumps(value).encode(), [("Content-Type", "application/json")] + list(headers))

    def route(self):
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        key = query.get("key", "")
        # The read-back endpoints do not count themselves.
        if url.path not in ("/count", "/sent"):
            bump("*")
        attempt = bump(key) if key else 0
        handler = getattr(self, "route_" + url.path.strip("/").replace("-", "_"), None)
        if handler is None:
            self.json(404, {"error": "not_found"})
        else:
            handler(query, body, attempt)

    def route_json(self, query, body, attempt):
        self.json(200, {"ok": True})

    def route_echo(self, query, body, attempt):
        self.json(200, {
            "method": self.command,
            "path": self.path,
            "headers": [[name, value] for name, value in self.headers.items()],
            "body": base64.b64encode(body).decode(),
        })

    def route_count(self, query, body, attempt):
        with LOCK:
            self.json(200, {"count": COUNTS.get(query.get("of", ""), 0)})

    def route_sent(self, query, body, attempt):
        with LOCK:
            self.json(200, {"sent": SENT.get(query.get("of", ""), -1)})

    def route_status(self, query, body, attempt):
        self.json(int(query["code"]), {"attempt": attempt})

    def route_flaky(self, query, body, attempt):
        # `failures` answers of `code` (default 503), then 200.
        if attempt <= int(query.get("failures", "2")):
            self.json(int(query.get("code", "503")), {"attempt": attempt})
        else:
            self.json(200, {"attempt": attempt})

    def route_retry_after(self, query, body, attempt):
        if attempt == 1:
            self.json(429, {"attempt": attempt}, [("Retry-After", query.get("after", "1"))])
        else:
            self.json(200, {"attempt": attempt})

    def route_stall(self, query, body, attempt):
        time.sleep(float(query.get("seconds", "5")))
        self.json(200, {"late": True})

    def route_big(self, query, body, attempt):
        # Streams `bytes` bytes, chunked (no Content-Length) unless `declared` is set, and records
        # how many were written before the client hung up. `pace` sleeps that many milliseconds
        # between 64 KiB writes: a fast WAN rather than loopback at memory speed.
        total = int(query["bytes"])
        declared = query.get("declared") == "1"
        pace = float(query.get("pace", "0")) / 1000
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if declared:
            self.send_header("Content-Length", str(total))
        else:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunk = b"x" * 65536
        sent = 0
        try:
            while sent < total:
                part = chunk[: min(len(chunk), total - sent)]
                if declared:
                    self.wfile.write(part)
                else:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
                self.wfile.flush()
                sent += len(part)
                if pace:
                    time.sleep(pace)
            if not declared:
                self.wfile.write(b"0\r\n\r\n")
        except OSError:  # the client hung up (reset, broken pipe, TLS close)
            self.close_connection = True
        finally:
            with LOCK:
                SENT[query.get("key", "")] = sent

    def route_redirect(self, query, body, attempt):
        filler = b"x" * int(query["size"]) if "size" in query else b"moved"
        self.reply(int(query.get("code", "302")), filler, [("Location", query["to"])])

    def route_set_cookies(self, query, body, attempt):
        self.reply(200, b"", [
            ("Set-Cookie", "sid=abc123; Path=/; HttpOnly"),
            ("Set-Cookie", "pref=dark; Path=/account; Expires=Wed, 21 Oct 2037 07:28:00 GMT"),
            ("Set-Cookie", "short=1; Max-Age=60"),
            ("Set-Cookie", "locked=1; Secure; Path=/"),
        ])

    def route_unauthorized(self, query, body, attempt):
        self.json(401, {"error": "invalid_token"}, [("WWW-Authenticate", query.get("challenge", "Bearer"))])


def main():
    host = sys.argv[1]
    server = ThreadingHTTPServer((host, 0), Handler)
    server.daemon_threads = True
    if len(sys.argv) == 4:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    sys.stdin.read()
    # At once: shutdown() would wait out serve_forever's 0.5 s poll, and handlers may be mid-stall.
    os._exit(0)


if __name__ == "__main__":
    main()
