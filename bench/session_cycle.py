#!/usr/bin/env python3
"""Times a whole session cycle through one long-lived auth-sidecar, and how much of it is password hashing.

    python3 bench/session_cycle.py                 # build release, 20 cycles per configuration
    python3 bench/session_cycle.py --cycles 50
    python3 bench/session_cycle.py --sidecar path/to/auth-sidecar   # measure that binary, skip the build

A cycle is register -> login -> getUser -> refreshToken {force:true} -> logout, each request written only
after the previous answer was read, against the `local` provider in a fresh state dir. Two sidecars run
side by side, cycles interleaved so that drift in the machine's load hits both alike:

  - "default KDF": the production password hashing (PBKDF2-SHA256, 600,000 iterations);
  - "test KDF":    AUTH_SIDECAR_TEST_MODE=1 with --test-kdf-iterations 1000.

Everything else is identical, so the difference between the two columns of register and login is the
password hashing; getUser, refreshToken and logout never hash and should not differ. Per step: p50 and p95
wall time in ms, from writing the request to reading its answer. Prints a table (Markdown) and saves the
figures to bench/results/session-cycle.json (git-ignored).

Exit status: 0 when every answer was right; 1 when something broke (an error answer, a crash, a hang,
a failed build). Python 3.11 standard library only.
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import json
import math
import os
import platform
import queue
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from benchlib.release import build_release

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
RESULTS = BENCH / "results"  # git-ignored
STEPS = ["register", "login", "getUser", "refreshToken", "logout"]
HASHING_STEPS = {"register", "login"}
TEST_KDF_ITERATIONS = 1000
DEFAULT_KDF_ITERATIONS = 600_000  # PasswordHasher.owasp
ANSWER_TIMEOUT = 60.0  # seconds without an answer before the sidecar counts as hung


class Broken(Exception):
    """A wrong answer, a crash or a hang: the run cannot be trusted."""


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=20, help="timed cycles per configuration (default 20)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed cycles first (default 2)")
    parser.add_argument("--sidecar", type=Path, help="measure this binary instead of building one")
    parser.add_argument(
        "--scratch-path",
        type=Path,
        default=Path(tempfile.gettempdir()) / "build-bench",
        help="swift build scratch path (default: %(default)s, shared with bench/run.py)",
    )
    parser.add_argument("--json", type=Path, default=RESULTS / "session-cycle.json", help="where to save the figures")
    args = parser.parse_args()
    if args.cycles < 1 or args.warmup < 0:
        parser.error("--cycles must be at least 1 and --warmup at least 0")
    return args


def build(scratch_path):
    binary, problem = build_release(scratch_path)
    if problem:
        raise Broken(problem)
    return binary


class Sidecar:
    """One long-lived sidecar in its own state dir; request() writes a line and waits for its answer."""

    def __init__(self, binary, label, kdf_iterations, root):
        self.label = label
        state = root / label.replace(" ", "-")
        (state / "config").mkdir(parents=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("AUTH_SIDECAR_")}
        env["AUTH_SIDECAR_STATE_DIR"] = str(state / "state")
        env["XDG_CONFIG_HOME"] = str(state / "config")  # no user config: the default `local` profile
        arguments = [str(binary), "--log-level", "error"]
        if kdf_iterations is not None:
            env["AUTH_SIDECAR_TEST_MODE"] = "1"
            arguments += ["--test-kdf-iterations", str(kdf_iterations)]
        self.stderr = open(state / "stderr.txt", "w+b")
        self.process = subprocess.Popen(
            arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, env=env, cwd=state
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def request(self, method, params):
        """Returns (wall seconds, result); raises Broken on an error answer, EOF or timeout."""
        self.next_id += 1
        ident = self.next_id
        line = json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}).encode() + b"\n"
        started = time.perf_counter()
        self.process.stdin.write(line)
        self.process.stdin.flush()
        while True:
            try:
                raw = self.lines.get(timeout=ANSWER_TIMEOUT)
            except queue.Empty:
                raise Broken(f"{self.label}: no answer to {method} within {ANSWER_TIMEOUT:.0f} s") from None
            if raw is None:
                raise Broken(f"{self.label}: the sidecar exited during {method} (status {self.process.poll()})")
            message = json.loads(raw)
            if message.get("id") == ident:
                elapsed = time.perf_counter() - started
                if "result" not in message:
                    raise Broken(f"{self.label}: {method} answered {message}")
                return elapsed, message["result"]
            # sessionChanged notifications come before the answer that caused them: skip them

    def close(self):
        self.process.stdin.close()
        try:
            status = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise Broken(f"{self.label}: did not exit after end of input") from None
        self.stderr.seek(0)
        errors = self.stderr.read().decode(errors="replace").strip()
        self.stderr.close()
        if status != 0:
            raise Broken(f"{self.label}: exit status {status}; stderr: {errors[-2000:]}")

    def peak_rss_mb(self):
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None


def cycle(sidecar, index, timings):
    """One register -> login -> getUser -> refreshToken -> logout; checks every answer's shape."""
    username = f"bench_{index}"
    password = f"Bench-cycle-password-{index}"
    steps = [
        ("register", {"username": username, "password": password}),
        ("login", {"username": username, "password": password}),
        ("getUser", {}),
        ("refreshToken", {"force": True}),
        ("logout", {}),
    ]
    for method, params in steps:
        elapsed, result = sidecar.request(method, params)
        if method in ("login", "getUser") and result.get("user", {}).get("username") != username:
            raise Broken(f"{sidecar.label}: {method} answered the wrong user: {result}")
        if method in ("login", "refreshToken") and not result.get("session", {}).get("accessToken"):
            raise Broken(f"{sidecar.label}: {method} answered no access token: {result}")
        if method == "logout" and result.get("loggedOut") is not True:
            raise Broken(f"{sidecar.label}: logout answered {result}")
        if timings is not None:
            timings[method].append(elapsed)
    if timings is not None:
        timings["cycle"].append(sum(timings[m][-1] for m in STEPS))


