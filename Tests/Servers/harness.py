#!/usr/bin/env python3
"""Start and stop the integration-test auth servers (serve.py) from tests.

From Python (pytest):

    from harness import start_server
    with start_server(access_token_seconds=3) as server:
        ... server.url ...          # "http://127.0.0.1:<port>"

From any other language, run a command with a server up and its URL in the environment:

    python Tests/Servers/harness.py run [--access-token-seconds N] -- <command> [args...]

which exports AUTH_TEST_SERVER_URL=http://127.0.0.1:<port> to the command, returns its exit
status and stops the server afterwards. `python Tests/Servers/harness.py smoke` starts a server,
fetches its OIDC discovery document, stops it and prints the timings.

A test process can also simply run `python Tests/Servers/serve.py --exit-with-stdin` itself,
read the `READY <url>` line from its stdout, and send SIGTERM (or close its stdin) when done.
"""
import argparse
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVE = os.path.join(HERE, "serve.py")


class ServerStartError(RuntimeError):
    pass


class Server:
    """A running serve.py process. Use as a context manager or call stop()."""

    def __init__(self, process, url, log_path, startup_seconds):
        self.process = process
        self.url = url
        self.log_path = log_path
        self.startup_seconds = startup_seconds
        self.stop_seconds = None
        host_port = url.split("://", 1)[1]
        self.host, port = host_port.rsplit(":", 1)
        self.port = int(port)

    def log(self):
        """Everything the server wrote to stderr so far."""
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as handle:
                return handle.read()
        except OSError:
            return ""

    @property
    def running(self):
        return self.process.poll() is None

    def stop(self, timeout=10.0):
        """SIGTERM, wait up to `timeout` seconds, then SIGKILL. Returns the exit status."""
        started = time.monotonic()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.stop_seconds is None:
            self.stop_seconds = time.monotonic() - started
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None and not stream.closed:
                stream.close()
        return self.process.returncode

    def remove_log(self):
        try:
            os.unlink(self.log_path)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.stop()
        self.remove_log()
        return False


def start_server(access_token_seconds=300, refresh_token_seconds=None, session_seconds=None,
                 threads=16, quiet=False, migrations=False, timeout=30.0, python=None,
                 extra_env=None):
    """Start serve.py and wait for its READY line; kill it and raise ServerStartError on failure."""
    command = [python or sys.executable, SERVE, "--exit-with-stdin",
               "--access-token-seconds", str(access_token_seconds), "--threads", str(threads)]
    if refresh_token_seconds is not None:
        command += ["--refresh-token-seconds", str(refresh_token_seconds)]
    if session_seconds is not None:
        command += ["--session-seconds", str(session_seconds)]
    if quiet:
        command.append("--quiet")
    if migrations:
        command.append("--migrations")
    env = dict(os.environ)
    env.update(extra_env or {})
    env.setdefault("PYTHONUNBUFFERED", "1")
    log_fd, log_path = tempfile.mkstemp(prefix="authservers-", suffix=".log")
    started = time.monotonic()
    with os.fdopen(log_fd, "wb") as log_file:
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=log_file, env=env, close_fds=True)
    line = b""
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    try:
        deadline = started + timeout
        while not line.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ServerStartError(f"no READY line within {timeout:.0f}s")
            if not selector.select(remaining):
                continue
            chunk = os.read(process.stdout.fileno(), 1)
            if not chunk:
                raise ServerStartError(f"server exited with status {process.wait()} before READY")
            line += chunk
        text = line.decode("utf-8").strip()
        if not text.startswith("READY http://127.0.0.1:"):
            raise ServerStartError(f"unexpected first line {text!r}")
    except BaseException as error:
        if process.poll() is None:
            process.kill()
        process.wait()
        try:
            with open(log_path, encoding="utf-8", errors="replace") as handle:
                log = handle.read()
        except OSError:
            log = ""
        if isinstance(error, ServerStartError):
            raise ServerStartError(f"{error}; server log:\n{log[-4000:]}") from None
        raise
    finally:
        selector.close()
    return Server(process, text.split(" ", 1)[1], log_path, time.monotonic() - started)


def _add_server_options(parser):
    parser.add_argument("--access-token-seconds", type=int, default=300)
    parser.add_argument("--refresh-token-seconds", type=int)
    parser.add_argument("--session-seconds", type=int)
    parser.add_argument("--threads", type=int, default=16)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Run the integration-test auth servers.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run a command with a server up (AUTH_TEST_SERVER_URL)")
    _add_server_options(run)
    run.add_argument("argv", nargs=argparse.REMAINDER, help="-- command [args...]")
    smoke = commands.add_parser("smoke", help="start, probe and stop a server; print timings")
    _add_server_options(smoke)
    args = parser.parse_args(argv)
    options = {"access_token_seconds": args.access_token_seconds, "threads": args.threads,
               "refresh_token_seconds": args.refresh_token_seconds,
               "session_seconds": args.session_seconds}

    if args.command == "smoke":
        import http.client
        import json

        with start_server(**options) as server:
            connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
            connection.request("GET", "/o/.well-known/openid-configuration")
            response = connection.getresponse()
            issuer = json.loads(response.read())["issuer"]
            connection.close()
            print(f"url {server.url} issuer {issuer} started in {server.startup_seconds:.2f}s")
        print(f"stopped in {server.stop_seconds:.2f}s, exit status {server.process.returncode}")
        return 0 if server.process.returncode == 0 else 1

    command = args.argv[1:] if args.argv[:1] == ["--"] else args.argv
    if not command:
        parser.error("run needs a command after --")
    with start_server(**options) as server:
        env = dict(os.environ, AUTH_TEST_SERVER_URL=server.url)
        return subprocess.call(command, env=env)


if __name__ == "__main__":
    sys.exit(main())
