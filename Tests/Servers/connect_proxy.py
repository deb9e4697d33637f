#!/usr/bin/env python3
"""A CONNECT proxy for the AuthHTTP tests: standard library only, loopback only.

Usage: connect_proxy.py LOG
Prints "PORT <n>" once listening on 127.0.0.1, serves until stdin reaches EOF, then exits.

Every request line it receives is appended to LOG, one per line, before anything else happens: that file is
what the tests read to know what went through the proxy. A CONNECT to any host is tunnelled to 127.0.0.1 on
the requested port (the tests name hosts that resolve nowhere, and nothing may leave loopback); any other
request (a plain-http proxy request) is answered 502 and never forwarded.
"""

import os
import socket
import sys
import threading

LOG_LOCK = threading.Lock()


def record(path, line):
    with LOG_LOCK, open(path, "a", encoding="latin-1") as log:
        log.write(line + "\n")


def pipe(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (source, target):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def handle(client, log_path):
    try:
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(4096)
            if not chunk:
                return
            head += chunk
        request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        record(log_path, request_line)
        parts = request_line.split(" ")
        if len(parts) != 3 or parts[0] != "CONNECT":
            client.sendall(b"HTTP/1.1 502 Not Forwarded\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        port = int(parts[1].rsplit(":", 1)[1])
        upstream = socket.create_connection(("127.0.0.1", port))
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        rest = head.split(b"\r\n\r\n", 1)[1]
        if rest:
            upstream.sendall(rest)
        threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()
        pipe(client, upstream)
    except OSError:
        pass
    finally:
        client.close()


def main():
    log_path = sys.argv[1]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)

    def serve():
        while True:
            client, _ = listener.accept()
            threading.Thread(target=handle, args=(client, log_path), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    print("PORT %d" % listener.getsockname()[1], flush=True)
    sys.stdin.read()
    os._exit(0)


if __name__ == "__main__":
    main()
