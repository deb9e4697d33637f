#!/usr/bin/env python3
"""What the sidecar adds to a remote login: `rest` provider vs the same HTTP calls made directly.

    python3 bench/remote_login.py                      # build release binaries, 200 iterations
    python3 bench/remote_login.py --iterations 500
    python3 bench/remote_login.py --sidecar path/to/auth-sidecar   # skip the build; `auth-http-bench`
                                                       # must sit next to it
    python3 bench/remote_login.py --server-times       # also: each call minus the server's own time

Starts the Django test server (Tests/Servers/serve.py --quiet, under the repo's .venv python), writes a
temp config whose `default` profile is the SimpleJWT API of README.md ("The `rest` provider": login,
refresh and user endpoints; no logout endpoint, see main()), and starts ONE long-lived sidecar in a temp
state dir. Then, per iteration and interleaved (each side goes first equally often):

  (a) `login` {account, password} through the sidecar, request written -> answer read,
      vs the same HTTP calls made with http.client over one kept-alive connection: POST /api/token/
      with the same JSON body, then GET /api/me/ with the new access token if (and only if) the
      sidecar's login fetches the user too;
  (b) `getUser` {"refresh": true} through the sidecar vs GET /api/me/ with the Bearer token.

A third side, "client alone", makes the same HTTP calls through the sidecar's HTTP client
(`CurlHTTPClient` on libcurl) in a small bench binary, `auth-http-bench`, over its stdin: the transport
and nothing of the sidecar. It splits the difference into the transport's share and the sidecar's own
(store, JSON-RPC). A fourth, "libcurl from C", makes them through libcurl driven the same way from a C program
(bench/reference/libcurl_client.c, compiled with `cc` into the temp directory; skipped with a note when libcurl's
headers are missing): the floor any libcurl-based client stands on, so "client alone - libcurl from C" is what the
Swift HTTP client adds to libcurl itself. Both go through a pipe once per HTTP call, as the sidecar does once per
method. A `login` makes one durable commit, of its tokens, while its user request is out (the user
follows in a commit synced after the answer): right after each direct login (after the same wait for the
server) the run times one 4 KiB write over allocated bytes + fdatasync of a probe file in the state dir,
counted on no side, to show what that commit would add if it were still on the answer's path.

Which HTTP calls each side makes is not assumed: before timing, a few calls of each kind are made on
each side alone and the server's /_test/counters compared; the run stops if they differ. After the
timed loop the total of server requests is checked against the per-call counts.

The password is hashed at the server on both sides (Django PBKDF2, 20,000 iterations in this test
server), so it is in both columns and cancels out of the difference; the sidecar hashes nothing for a
`rest` login. Prints p50/p95 of each side, the p50 difference (sidecar - direct), and PASS/FAIL for the
bar "the sidecar adds under 0.5 ms at p50", per method.

With --server-times, a small library loaded into the server (bench/reference/server_timer.c, compiled with `cc`
into the temp directory) times each request it handles, from the read of its first bytes to the first send of its
answer, and each timed call's server time is subtracted from it: what is left is what happens outside the server
(each side's own work, its wake-ups, the loopback), free of the password hash's variance, which moves a login's p50
by tenths of a millisecond from run to run. Printed per method beside the table: that remainder's p50 per side and
the median paired difference, sidecar - direct, and the server's own time per side (the sidecar's work while a
request is out can slow the server's on a small machine: that shows there, and the end-to-end figures hold both).

Exit status: 0 when the run completed (whether or not a bar passed); 1 when something broke (an error
answer, mismatched HTTP calls, a crash, a hang, a failed build). Python 3.11 standard library only.
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import base64
import http.client
import json
import os
import platform
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from benchlib.reference import compile_c
from benchlib.release import build_release

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
SERVE = ROOT / "Tests" / "Servers" / "serve.py"
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
USERNAME = "alice"
PASSWORD = "correct horse battery staple"
BAR_MS = 0.5
ANSWER_TIMEOUT = 30.0  # seconds without an answer before the sidecar counts as hung
CALIBRATION_CALLS = 3


class Broken(Exception):
    """A wrong answer, a crash, a hang or mismatched HTTP calls: the run cannot be trusted."""


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", "-n", type=int, default=200, help="timed iterations (default 200)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed iterations first (default 20)")
    parser.add_argument("--sidecar", type=Path, help="measure this binary instead of building one")
    parser.add_argument("--server-times", action="store_true",
                        help="time the server's own work per request and print each side's time outside it")
    parser.add_argument(
        "--scratch-path",
        type=Path,
        default=Path(tempfile.gettempdir()) / "build-bench",
        help="swift build scratch path (default: %(default)s, shared with bench/run.py)",
    )
    args = parser.parse_args()
    if args.iterations < 1 or args.warmup < 0:
        parser.error("--iterations must be at least 1 and --warmup at least 0")
    return args


# ---------------------------------------------------------------- build


def build(scratch_path):
    """Builds auth-sidecar and auth-http-bench with scripts/build-release (the shipped recipe) into one bin dir."""
    binaries = []
    for product in ("auth-sidecar", "auth-http-bench"):
        binary, problem = build_release(scratch_path, product=product)
        if problem:
            raise Broken(f"build of {product} failed: {problem}")
        binaries.append(binary)
    return binaries[0], []


# ---------------------------------------------------------------- the Django server


class Server:
    def __init__(self, workdir, preload=None, timer_out=None):
        python = VENV_PYTHON if VENV_PYTHON.exists() else None
        if python is None:
            raise Broken(f"no {VENV_PYTHON}: create it (see Tests/Servers/README.md)")
        self.log_path = workdir / "server.log"
        self.log = open(self.log_path, "w+b")  # stderr to a file: a full pipe would block the server
        environment = None
        if preload is not None:
            environment = dict(os.environ, LD_PRELOAD=str(preload), SERVER_TIMER_OUT=str(timer_out))
        self.process = subprocess.Popen(
            [str(python), str(SERVE), "--quiet", "--exit-with-stdin"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, cwd=ROOT, env=environment,
        )
        line = self.process.stdout.readline().decode().strip()
        if not line.startswith("READY "):
            self.stop()
            raise Broken(f"the test server did not start: {line!r}\n{self.log_path.read_text(errors='replace')[-2000:]}")
        self.url = line.split(" ", 1)[1]
        parts = urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port
        self.control = http.client.HTTPConnection(self.host, self.port, timeout=10)

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        self.control.request(method, path, body=data, headers=headers)
        response = self.control.getresponse()
        raw = response.read()
        if response.status >= 300:
            raise Broken(f"{method} {path} answered {response.status}: {raw[:300]!r}")
        return json.loads(raw) if raw else None

    def reset(self):
        self.call("POST", "/_test/reset", {})

    def requests(self):
        """{"METHOD /path": count} since the last reset, without the test-control requests."""
        counted = self.call("GET", "/_test/counters")["requests"]
        return {key: n for key, n in counted.items() if "/_test/" not in key and n}

    def stop(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            self.process.wait(timeout=5)
        self.log.close()


class ServerTimes:
    """The server's own time per request, as bench/reference/server_timer.c appends it to a file."""

    SOURCE = BENCH / "reference" / "server_timer.c"

    def __init__(self, workdir):
        self.library, problem = compile_c(self.SOURCE, workdir / "server_timer.so", ["-shared", "-fPIC", "-ldl"])
        if problem:
            raise Broken(f"--server-times: {problem}")
        self.path = workdir / "server-times.txt"
        self.path.touch()
        self.offset = 0

    def take(self):
        """Milliseconds the server spent on the requests answered since the last call, and how many there were.
        A request's line is written before its answer is sent, so a call that has its answer has its lines."""
        with open(self.path, "rb") as lines:
            lines.seek(self.offset)
            new = lines.read()
        complete = new[: new.rfind(b"\n") + 1]
        self.offset += len(complete)
        times = [float(line) for line in complete.split()]
        return sum(times) / 1000.0, len(times)


