#!/usr/bin/env python3
"""Client overhead: 10,000 sequential `validate` calls through the Python and Node clients,
each compared in the same run with raw writes and reads on the sidecar's pipes.

    python3 bench/client_overhead.py [--sidecar PATH]

Builds the release binary (as bench/run.py does) unless --sidecar is given, then runs
clients/python/bench_overhead.py and clients/node/bench/overhead.mjs against it and prints
their reports. Both print the raw-pipe time, the client time and the ratio.
"""
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import os
import pathlib
import subprocess

from benchlib.release import build_release

ROOT = pathlib.Path(__file__).resolve().parent.parent


def build() -> str:
    scratch = pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / "build-bench"
    binary, problem = build_release(scratch)
    if problem:
        sys.exit(problem)
    return str(binary)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sidecar", help="an auth-sidecar binary to use instead of building one")
    args = parser.parse_args()
    binary = args.sidecar or build()
    env = dict(os.environ, AUTH_SIDECAR_BIN=binary)
    # The Python client from the source tree, so no install is needed to run the benchmark.
    env["PYTHONPATH"] = str(ROOT / "clients" / "python" / "src")
    print("== Python client")
    python = subprocess.run([sys.executable, str(ROOT / "clients/python/bench_overhead.py")], env=env)
    print("== Node client")
    node = subprocess.run(["node", str(ROOT / "clients/node/bench/overhead.mjs")], env=env)
    return python.returncode or node.returncode


if __name__ == "__main__":
    sys.exit(main())
