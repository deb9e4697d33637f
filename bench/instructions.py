#!/usr/bin/env python3
"""Instructions per request under callgrind: a figure that does not depend on the machine's load.

    python3 bench/instructions.py                      # build the release (scripts/build-release) and the C reference
    python3 bench/instructions.py --sidecar PATH       # measure that binary, skip the build
    python3 bench/instructions.py --small 1000 --large 6000

Each implementation reads a file of requests on stdin and writes its answers to a file, under
`valgrind --tool=callgrind`, twice: with `--small` and with `--large` requests of one corpus. The difference
of the two instruction counts divided by the difference of the request counts is the cost of one request,
with start-up, exit and everything else that happens once cancelled out. Deterministic up to the few
instructions a thread's scheduling can move, so it tracks the hot path across commits and machines.

Corpora:
  three-field   the register form (username, email, password; all valid), about 170 bytes per line
  mixed         bench/run.py's throughput mix: every template, about 10 % error answers
  batch-N       three-field requests in JSON-RPC batches of N (1, 10, 100, 1000): per element, against
                three-field plain lines (the batch curve)

Every answer file is checked: one answer line per request (per batch), no error where a result is due.
Prints a table and saves bench/results/instructions.json (git-ignored). Exit 1 when something broke.
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import json
import re
import subprocess
import tempfile
from pathlib import Path

from benchlib.cases import COLD_START
from benchlib.measure import Workload
from benchlib.reference import build_reference
from benchlib.release import add_binary_arguments, sidecar_binary

BENCH = Path(__file__).resolve().parent
RESULTS = BENCH / "results"
COLLECTED = re.compile(rb"Collected : (\d+)")
BATCH_SIZES = (1, 10, 100, 1000)


class Broken(Exception):
    pass


def three_field(count):
    return b"".join(COLD_START.request(i) for i in range(1, count + 1)), count


def mixed(count):
    workload = Workload(count, seed=11)
    return workload.payload(1, count), count


def batches(size):
    def make(count):
        lines = []
        for first in range(1, count + 1, size):
            elements = [COLD_START.request(i).rstrip(b"\n") for i in range(first, min(first + size, count + 1))]
            lines.append(b"[" + b",".join(elements) + b"]\n")
        return b"".join(lines), len(lines)

    return make


def corpora():
    return [("three-field", three_field), ("mixed", mixed)] + [(f"batch-{n}", batches(n)) for n in BATCH_SIZES]


def instructions(binary, payload, answers_expected, scratch):
    """Runs `binary` on `payload` under callgrind; returns the instructions it executed, all threads."""
    requests, answers = scratch / "requests.jsonl", scratch / "answers.jsonl"
    requests.write_bytes(payload)
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={scratch / 'callgrind.out'}", str(binary)]
    with open(requests, "rb") as stdin, open(answers, "wb") as stdout:
        run = subprocess.run(command, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, timeout=900)
    if run.returncode != 0:
        raise Broken(f"{binary.name} exited with {run.returncode}: {run.stderr[-600:].decode(errors='replace')}")
    lines = answers.read_bytes().splitlines()
    if len(lines) != answers_expected:
        raise Broken(f"{binary.name}: {len(lines)} answer lines for {answers_expected} requests")
    found = COLLECTED.search(run.stderr)
    if not found:
        raise Broken("no instruction count in valgrind's output")
    return int(found[1])


def per_request(binary, make, small, large, scratch):
    small_payload, small_answers = make(small)
    large_payload, large_answers = make(large)
    low = instructions(binary, small_payload, small_answers, scratch)
    high = instructions(binary, large_payload, large_answers, scratch)
    return (high - low) / (large - small)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=1000, help="requests in the small run (default 1000)")
    parser.add_argument("--large", type=int, default=6000, help="requests in the large run (default 6000)")
    add_binary_arguments(parser)
    args = parser.parse_args()
    sidecar, problem = sidecar_binary(args)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    reference, problem = build_reference(args.scratch_path / "reference")
    if problem:
        print(problem, file=sys.stderr)
        return 1
    figures = {"sidecar": {}, "c": {}}
    with tempfile.TemporaryDirectory() as directory:
        scratch = Path(directory)
        # Stripped, as shipped: valgrind 3.19 cannot read the DWARF 5 the toolchain writes, and gives up.
        subprocess.run(["strip", "-o", str(scratch / "auth-sidecar"), str(sidecar)], check=True)
        sidecar = scratch / "auth-sidecar"
        for name, make in corpora():
            for impl, binary in (("sidecar", sidecar), ("c", reference)):
                print(f"callgrind: {impl}, {name} …", flush=True)
                try:
                    figures[impl][name] = per_request(binary, make, args.small, args.large, scratch)
                except (Broken, subprocess.TimeoutExpired) as error:
                    print(f"BROKEN {impl} {name}: {error}", file=sys.stderr)
                    return 1
    print()
    print(f"{'instructions per request':28}{'sidecar':>12}{'c':>12}{'sidecar ÷ c':>13}{'÷ plain':>10}")
    for name, _ in corpora():
        side, c = figures["sidecar"][name], figures["c"][name]
        plain = f"{side / figures['sidecar']['three-field']:.2f}×" if name.startswith("batch") else ""
        print(f"{name:28}{side:>12,.0f}{c:>12,.0f}{side / c:>12.2f}×{plain:>10}")
    print("(batch-N: per element; ÷ plain: the sidecar's cost per element over a plain three-field line)")
    RESULTS.mkdir(exist_ok=True)
    record = {"small": args.small, "large": args.large, "instructions_per_request": figures}
    (RESULTS / "instructions.json").write_text(json.dumps(record, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
