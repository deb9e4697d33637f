#!/usr/bin/env python3
"""Start the integration-test auth servers on 127.0.0.1 with a free port.

    python Tests/Servers/serve.py [--access-token-seconds N] [--refresh-token-seconds N]
                                  [--session-seconds N] [--threads N] [--port N]
                                  [--log-file PATH] [--quiet] [--migrations]
                                  [--exit-with-stdin]

Creates a temp dir (SQLite DB, OIDC signing key), migrates, seeds the users and clients, binds
127.0.0.1 (port 0 = any free port), then prints exactly one line on stdout:

    READY http://127.0.0.1:<port>

and serves with waitress until SIGTERM/SIGINT (or, with --exit-with-stdin, until stdin reaches
EOF, so the server dies with the test process that holds the pipe). Logs go to stderr (or
--log-file): one line per request unless --quiet. Drain stderr or pass --log-file: a full pipe
blocks the server. On exit the temp dir is removed and the exit status is 0.
"""
import argparse
import os
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--access-token-seconds", type=int, default=300,
                        help="access-token lifetime of SimpleJWT, /auth/* and OAuth2 (default 300)")
    parser.add_argument("--refresh-token-seconds", type=int, default=86400,
                        help="refresh-token lifetime (default 86400)")
    parser.add_argument("--session-seconds", type=int, default=1209600,
                        help="form-login session lifetime (default 1209600)")
    parser.add_argument("--threads", type=int, default=16, help="waitress worker threads (default 16)")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default 0: any free port)")
    parser.add_argument("--migrations", action="store_true",
                        help="run every app's migrations instead of creating the tables from "
                             "the models (slower; same schema; also AUTHSERVERS_MIGRATIONS=1)")
    parser.add_argument("--log-file", help="append the log here instead of writing it to stderr "
                        "(for callers that don't drain stderr)")
    parser.add_argument("--quiet", action="store_true", help="no per-request access log lines")
    parser.add_argument("--exit-with-stdin", action="store_true",
                        help="stop when stdin reaches EOF (the parent closed its end or died)")
    args = parser.parse_args(argv)
    if args.access_token_seconds < 1 or args.refresh_token_seconds < 1 or args.session_seconds < 1:
        parser.error("lifetimes must be at least 1 second")
    if args.threads < 8:
        parser.error("--threads must be at least 8")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    started = time.monotonic()
    if args.log_file:
        log = open(args.log_file, "a", encoding="utf-8", buffering=1)
        os.dup2(log.fileno(), 2)
        sys.stderr = log
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # anything printed during start-up goes to the log, not the READY channel

    stop = threading.Event()

    def on_signal(signum, frame):
        stop.set()
        testctl = sys.modules.get("authservers.core.testctl")
        if testctl is not None:
            testctl.SHUTDOWN.set()  # wake stalled requests before waitress waits for its threads
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    # A parent may spawn us from a thread that blocks signals (Foundation's Process on Linux passes the
    # spawning thread's mask on, and Swift's test runner threads block nearly all): then SIGTERM, ours
    # from watch_stdin included, would never arrive and the server would never stop.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})

    workdir = tempfile.mkdtemp(prefix="authservers-")
    server = None
    try:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", args.port))
        sock.listen(1024)
        port = sock.getsockname()[1]
        base_url = f"http://127.0.0.1:{port}"

        sys.path.insert(0, HERE)
        from authservers.keys import generate_rsa_pem

        key_file = os.path.join(workdir, "oidc-rs256.pem")
        with open(key_file, "w", encoding="ascii") as handle:
            handle.write(generate_rsa_pem())
        os.environ.update({
            "DJANGO_SETTINGS_MODULE": "authservers.settings",
            "AUTHSERVERS_DB": os.path.join(workdir, "db.sqlite3"),
            "AUTHSERVERS_BASE_URL": base_url,
            "AUTHSERVERS_SECRET_KEY": secrets.token_urlsafe(50),
            "AUTHSERVERS_RSA_KEY_FILE": key_file,
            "ACCESS_TOKEN_SECONDS": str(args.access_token_seconds),
            "REFRESH_TOKEN_SECONDS": str(args.refresh_token_seconds),
            "SESSION_SECONDS": str(args.session_seconds),
            "AUTHSERVERS_MIGRATIONS": "1" if args.migrations or os.environ.get(
                "AUTHSERVERS_MIGRATIONS") == "1" else "0",
        })
        if args.quiet:
            os.environ["AUTHSERVERS_ACCESS_LOG"] = "0"

        import django
        from django.core.management import call_command

        django.setup()
        from django.conf import settings

        call_command("migrate", verbosity=0, interactive=False,
                     run_syncdb=not settings.USE_MIGRATIONS)
        from django.db import connections

        from authservers.core.seed import seed

        seed()
        connections.close_all()

        import waitress
        from django.core.wsgi import get_wsgi_application

        server = waitress.create_server(
            get_wsgi_application(),
            sockets=[sock],
            threads=args.threads,
            ident="authservers",
            connection_limit=512,
            channel_timeout=300,
            asyncore_use_poll=True,
        )

        if args.exit_with_stdin:
            def watch_stdin():
                try:  # raw fd reads: a daemon thread blocked in a buffered read aborts exit
                    while os.read(0, 4096):
                        pass
                except OSError:
                    pass
                if not stop.is_set():
                    os.kill(os.getpid(), signal.SIGTERM)

            threading.Thread(target=watch_stdin, name="stdin-watch", daemon=True).start()

        sys.stderr.write(f"authservers: ready at {base_url} in {time.monotonic() - started:.2f}s "
                         f"(access tokens {args.access_token_seconds}s, {args.threads} threads, "
                         f"workdir {workdir})\n")
        sys.stderr.flush()
        real_stdout.write(f"READY {base_url}\n")
        real_stdout.flush()
        server.run()
    except SystemExit:
        pass
    finally:
        stop.set()
        testctl = sys.modules.get("authservers.core.testctl")
        if testctl is not None:
            testctl.SHUTDOWN.set()  # wake stalled requests
        if server is not None:
            try:
                server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
                server.close()
            except Exception as error:  # noqa: BLE001
                sys.stderr.write(f"authservers: error while stopping: {error}\n")
        shutil.rmtree(workdir, ignore_errors=True)
        sys.stderr.write("authservers: stopped\n")
        sys.stderr.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
