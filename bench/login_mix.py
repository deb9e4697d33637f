#!/usr/bin/env python3
"""`validate` throughput while logins hash passwords: alone, and with 4 default-KDF logins always in flight.

    python3 bench/login_mix.py                    # build the release (scripts/build-release), 3 rounds
    python3 bench/login_mix.py --sidecar PATH     # measure that binary, skip the build
    python3 bench/login_mix.py --rounds 5 --requests 300000

One sidecar with four `local` profiles (p1 … p4) in a fresh state dir, one account registered on each with
the production password hashing (PBKDF2-SHA256, 600,000 iterations). Each round measures pipelined
`validate` throughput (bench/run.py's mix, written by one thread while another reads the answers) twice,
in turn: alone, then with a `login` in flight on each of the four profiles the whole time (a login's answer
sends the next login on its profile at once). Logins on different profiles run at once, so four hashes
compete for the cores with the reader and the inline methods. The figure is the median over the rounds of
(rate with logins) ÷ (rate alone); the bar is ≥ 70 %. Every `validate` answer is checked as in bench/run.py,
and every login must succeed. Saves bench/results/login-mix.json (git-ignored). Exit 1 when something broke.
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from benchlib.measure import Workload
from benchlib.release import add_binary_arguments, sidecar_binary

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results"
PROFILES = ("p1", "p2", "p3", "p4")
PASSWORD = "Tr4nslucent-0wl!"
CHUNK = 64 * 1024  # bytes of validate requests per write, whole lines; a login line goes in between


class Broken(Exception):
    pass


class Sidecar:
    """The sidecar with its pipes; writes come from several threads, one whole chunk of lines at a time."""

    def __init__(self, binary, root):
        config = root / "config" / "auth-sidecar"
        config.mkdir(parents=True)
        profiles = {name: {"provider": "local"} for name in ("default",) + PROFILES}  # validate uses default
        (config / "config.json").write_text(json.dumps({"profiles": profiles}))
        env = {k: v for k, v in os.environ.items() if not k.startswith("AUTH_SIDECAR_")}
        env.update(AUTH_SIDECAR_STATE_DIR=str(root / "state"), XDG_CONFIG_HOME=str(root / "config"))
        self.stderr = open(root / "stderr.txt", "w+b")
        self.process = subprocess.Popen(
            [str(binary), "--log-level", "error"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.stderr, env=env, cwd=root, bufsize=0,
        )
        self.write_lock = threading.Lock()
        self.pending = b""

    def write(self, data):
        with self.write_lock:
            view = memoryview(data)
            while view:
                view = view[os.write(self.process.stdin.fileno(), view):]

    def read_line(self):
        while b"\n" not in self.pending:
            chunk = os.read(self.process.stdout.fileno(), 1 << 20)
            if not chunk:
                raise Broken(f"the sidecar closed stdout (status {self.process.poll()}): {self.tail_of_stderr()}")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line

    def tail_of_stderr(self):
        self.stderr.seek(0)
        return self.stderr.read()[-800:].decode(errors="replace")

    def close(self):
        self.process.stdin.close()
        status = self.process.wait(timeout=60)
        if status != 0:
            raise Broken(f"the sidecar exited with status {status}: {self.tail_of_stderr()}")


def request(method, request_id, params):
    message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def login(profile, number):
    params = {"profile": profile, "username": f"user-{profile}", "password": PASSWORD}
    return request("login", f"login-{profile}-{number}", params)


def register_accounts(sidecar):
    for profile in PROFILES:
        params = {"profile": profile, "username": f"user-{profile}", "password": PASSWORD}
        sidecar.write(request("register", f"register-{profile}", params))
    answered = 0
    while answered < len(PROFILES):
        answer = json.loads(sidecar.read_line())
        if "id" not in answer:
            continue  # sessionChanged
        if "result" not in answer:
            raise Broken(f"register answered {answer}")
        answered += 1


def chunks(payload):
    """`payload` cut at line ends into pieces of about CHUNK bytes."""
    start = 0
    while start < len(payload):
        end = payload.find(b"\n", min(start + CHUNK, len(payload)) - 1) + 1 or len(payload)
        yield payload[start:end]
        start = end


def renice_workers(pid, nice):
    """Sets every thread of `pid` that runs below the normal priority to `nice` (the --at-normal-priority run)."""
    for tid in os.listdir(f"/proc/{pid}/task"):
        if os.getpriority(os.PRIO_PROCESS, int(tid)) > 0:
            os.setpriority(os.PRIO_PROCESS, int(tid), nice)


def measure(sidecar, workload, with_logins, normal_priority=False):
    """The workload's requests pipelined; returns (requests/s, logins completed, validate answer lines)."""
    payload = workload.payload(1, workload.count)
    count = workload.count
    logins = {"next": 0, "done": 0, "in_flight": 0, "stop": False}
    if with_logins:
        for profile in PROFILES:
            sidecar.write(login(profile, 0))
        logins["in_flight"] = len(PROFILES)
        time.sleep(0.05)  # the four hashes are under way before the clock starts
        if normal_priority:
            renice_workers(sidecar.process.pid, 0)

    def write_validates():
        for piece in chunks(payload):
            sidecar.write(piece)

    writer = threading.Thread(target=write_validates, daemon=True)
    lines = []
    started = time.perf_counter()
    writer.start()
    while len(lines) < count or logins["in_flight"]:
        line = sidecar.read_line()
        if b'"id":"login-' in line[:40]:
            answer = json.loads(line)
            if "result" not in answer:
                raise Broken(f"login answered {answer}")
            logins["in_flight"] -= 1
            if len(lines) < count:  # keep four in flight while validate answers are still due
                logins["done"] += 1
                profile = answer["id"].split("-")[1]
                logins["next"] += 1
                # From another thread: the validate writer may hold the pipe, blocked until this thread reads.
                threading.Thread(target=sidecar.write, args=(login(profile, logins["next"]),), daemon=True).start()
                logins["in_flight"] += 1
        elif b'"sessionChanged"' in line[:80]:
            continue  # sessionChanged
        else:
            lines.append(line)
            if len(lines) == count:
                elapsed = time.perf_counter() - started
    writer.join()
    return count / elapsed, logins["done"], lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of (alone, with logins); default 3")
    parser.add_argument("--requests", type=int, default=200_000, help="validate requests per measurement")
    parser.add_argument(
        "--at-normal-priority", action="store_true",
        help="put the hashing threads back to nice 0 (needs root): what the mix gives without the lower priority",
    )
    add_binary_arguments(parser)
    args = parser.parse_args()
    binary, problem = sidecar_binary(args)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    measurements = 2 * args.rounds
    workload = Workload(args.requests)  # each measurement sends ids 1..n again, checked on its own
    alone, mixed, logins_done = [], [], []
    with tempfile.TemporaryDirectory() as directory:
        sidecar = Sidecar(binary, Path(directory))
        try:
            print("registering one account per profile (default KDF) …", flush=True)
            register_accounts(sidecar)
            problems = 0
            for index in range(measurements):
                with_logins = index % 2 == 1
                rate, done, lines = measure(sidecar, workload, with_logins, args.at_normal_priority)
                checker = workload.check(lines)
                problems += sum(checker.problems.values())
                if checker.problems:
                    print(f"WRONG ANSWERS: {checker.problems.most_common(3)}", file=sys.stderr)
                (mixed if with_logins else alone).append(rate)
                if with_logins:
                    logins_done.append(done)
                print(f"  {'with 4 logins' if with_logins else 'alone':14} {rate:>12,.0f} req/s"
                      + (f"   ({done} logins answered meanwhile)" if with_logins else ""), flush=True)
            sidecar.close()
        except Broken as broken:
            sidecar.process.kill()
            print(f"BROKEN: {broken}", file=sys.stderr)
            return 1
    if problems:
        return 1
    shares = [m / a for a, m in zip(alone, mixed)]
    share = statistics.median(shares)
    print(f"\nvalidate with 4 default-KDF logins in flight: {share:.0%} of its rate alone "
          f"(rounds: {', '.join(f'{s:.0%}' for s in shares)})")
    print(f"{'PASS' if share >= 0.70 else 'FAIL'}  validate throughput with 4 logins in flight ≥ 70 % of alone")
    RESULTS.mkdir(exist_ok=True)
    record = {"requests": args.requests, "at_normal_priority": args.at_normal_priority, "alone_rps": alone, "with_logins_rps": mixed, "shares": shares,
              "median_share": share, "logins_answered": logins_done, "load_average": os.getloadavg()}
    (RESULTS / "login-mix.json").write_text(json.dumps(record, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