def percentile(values, fraction):
    """Nearest-rank percentile: the smallest value with at least `fraction` of the values at or below it."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(fraction * len(ordered))))
    return ordered[rank - 1]


def summarize(timings):
    return {
        step: {"p50_ms": percentile(values, 0.50) * 1000, "p95_ms": percentile(values, 0.95) * 1000,
               "mean_ms": statistics.fmean(values) * 1000, "n": len(values)}
        for step, values in timings.items()
    }


def table(test, default):
    rows = [
        "| step | test KDF p50 | test KDF p95 | default KDF p50 | default KDF p95 | hashing ≈ (p50 diff) | share of default p50 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for step in STEPS + ["cycle"]:
        t, d = test[step], default[step]
        diff = d["p50_ms"] - t["p50_ms"]
        share = f"{100 * diff / d['p50_ms']:.0f} %" if step in HASHING_STEPS | {"cycle"} and d["p50_ms"] > 0 else "–"
        hashing = f"{diff:.1f}" if step in HASHING_STEPS | {"cycle"} else f"({diff:+.2f})"
        name = "whole cycle" if step == "cycle" else step
        rows.append(
            f"| {name} | {t['p50_ms']:.2f} | {t['p95_ms']:.2f} | {d['p50_ms']:.2f} | {d['p95_ms']:.2f} | {hashing} | {share} |"
        )
    return "\n".join(rows)


def main():
    args = parse_arguments()
    try:
        binary = args.sidecar.resolve() if args.sidecar else build(args.scratch_path)
        if not os.access(binary, os.X_OK):
            raise Broken(f"not an executable: {binary}")
        load_before = os.getloadavg()[0]
        root = Path(tempfile.mkdtemp(prefix="auth-session-cycle-"))
        try:
            test = Sidecar(binary, f"test KDF {TEST_KDF_ITERATIONS}", TEST_KDF_ITERATIONS, root)
            default = Sidecar(binary, f"default KDF {DEFAULT_KDF_ITERATIONS}", None, root)
            timings = {s.label: {step: [] for step in STEPS + ["cycle"]} for s in (test, default)}
            started = time.monotonic()
            for index in range(args.warmup + args.cycles):
                for sidecar in (test, default) if index % 2 == 0 else (default, test):
                    cycle(sidecar, index, timings[sidecar.label] if index >= args.warmup else None)
            wall = time.monotonic() - started
            rss = {s.label: s.peak_rss_mb() for s in (test, default)}
            test.close()
            default.close()
        finally:
            shutil.rmtree(root, ignore_errors=True)
    except Broken as problem:
        print(f"BROKEN: {problem}", file=sys.stderr)
        return 1

    summary = {label: summarize(values) for label, values in timings.items()}
    test_summary, default_summary = summary[test.label], summary[default.label]
    print()
    print(
        f"{args.cycles} timed cycles per configuration (+{args.warmup} warm-up), interleaved, one long-lived "
        f"sidecar each; {os.cpu_count()} cores, load {load_before:.2f} -> {os.getloadavg()[0]:.2f}; "
        f"{wall:.1f} s in all"
    )
    print(f"binary: {binary}")
    print("wall time per step in ms, from writing the request to reading its answer:")
    print()
    print(table(test_summary, default_summary))
    print()
    print(
        "peak RSS: "
        + ", ".join(f"{label} {mb:.1f} MB" if mb is not None else f"{label} ?" for label, mb in rss.items())
    )
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {
                "cycles": args.cycles,
                "warmup": args.warmup,
                "binary": str(binary),
                "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "load": os.getloadavg()},
                "summary": summary,
                "raw_seconds": timings,
                "peak_rss_mb": rss,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"saved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