# ---------------------------------------------------------------- the sidecar


class Sidecar:
    """One long-lived sidecar. request() writes a line and reads stdout in this thread (no queue hop
    that the direct side would not pay); a watchdog kills the process if an answer takes too long."""

    def __init__(self, binary, workdir, config_path, prefix=()):
        """`prefix`: a command the sidecar runs under (bench/code_lines.py's valgrind)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("AUTH_SIDECAR_")}
        self.stderr_path = workdir / "sidecar-stderr.txt"
        self.stderr = open(self.stderr_path, "w+b")
        self.process = subprocess.Popen(
            [*prefix, str(binary), "--config", str(config_path), "--state-dir", str(workdir / "state"), "--log-level", "error"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, env=env, cwd=workdir,
        )
        self.next_id = 0
        self.deadline = None
        self.hung = False
        self.lock = threading.Lock()
        threading.Thread(target=self._watchdog, daemon=True).start()

    def _watchdog(self):
        while self.process.poll() is None:
            time.sleep(1)
            with self.lock:
                if self.deadline is not None and time.monotonic() > self.deadline:
                    self.hung = True
                    self.process.kill()
                    return

    def request(self, method, params):
        """Returns (elapsed ns, result); raises Broken on an error answer, EOF or a hang."""
        self.next_id += 1
        ident = self.next_id
        line = json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}).encode() + b"\n"
        with self.lock:
            self.deadline = time.monotonic() + ANSWER_TIMEOUT
        started = time.perf_counter_ns()
        self.process.stdin.write(line)
        self.process.stdin.flush()
        while True:
            raw = self.process.stdout.readline()
            if not raw:
                why = "hung" if self.hung else f"exited (status {self.process.poll()})"
                raise Broken(f"the sidecar {why} during {method}: {self.stderr_tail()}")
            message = json.loads(raw)
            if message.get("id") == ident:
                elapsed = time.perf_counter_ns() - started
                break
            # sessionChanged notifications: skip
        with self.lock:
            self.deadline = None
        if "result" not in message:
            raise Broken(f"{method} answered {message}")
        return elapsed, message["result"]

    def stderr_tail(self):
        """The end of what the sidecar wrote to stderr; read from its file, so it also works after `close`."""
        if not self.stderr.closed:
            self.stderr.flush()
        return self.stderr_path.read_bytes().decode(errors="replace")[-1500:]

    def close(self):
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            status = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        self.stderr.close()
        return status


# ---------------------------------------------------------------- the direct side


class SameCalls:
    """`login` and `getUser` as the sidecar's `rest` profile makes them, timed; a subclass says how one HTTP
    call is made (`_call(method, path, body=None, token=None)` with `body` as bytes, returning the JSON)."""

    name = "?"
    login_body = json.dumps({"username": USERNAME, "password": PASSWORD}).encode()

    def __init__(self, login_fetches_user):
        self.login_fetches_user = login_fetches_user
        self.access = None

    def login(self):
        started = time.perf_counter_ns()
        tokens = self._call("POST", "/api/token/", self.login_body)
        self.access = tokens["access"]
        if self.login_fetches_user:
            user = self._call("GET", "/api/me/", token=self.access)
        elapsed = time.perf_counter_ns() - started
        if self.login_fetches_user and user.get("username") != USERNAME:
            raise Broken(f"{self.name} login: wrong user {user}")
        return elapsed

    def get_user(self):
        started = time.perf_counter_ns()
        user = self._call("GET", "/api/me/", token=self.access)
        elapsed = time.perf_counter_ns() - started
        if user.get("username") != USERNAME:
            raise Broken(f"{self.name} getUser: wrong user {user}")
        return elapsed


class Direct(SameCalls):
    """The same HTTP calls with http.client over one HTTPConnection."""

    name = "direct"

    def __init__(self, host, port, login_fetches_user):
        super().__init__(login_fetches_user)
        self.connection = http.client.HTTPConnection(host, port, timeout=ANSWER_TIMEOUT)

    def _call(self, method, path, body=None, token=None):
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        raw = response.read()
        if response.status != 200:
            raise Broken(f"direct {method} {path} answered {response.status}: {raw[:300]!r}")
        return json.loads(raw)


class OverPipe(SameCalls):
    """A side that makes each HTTP call through a helper process, one line in and one line out over its pipes."""

    def __init__(self, binary, base_url, login_fetches_user, prefix=()):
        super().__init__(login_fetches_user)
        self.process = subprocess.Popen(
            [*prefix, str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.base_url = base_url

    @staticmethod
    def headers(body, token):
        """The request's header fields as (name, value) pairs, as the sidecar's `rest` profile sends them."""
        pairs = [("Accept", "application/json")]
        if body is not None:
            pairs.append(("Content-Type", "application/json"))
        if token is not None:
            pairs.append(("Authorization", f"Bearer {token}"))
        return pairs

    def exchange(self, line):
        """Writes one line and returns the answer line."""
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise Broken(f"{self.name}: its helper exited (status {self.process.poll()})")
        return answer

    def close(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class ClientOnly(OverPipe):
    """The same HTTP calls through the sidecar's HTTP client alone (`auth-http-bench`, bench/http-client-alone):
    CurlHTTPClient on libcurl, without JSON-RPC, sessions or the store. Separates what the transport costs from
    what the sidecar itself adds."""

    name = "client"

    def _call(self, method, path, body=None, token=None):
        message = {"method": method, "url": self.base_url + path, "headers": self.headers(body, token)}
        if body is not None:
            message["body"] = body.decode()
        answer = json.loads(self.exchange(json.dumps(message).encode()))
        if answer.get("status") != 200:
            raise Broken(f"client {method} {path} answered {answer}")
        return json.loads(answer["body"])


class CurlFromC(OverPipe):
    """The same HTTP calls through libcurl from C (bench/reference/libcurl_client.c): libcurl's multi interface
    on an epoll thread, as `CurlEngine` drives it, with nothing of Swift. One tab-separated line per call."""

    name = "libcurl C"
    SOURCE = BENCH / "reference" / "libcurl_client.c"

    @classmethod
    def build(cls, directory):
        """Compiles the C client into `directory`; returns (path, None) or (None, why not)."""
        return compile_c(cls.SOURCE, directory / "libcurl-client", ["-lcurl", "-lpthread"])

    def _call(self, method, path, body=None, token=None):
        headers = "\x1f".join(f"{name}: {value}" for name, value in self.headers(body, token))
        fields = [method, self.base_url + path, headers, (body or b"").decode()]
        status, _, text = self.exchange("\t".join(fields).encode()).decode().rstrip("\n").partition("\t")
        if status != "200":
            raise Broken(f"libcurl C {method} {path} answered {status}: {text[:300]}")
        return json.loads(text)


class DurableProbe:
    """One 4 KiB write over already-allocated bytes + fdatasync of a probe file in `directory`: what a login's
    durable SQLite commit costs at least. Timed in the loop, after a login's wait for the server, because a sync
    after some idleness of the disk costs more than one of a run of syncs back to back."""

    def __init__(self, directory):
        self.path = directory / "fdatasync-probe"
        self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        # Allocated and durable before the first timed write, which then only overwrites.
        os.pwrite(self.fd, os.urandom(4096), 0)
        os.fsync(self.fd)
        self.times = []

    def measure(self):
        page = os.urandom(4096)
        started = time.perf_counter_ns()
        os.pwrite(self.fd, page, 0)
        os.fdatasync(self.fd)
        self.times.append((time.perf_counter_ns() - started) / 1e6)

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        self.path.unlink(missing_ok=True)


def rest_config(url):
    """The sidecar's config: README.md's SimpleJWT API as the `default` profile.

    No logout endpoint: a login over a live session then revokes the replaced one at the server, in a task the
    answer does not wait for, which the direct side would have to mirror off the clock and which would load the
    server during the next timed call. What is timed is the login's own critical path."""
    return {
        "profiles": {
            "default": {
                "provider": "rest",
                "rest": {
                    "baseURL": url,
                    "login": {"path": "/api/token/", "body": {"username": "{username}", "password": "{password}"}},
                    "refresh": {"path": "/api/token/refresh/", "body": {"refresh": "{refreshToken}"}},
                    "user": {"path": "/api/me/"},
                    "response": {"accessToken": "access", "refreshToken": "refresh"},
                    "userFields": {"displayName": "first_name"},
                },
            }
        }
    }


