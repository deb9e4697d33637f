#!/usr/bin/env python3
"""Cold start and idle RSS of release recipes side by side with the C reference, in one run.

    python3 bench/startup.py                     # builds both recipes of scripts/build-release, then measures
    python3 bench/startup.py --binary static=PATH --binary dynamic=PATH   # measure these builds instead

The recipes: `static` (what scripts/build-release ships: Swift runtime, libstdc++, libcrypto and libsqlite3
linked in, packed relative relocations) and `dynamic` (scripts/build-release --dynamic: only the Swift runtime
linked in). Cold start is bench/run.py's (spawn → one register-form `validate` → its answer → end of input →
exit), interleaved across the binaries; idle RSS is VmRSS after that one answer. Every answer is checked.
Prints medians and each binary's ratio to the C reference; saves bench/results/startup.json (git-ignored).
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

from benchlib.measure import cold_start, idle_rss
from benchlib.reference import build_reference
from benchlib.release import build_release
from benchlib.servers import Implementation

RESULTS = Path(__file__).resolve().parent / "results"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", action="append", default=[], metavar="NAME=PATH", help="a build to measure")
    parser.add_argument("--runs", type=int, default=40, help="cold starts per binary (default 40)")
    parser.add_argument(
        "--scratch-path", type=Path, default=Path(tempfile.gettempdir()) / "build-bench",
        help="build directory (default: %(default)s); the dynamic recipe builds in its sibling -dynamic",
    )
    args = parser.parse_args()
    binaries = dict(entry.split("=", 1) for entry in args.binary)
    if not binaries:
        for name, scratch, dynamic in (("static", args.scratch_path, False),
                                       ("dynamic", Path(f"{args.scratch_path}-dynamic"), True)):
            binary, problem = build_release(scratch, dynamic=dynamic)
            if problem:
                print(problem, file=sys.stderr)
                return 1
            binaries[name] = binary
    reference, problem = build_reference(args.scratch_path / "reference")
    if problem:
        print(problem, file=sys.stderr)
        return 1
    impls = [Implementation(name, (str(path),), str(path)) for name, path in binaries.items()]
    impls.append(Implementation("c", (str(reference),), "C reference"))
    cold = {impl.name: [] for impl in impls}
    idle = {impl.name: [] for impl in impls}
    print(f"cold start: {args.runs} runs each, interleaved; idle RSS: 5 each …", flush=True)
    for run in range(args.runs):
        for impl in impls:
            seconds, wrong = cold_start(impl, subprocess.DEVNULL)
            cold[impl.name].append(seconds * 1e3)
            if run < 5:
                rss, wrong_too = idle_rss(impl, subprocess.DEVNULL)
                idle[impl.name].append(rss / 1e6)
                wrong = wrong or wrong_too
            if wrong:
                print(f"WRONG ANSWER from {impl.name}: {wrong}", file=sys.stderr)
                return 1
    figures = {
        name: {"cold_start_median_ms": statistics.median(cold[name]), "cold_start_min_ms": min(cold[name]),
               "idle_rss_mb": statistics.median(idle[name])}
        for name in cold
    }
    c = figures["c"]
    print(f"\n{'':10}{'cold start p50 (ms)':>20}{'min (ms)':>10}{'÷ c':>8}{'idle RSS (MB)':>15}{'÷ c':>8}")
    for name, figure in figures.items():
        print(f"{name:10}{figure['cold_start_median_ms']:>20.2f}{figure['cold_start_min_ms']:>10.2f}"
              f"{figure['cold_start_median_ms'] / c['cold_start_median_ms']:>7.2f}×"
              f"{figure['idle_rss_mb']:>15.1f}{figure['idle_rss_mb'] / c['idle_rss_mb']:>7.1f}×")
    RESULTS.mkdir(exist_ok=True)
    record = {"runs": args.runs, "binaries": {name: str(path) for name, path in binaries.items()}, "figures": figures}
    (RESULTS / "startup.json").write_text(json.dumps(record, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
