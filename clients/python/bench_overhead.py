#!/usr/bin/env python3
"""Client overhead: N sequential ``validate`` calls through ``AuthSidecar`` (and
``AsyncAuthSidecar``) against raw line writes/reads on the same kind of pipe, in one run.

    AUTH_SIDECAR_BIN=.build/release/auth-sidecar python3 clients/python/bench_overhead.py [-n 10000]

Standard library only. Each side gets its own sidecar process and a warm-up. The raw loop is the
floor: one pre-encoded request line written and flushed, one answer line read (not parsed).
The client loop builds params, encodes JSON, matches the answer by id on its reader thread,
parses it and returns the dict.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

from auth_sidecar import AsyncAuthSidecar, AuthSidecar, resolve_binary  # noqa: E402

PARAMS = b'"params":{"username":"alice_42","purpose":"login"}}\n'


def raw(binary: str, state_dir: str, n: int) -> float:
    proc = subprocess.Popen([binary, "--state-dir", state_dir], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    write, flush, readline = proc.stdin.write, proc.stdin.flush, proc.stdout.readline
    lines = [b'{"jsonrpc":"2.0","id":%d,"method":"validate",%s' % (i, PARAMS) for i in range(n + 500)]
    for line in lines[:500]:
        write(line)
        flush()
        readline()
    started = time.perf_counter()
    for line in lines[500:]:
        write(line)
        flush()
        answer = readline()
    elapsed = time.perf_counter() - started
    assert b'"valid":true' in answer, answer
    proc.stdin.close()
    proc.wait()
    return elapsed


def client(binary: str, state_dir: str, n: int) -> float:
    with AuthSidecar(binary, state_dir=state_dir) as sidecar:
        for _ in range(500):
            sidecar.validate(username="alice_42", purpose="login")
        started = time.perf_counter()
        for _ in range(n):
            result = sidecar.validate(username="alice_42", purpose="login")
        elapsed = time.perf_counter() - started
        assert result["valid"] is True
    return elapsed


def async_client(binary: str, state_dir: str, n: int) -> float:
    async def main() -> float:
        async with AsyncAuthSidecar(binary, state_dir=state_dir) as sidecar:
            for _ in range(500):
                await sidecar.validate(username="alice_42", purpose="login")
            started = time.perf_counter()
            for _ in range(n):
                result = await sidecar.validate(username="alice_42", purpose="login")
            elapsed = time.perf_counter() - started
            assert result["valid"] is True
        return elapsed

    return asyncio.run(main())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=10_000, help="sequential calls per side (default 10000)")
    parser.add_argument("--binary", help="the auth-sidecar executable (else AUTH_SIDECAR_BIN, else PATH)")
    options = parser.parse_args()
    binary = resolve_binary(options.binary)
    n = options.n
    with tempfile.TemporaryDirectory() as tmp:
        raw_s = raw(binary, os.path.join(tmp, "raw"), n)
        sync_s = client(binary, os.path.join(tmp, "sync"), n)
        async_s = async_client(binary, os.path.join(tmp, "async"), n)
    print(f"binary: {binary}")
    print(f"python: {sys.version.split()[0]}, {n} sequential validate calls each")
    rows = [("raw pipe (floor)", raw_s), ("AuthSidecar", sync_s), ("AsyncAuthSidecar", async_s)]
    for name, seconds in rows:
        print(f"{name:18} {seconds:7.3f} s  {seconds / n * 1e6:7.1f} us/call  {n / seconds:9.0f} calls/s"
              f"  ratio {seconds / raw_s:5.2f}x")
    print(f"overhead per call: sync +{(sync_s - raw_s) / n * 1e6:.1f} us, async +{(async_s - raw_s) / n * 1e6:.1f} us")


if __name__ == "__main__":
    main()
