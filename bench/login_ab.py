#!/usr/bin/env python3
"""Two sidecar builds' `rest` logins against one server, interleaved with the same HTTP calls made directly.

    python3 bench/login_ab.py OLD/auth-sidecar NEW/auth-sidecar            # 300 rounds after 20 warm-up
    python3 bench/login_ab.py OLD/auth-sidecar NEW/auth-sidecar --rounds 500
    python3 bench/login_ab.py OLD/auth-sidecar NEW/auth-sidecar --method getUser   # getUser {refresh: true}
                                                   # after one login, vs GET /api/me/ alone

Run-to-run noise on a small VM (the server's password hash alone varies by milliseconds between runs) hides a
change of 0.1-0.3 ms when two builds are measured in separate `remote_login.py` runs. Here both builds and the
direct calls share one Django test server (Tests/Servers/serve.py, under the repo's .venv python) and one
machine state: each round makes one `login` through each sidecar (each with its own state dir, the same config
as remote_login.py's: POST /api/token/ + GET /api/me/) and one POST + GET with http.client over a kept-alive
connection, in a rotating order, with `--pause-ms` between calls (default 2: a host does not log in back to back,
and a sidecar's work after its answer, the scrub of the replaced session, would otherwise fall on the next side's
clock). Prints p50s and the medians of the per-round differences: A - direct, B - direct, and A - B, the figure to
read.

Exit status: 0 when the run completed; 1 when an answer was an error. Python 3.11 standard library only;
leaves nothing behind (the temporary directory is removed, the server dies with its stdin).
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import http.client
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from remote_login import rest_config

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
SERVE = ROOT / "Tests" / "Servers" / "serve.py"
USERNAME = "alice"
PASSWORD = "correct horse battery staple"


class Sidecar:
    def __init__(self, binary, config_path, state_dir):
        self.process = subprocess.Popen(
            [binary, "--config", str(config_path), "--state-dir", str(state_dir), "--log-level", "error"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.next_id = 0

    def login(self):
        return self.call("login", {"account": USERNAME, "password": PASSWORD})

    def get_user(self):
        return self.call("getUser", {"refresh": True})

    def call(self, method, params):
        self.next_id += 1
        line = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        started = time.perf_counter()
        self.process.stdin.write((json.dumps(line) + "\n").encode())
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        while b'"sessionChanged"' in answer:
            answer = self.process.stdout.readline()
        elapsed = time.perf_counter() - started
        if b'"result"' not in answer:
            raise SystemExit(f"error answer: {answer[:200]!r}")
        return elapsed

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="sidecar binary A")
    parser.add_argument("b", help="sidecar binary B")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--pause-ms", type=float, default=2.0, help="pause after each call (default 2)")
    parser.add_argument("--method", choices=("login", "getUser"), default="login",
                        help="login (default), or getUser {refresh: true} after one login: GET /api/me/ alone")
    args = parser.parse_args()

    server = subprocess.Popen([str(VENV_PYTHON), str(SERVE), "--quiet", "--exit-with-stdin"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    work = Path(tempfile.mkdtemp(prefix="login-ab-"))
    sidecars = []
    try:
        url = server.stdout.readline().split()[1]
        (work / "config.json").write_text(json.dumps(rest_config(url)))
        for name in ("a", "b"):
            (work / name).mkdir()
            sidecars.append(Sidecar(getattr(args, name), work / "config.json", work / name))
        host, port = url.split("//")[1].split(":")
        connection = http.client.HTTPConnection(host, int(port))

        def direct_get_user(access):
            started = time.perf_counter()
            connection.request("GET", "/api/me/", headers={"Authorization": "Bearer " + access})
            connection.getresponse().read()
            return time.perf_counter() - started

        def direct():
            started = time.perf_counter()
            connection.request("POST", "/api/token/", body=json.dumps({"username": USERNAME, "password": PASSWORD}),
                               headers={"Content-Type": "application/json"})
            access = json.loads(connection.getresponse().read())["access"]
            connection.request("GET", "/api/me/", headers={"Authorization": "Bearer " + access})
            connection.getresponse().read()
            return time.perf_counter() - started

        sides = [("A", sidecars[0].login), ("B", sidecars[1].login), ("direct", direct)]
        if args.method == "getUser":
            for sidecar in sidecars:
                sidecar.login()
            connection.request("POST", "/api/token/", body=json.dumps({"username": USERNAME, "password": PASSWORD}),
                               headers={"Content-Type": "application/json"})
            access = json.loads(connection.getresponse().read())["access"]
            sides = [("A", sidecars[0].get_user), ("B", sidecars[1].get_user), ("direct", lambda: direct_get_user(access))]
        times = {name: [] for name, _ in sides}
        for round_ in range(args.warmup + args.rounds):
            order = sides[round_ % 3:] + sides[:round_ % 3]
            if round_ % 2:
                order.reverse()
            for name, call in order:
                elapsed = call()
                time.sleep(args.pause_ms / 1e3)
                if round_ >= args.warmup:
                    times[name].append(elapsed * 1e3)
        median = statistics.median
        paired = lambda x, y: median([p - q for p, q in zip(times[x], times[y])])
        print(f"{args.method}: {args.rounds} rounds after {args.warmup} warm-up; p50 ms: A {median(times['A']):.2f}, "
              f"B {median(times['B']):.2f}, direct {median(times['direct']):.2f}")
        print(f"median paired difference, ms: A - direct {paired('A', 'direct'):+.2f}, "
              f"B - direct {paired('B', 'direct'):+.2f}, A - B {paired('A', 'B'):+.2f}")
        return 0
    finally:
        for sidecar in sidecars:
            sidecar.close()
        server.stdin.close()
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