def sidecar_login(sidecar):
    elapsed, result = sidecar.request("login", {"account": USERNAME, "password": PASSWORD})
    if (result.get("user") or {}).get("username") != USERNAME:
        raise Broken(f"sidecar login: unexpected result {result}")
    return elapsed


def sidecar_get_user(sidecar):
    elapsed, result = sidecar.request("getUser", {"refresh": True})
    if (result.get("user") or {}).get("username") != USERNAME or result.get("stale"):
        raise Broken(f"sidecar getUser: unexpected result {result}")
    return elapsed


# ---------------------------------------------------------------- figures


def percentile(values, fraction):
    """Nearest rank: the smallest value with at least `fraction` of the values at or below it."""
    ordered = sorted(values)
    rank = max(1, -(-int(round(fraction * len(ordered) * 1000)) // 1000))
    return ordered[min(rank, len(ordered)) - 1]


def per_call(server, calls, action):
    """The server requests one `action` makes, from the counters around `calls` runs of it alone."""
    server.reset()
    for _ in range(calls):
        action()
    counted = server.requests()
    result = {}
    for key, n in counted.items():
        if n % calls:
            raise Broken(f"{n} x {key} for {calls} calls: not a whole number per call ({counted})")
        result[key] = n // calls
    return result


def main():
    args = parse_arguments()
    notes = []
    if args.sidecar:
        binary = args.sidecar.resolve()
    else:
        binary, notes = build(args.scratch_path)
    workdir = Path(tempfile.mkdtemp(prefix="remote-login-bench-"))
    server = sidecar = probe = c_client = None
    try:
        started = time.monotonic()
        server_times = ServerTimes(workdir) if args.server_times else None
        server = Server(workdir, server_times.library, server_times.path) if server_times else Server(workdir)
        config_path = workdir / "config.json"
        config_path.write_text(json.dumps(rest_config(server.url), indent=2))
        if not (binary.parent / "auth-http-bench").exists():
            raise Broken(f"no auth-http-bench next to the sidecar: {binary.parent}")
        sidecar = Sidecar(binary, workdir, config_path)
        print(f"server {server.url}; sidecar {binary}; state {workdir / 'state'}", flush=True)

        # Which HTTP calls does each side make? Sidecar first, then the direct side mirrors it.
        sidecar_login(sidecar)  # loads libcurl and opens the store; not counted
        side_login = per_call(server, CALIBRATION_CALLS, lambda: sidecar_login(sidecar))
        side_user = per_call(server, CALIBRATION_CALLS, lambda: sidecar_get_user(sidecar))
        if side_login.get("POST /api/token/") != 1:
            raise Broken(f"the sidecar's login does not POST /api/token/ once: {side_login}")
        direct = Direct(server.host, server.port, login_fetches_user="GET /api/me/" in side_login)
        direct.login()
        direct_login = per_call(server, CALIBRATION_CALLS, direct.login)
        direct_user = per_call(server, CALIBRATION_CALLS, direct.get_user)
        client = ClientOnly(binary.parent / "auth-http-bench", server.url, direct.login_fetches_user)
        client_login = per_call(server, CALIBRATION_CALLS, client.login)
        client_user = per_call(server, CALIBRATION_CALLS, client.get_user)
        c_binary, problem = CurlFromC.build(workdir)
        if problem:
            notes.append(f"libcurl from C skipped: {problem}")
        else:
            c_client = CurlFromC(c_binary, server.url, direct.login_fetches_user)
        c_login = per_call(server, CALIBRATION_CALLS, c_client.login) if c_client else client_login
        c_user = per_call(server, CALIBRATION_CALLS, c_client.get_user) if c_client else client_user
        print(f"HTTP calls per login:   sidecar {side_login}   direct {direct_login}   client {client_login}   "
              f"libcurl C {c_login}")
        print(f"HTTP calls per getUser: sidecar {side_user}   direct {direct_user}   client {client_user}   "
              f"libcurl C {c_user}", flush=True)
        if not side_login == direct_login == client_login == c_login or \
                not side_user == direct_user == client_user == c_user:
            raise Broken("the sides do not make the same HTTP calls; the comparison would be unfair")

        sides = ("sidecar", "client", "direct") + (("libcurl",) if c_client else ())
        timings = {method: {side: [] for side in sides} for method in ("login", "getUser")}
        at_server = {method: {side: [] for side in sides} for method in ("login", "getUser")}
        actions = [
            ("login", {"sidecar": lambda: sidecar_login(sidecar), "client": client.login, "direct": direct.login,
                       "libcurl": c_client and c_client.login}),
            ("getUser", {"sidecar": lambda: sidecar_get_user(sidecar), "client": client.get_user,
                         "direct": direct.get_user, "libcurl": c_client and c_client.get_user}),
        ]
        for _ in range(args.warmup):
            for _, by_side in actions:
                for side in sides:
                    by_side[side]()
        probe = DurableProbe(workdir / "state")
        server.reset()
        if server_times:
            server_times.take()  # the control requests so far
        for i in range(args.iterations):
            for method, by_side in actions:
                # Each side takes each place in the order equally often.
                for k in range(len(sides)):
                    side = sides[(i + k) % len(sides)]
                    timings[method][side].append(by_side[side]())
                    if server_times:
                        served, requests = server_times.take()
                        expected_requests = sum((side_login if method == "login" else side_user).values())
                        if requests != expected_requests:
                            raise Broken(f"--server-times: {requests} requests timed for one {method}, "
                                         f"expected {expected_requests}")
                        at_server[method][side].append(served)
                    if method == "login" and side == "direct":
                        probe.measure()  # after the same server wait as the sidecar's commit; on no side's clock
        counted = server.requests()
        expected = {}
        counted_sides = [side_login, side_user, direct_login, direct_user, client_login, client_user]
        if c_client:
            counted_sides += [c_login, c_user]
        for calls in counted_sides:
            for key, n in calls.items():
                expected[key] = expected.get(key, 0) + n * args.iterations
        if counted != expected:
            raise Broken(f"server requests during the timed loop {counted}, expected {expected}")
        wall = time.monotonic() - started
        client.close()
        if c_client:
            c_client.close()
            c_client = None
        probe.close()
        durable_ms, durable_p95 = percentile(probe.times, 0.5), percentile(probe.times, 0.95)
        status = sidecar.close()
        sidecar = None
        if status != 0:
            raise Broken(f"the sidecar exited with status {status}")
    except Broken:
        if sidecar is not None:
            print(f"sidecar stderr:\n{sidecar.stderr_tail()}", file=sys.stderr)
        raise
    finally:
        if probe is not None:
            probe.close()
        if c_client is not None:
            c_client.close()
        if sidecar is not None:
            sidecar.close()
        if server is not None:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print()
    print(f"{args.iterations} timed iterations after {args.warmup} warm-up, interleaved; {wall:.1f} s; "
          f"{os.cpu_count()} CPUs, load {load:.2f}; {platform.platform()}; one durable write after a login's server "
          f"wait p50 {durable_ms:.2f} ms")
    for note in notes:
        print(f"note: {note}")
    print()
    print("| method | HTTP calls | sidecar p50 | sidecar p95 | direct p50 | direct p95 | p50 diff (sidecar - direct) "
          "| median paired diff | bar < 0.5 ms | client alone p50 | of the diff: client | of the diff: sidecar "
          "| client paired diff | libcurl C paired diff | client - libcurl C paired |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    verdicts = {}
    for method, calls in (("login", side_login), ("getUser", side_user)):
        side, alone, direct_ms = ([t / 1e6 for t in timings[method][name]] for name in ("sidecar", "client", "direct"))
        diff = percentile(side, 0.5) - percentile(direct_ms, 0.5)
        paired = percentile([a - b for a, b in zip(side, direct_ms)], 0.5)
        platform_share = percentile(alone, 0.5) - percentile(direct_ms, 0.5)
        # The transport's share per iteration (client alone - direct), steadier than a difference of p50s.
        client_paired = percentile([a - b for a, b in zip(alone, direct_ms)], 0.5)
        c_paired = swift_over_c = "n/a"
        if "libcurl" in timings[method]:
            in_c = [t / 1e6 for t in timings[method]["libcurl"]]
            c_paired = f"{percentile([a - b for a, b in zip(in_c, direct_ms)], 0.5):+.2f}"
            swift_over_c = f"{percentile([a - b for a, b in zip(alone, in_c)], 0.5):+.2f}"
        verdict = "PASS" if diff < BAR_MS else "FAIL"
        verdicts[method] = verdict
        described = " + ".join(f"{n}x {key}" if n > 1 else key for key, n in sorted(calls.items(), reverse=True))
        print(f"| {method} | {described} | {percentile(side, 0.5):.2f} | {percentile(side, 0.95):.2f} "
              f"| {percentile(direct_ms, 0.5):.2f} | {percentile(direct_ms, 0.95):.2f} | {diff:+.2f} "
              f"| {paired:+.2f} | {verdict} | {percentile(alone, 0.5):.2f} | {platform_share:+.2f} "
              f"| {diff - platform_share:+.2f} | {client_paired:+.2f} | {c_paired} | {swift_over_c} |")
    print()
    print("Times in ms, nearest-rank percentiles, request written -> answer read. Password hashing (Django "
          "PBKDF2) happens at the server on both sides, so it is in both columns of `login`.")
    print("client alone: the same HTTP calls through the sidecar's HTTP client (CurlHTTPClient) in auth-http-bench, "
          "splitting the difference into what the transport costs and what the sidecar adds on top (the store, "
          "JSON-RPC).")
    print("libcurl C: the same HTTP calls through libcurl driven the same way from C (bench/reference/libcurl_client.c); "
          "client - libcurl C is what the Swift HTTP client adds to libcurl itself.")
    print(f"One durable write (4 KiB over allocated bytes + fdatasync) in the state dir, timed right after each "
          f"direct login, after the same server wait: p50 {durable_ms:.2f} ms, p95 {durable_p95:.2f} ms. `login` "
          "makes its one durable commit (the tokens) while GET /api/me/ is out, and adds the user in a commit "
          "synced after the answer, so that flush is off its path; `getUser` whose user did not change commits "
          "nothing.")
    if args.server_times:
        print()
        for method in ("login", "getUser"):
            side, direct_ms = ([t / 1e6 for t in timings[method][name]] for name in ("sidecar", "direct"))
            side_out = [t - s for t, s in zip(side, at_server[method]["sidecar"])]
            direct_out = [t - s for t, s in zip(direct_ms, at_server[method]["direct"])]
            paired_out = percentile([a - b for a, b in zip(side_out, direct_out)], 0.5)
            print(f"{method}, outside the server (each call minus the server's own time on its requests), p50: "
                  f"sidecar {percentile(side_out, 0.5):.2f}, direct {percentile(direct_out, 0.5):.2f}, median paired "
                  f"diff {paired_out:+.2f} ms; the server's own time, p50: sidecar "
                  f"{percentile(at_server[method]['sidecar'], 0.5):.2f}, direct "
                  f"{percentile(at_server[method]['direct'], 0.5):.2f} ms")
    for method, verdict in verdicts.items():
        print(f"{verdict}: the sidecar adds under {BAR_MS:g} ms at p50 to {method}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Broken as problem:
        print(f"BROKEN: {problem}", file=sys.stderr)
        sys.exit(1)
