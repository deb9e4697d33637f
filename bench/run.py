#!/usr/bin/env python3
"""Benchmarks auth-sidecar's `validate` against the Python and Node peers in bench/peers/, in one run.

    python3 bench/run.py            # the full run (about 30 s on 2 cores, plus the build)
    python3 bench/run.py --quick    # a smoke test with small counts

Builds the sidecar (scripts/build-release, the shipped recipe) and the C reference, checks every implementation's
answers against the rules, then measures cold start, pipelined throughput, sequential round-trip
latency and peak RSS, interleaving the implementations so that drift in the machine's load hits all
three alike. Prints the figures, the sidecar's ratios to each peer and the product's performance bars.

Exit status: 0 when everything answered correctly, even if a bar fails (this is a report);
1 when something broke: a wrong answer, a crash, a hang, or a failed build.
Python 3.11 standard library only. bench/README.md explains each figure.
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from benchlib.conformance import conformance
from benchlib.measure import RoundTrips, Workload, cold_start, idle_rss, send_and_read, throughput, with_server
from benchlib.reference import build_reference
from benchlib.release import LABEL as RELEASE_LABEL
from benchlib.release import build_release
from benchlib.report import Tally, bars, figures, problem_lines, ratios, table
from benchlib.servers import Implementation, ServerFailure

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PEER_DIR = BENCH / "peers"
RESULTS = BENCH / "results"  # git-ignored


@dataclass(frozen=True)
class Plan:
    cold_runs: int  # per implementation, interleaved A B C A B C …
    idle_runs: int  # idle RSS samples per implementation, the median reported
    requests: int  # timed pipelined requests per throughput run
    warmup: int  # untimed pipelined requests before them
    rounds: int  # throughput runs per implementation, interleaved; the median is reported
    round_trips: int  # timed sequential round trips per implementation
    round_trip_warmup: int
    round_trip_block: int  # round trips in a row before switching to the next implementation


FULL = Plan(40, 5, 100_000, 2_000, 3, 5_000, 500, 250)
QUICK = Plan(5, 1, 3_000, 200, 1, 300, 50, 100)


def main():
    args = parse_arguments()
    plan = QUICK if args.quick else FULL
    machine = describe_machine()
    binary, build_problem = locate_sidecar(args)
    reference, reference_problem = build_reference(args.scratch_path / "reference")
    impls = implementations(binary, reference, built=not args.sidecar)
    tallies = {impl.name: Tally(impl.name, impl.label) for impl in impls}
    if build_problem:
        tallies["sidecar"].failure = build_problem
    if reference_problem:
        tallies["c"].failure = reference_problem
    with stderr_files(impls) as stderr:
        session = Session(impls, tallies, stderr)
        session.check_answers()
        session.measure_cold_start(plan.cold_runs)
        session.measure_idle_rss(plan.idle_runs)
        session.measure_throughput(plan)
        session.measure_latency(plan)
        session.print_stderr_of_failures()
    machine["load_average_at_end"] = os.getloadavg()
    broken = report(tallies.values(), session.harness, machine, plan, "quick" if args.quick else "full")
    return 1 if broken else 0


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke test")
    parser.add_argument("--sidecar", type=Path, help="measure this binary instead of building one")
    parser.add_argument(
        "--scratch-path",
        type=Path,
        default=Path(tempfile.gettempdir()) / "build-bench",
        help="swift build scratch path (default: %(default)s), kept apart from other builds",
    )
    return parser.parse_args()


# MARK: setup


def describe_machine():
    """Prints and returns what the figures depend on; the load matters on a shared machine."""
    machine = {
        "cores": os.cpu_count(),
        "cpu": cpu_model(),
        "system": f"{platform.system()} {platform.release()}",
        "load_average_at_start": os.getloadavg(),
    }
    print(f"machine: {machine['cores']} cores, {machine['cpu']}, {machine['system']}")
    print("load average at start: " + ", ".join(f"{value:.2f}" for value in machine["load_average_at_start"]))
    return machine


def cpu_model():
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            return next(line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.machine()


def locate_sidecar(args):
    """Returns (path of the binary, None) or (None, why there is none)."""
    if args.sidecar:
        return args.sidecar.resolve(), None
    return build_release(args.scratch_path)


def implementations(binary, reference, built):
    node = shutil.which("node") or "node"
    sidecar_label = RELEASE_LABEL if built else f"the binary {binary}"
    return [
        Implementation("sidecar", (str(binary),), sidecar_label),
        Implementation("c", (str(reference),), "C reference (bench/reference), cc -O2, libc only"),
        Implementation(
            "python",
            (sys.executable, str(PEER_DIR / "python_asyncio_server.py")),
            f"Python {platform.python_version()}, asyncio stdio",
        ),
        Implementation("node", (node, str(PEER_DIR / "node_readline_server.mjs")), f"Node {version_of(node)}, readline"),
    ]


def version_of(program):
    try:
        return subprocess.run([program, "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "(not found)"


class stderr_files:
    """One temporary file per implementation collects the stderr of all its processes."""

    def __init__(self, impls):
        self.files = {impl.name: tempfile.TemporaryFile() for impl in impls}

    def __enter__(self):
        return self.files

    def __exit__(self, *exc):
        for file in self.files.values():
            file.close()


def tail(text, lines=25):
    return "\n".join(text.rstrip().splitlines()[-lines:])


# MARK: the run


class Session:
    """The implementations still standing, and what each phase found about them."""

    def __init__(self, impls, tallies, stderr):
        self.impls = impls
        self.tallies = tallies
        self.stderr = stderr
        self.harness = {}  # what the runner alone costs, measured with `cat`

    def live(self):
        """The implementations that have not crashed or hung so far, in the fixed A B C order."""
        return [impl for impl in self.impls if self.tallies[impl.name].failure is None]

    def attempt(self, impl, phase, action, *args):
        """Returns `action(*args)`; a crash or hang takes `impl` out of the rest of the run."""
        try:
            return action(*args)
        except ServerFailure as failure:
            self.tallies[impl.name].failure = f"{phase}: {failure}"
            return None

    def check_answers(self):
        """Every template and protocol case once per implementation, checked in full."""
        print("checking answers …", flush=True)
        for impl in self.live():
            tally = self.tallies[impl.name]
            try:
                problems, _ = with_server(impl, self.stderr[impl.name], conformance)
            except ServerFailure as failure:
                problems = [("server", str(failure))]
            for where, problem in problems:
                tally.note(f"answer check, {where}", problem)

    def measure_cold_start(self, runs):
        print(f"cold start: {runs} runs each, interleaved …", flush=True)
        floor = []
        for _ in range(runs):
            floor.append(spawn_floor())
            for impl in self.live():
                self.attempt(impl, "cold start", self._cold_start_once, impl)
        self.harness["spawn_floor_ms"] = statistics.median(floor) * 1e3

    def _cold_start_once(self, impl):
        seconds, problem = cold_start(impl, self.stderr[impl.name])
        tally = self.tallies[impl.name]
        tally.cold_seconds.append(seconds)
        if problem:
            tally.note("cold start", problem)

    def measure_idle_rss(self, runs):
        print(f"idle RSS: {runs} runs each …", flush=True)
        for _ in range(runs):
            for impl in self.live():
                self.attempt(impl, "idle RSS", self._idle_rss_once, impl)

    def _idle_rss_once(self, impl):
        rss, problem = idle_rss(impl, self.stderr[impl.name])
        tally = self.tallies[impl.name]
        if rss is not None:
            tally.idle_rss_bytes.append(rss)
        if problem:
            tally.note("idle RSS", problem)

    def measure_throughput(self, plan):
        print(f"throughput: {plan.rounds} × {plan.requests:,} pipelined requests each, interleaved …", flush=True)
        workload = Workload(plan.warmup + plan.requests)
        ceiling = []
        for _ in range(plan.rounds):
            ceiling.append(harness_ceiling(workload, plan.warmup))
            for impl in self.live():
                self.attempt(impl, "throughput", self._throughput_once, impl, workload, plan.warmup)
        self.harness["ceiling_lines_per_s"] = statistics.median(ceiling)

    def _throughput_once(self, impl, workload, warmup):
        rate, rss, lines = throughput(impl, self.stderr[impl.name], workload, warmup)
        checker = workload.check(lines)
        tally = self.tallies[impl.name]
        tally.rates.append(rate)
        tally.add_rss(rss)
        for (where, problem), count in checker.problems.items():
            tally.note(f"throughput, {where}", problem, count)

    def measure_latency(self, plan):
        blocks = plan.round_trips // plan.round_trip_block
        print(f"latency: {blocks * plan.round_trip_block:,} round trips each, in blocks of "
              f"{plan.round_trip_block}, interleaved …", flush=True)
        workload = Workload(plan.round_trip_warmup + blocks * plan.round_trip_block, seed=7)
        trips = {}
        for impl in self.live():  # all stay up, so that switching between them costs no spawn
            if run := self.attempt(impl, "latency", RoundTrips, impl, self.stderr[impl.name], workload):
                trips[impl.name] = run
                self.attempt(impl, "latency", run.run, plan.round_trip_warmup, False)
        for _ in range(blocks):
            for impl in self.live():
                self.attempt(impl, "latency", trips[impl.name].run, plan.round_trip_block)
        for impl in self.live():
            self.attempt(impl, "latency", self._finish_round_trips, impl, trips[impl.name])
        for run in trips.values():
            if run.server.proc.returncode is None:  # it failed: stop it
                run.abandon()

    def _finish_round_trips(self, impl, run):
        rss, checker = run.finish()
        tally = self.tallies[impl.name]
        tally.latencies_us = run.microseconds
        tally.add_rss(rss)
        for (where, problem), count in checker.problems.items():
            tally.note(f"latency, {where}", problem, count)

    def print_stderr_of_failures(self):
        for impl in self.impls:
            tally = self.tallies[impl.name]
            if tally.failure or tally.problems:
                file = self.stderr[impl.name]
                file.seek(max(0, file.seek(0, os.SEEK_END) - 2000))
                text = file.read().decode(errors="replace").strip()
                if text:
                    print(f"{impl.name} stderr (last lines):\n{tail(text, 10)}")


CAT = Implementation("cat", ("cat",), "an echo server: what the harness alone costs")


def spawn_floor():
    """Cold start of `cat`, which echoes the request back: the part of a cold start that is the harness's."""
    started = time.perf_counter()
    with_server(CAT, subprocess.DEVNULL, lambda server: send_and_read(server, b"{}\n"), sample_rss=False)
    return time.perf_counter() - started


def harness_ceiling(workload, warmup):
    """Lines/s through `cat`: the most the runner's writer and reader can carry."""
    rate, _, _ = throughput(CAT, subprocess.DEVNULL, workload, warmup)
    return rate


# MARK: report


def report(tallies, harness, machine, plan, mode):
    """Prints and saves the figures; returns True when something broke."""
    tallies = list(tallies)
    all_figures = {tally.name: figures(tally) for tally in tallies}
    all_ratios = ratios(all_figures)
    all_bars = bars(all_figures, all_ratios)
    print()
    for tally in tallies:
        print(f"{tally.name:8} {tally.label}")
    print()
    print(table(tallies, all_figures, all_ratios))
    print("(sidecar ÷ c: the sidecar's figure divided by the C reference's, measured in the same run;")
    print(" vs python, vs node: how many times better the sidecar is on that figure)")
    print("harness alone (cat as the server): cold start {:.2f} ms, {:,.0f} lines/s".format(
        harness.get("spawn_floor_ms", float("nan")), harness.get("ceiling_lines_per_s", float("nan"))))
    print()
    for status, description in all_bars:
        print(f"{status:4}  {description}")
    broken = print_problems(tallies)
    save(mode, plan, machine, tallies, harness, all_figures, all_ratios, all_bars)
    return broken


def print_problems(tallies):
    broken = False
    for tally in tallies:
        if tally.failure:
            print(f"\nBROKEN {tally.name}: {tally.failure}")
        if tally.problems:
            total = sum(tally.problems.values())
            print(f"\nWRONG ANSWERS {tally.name}: {total}")
            print("\n".join(problem_lines(tally)))
        broken = broken or bool(tally.failure or tally.problems)
    if not broken:
        print("\nall answers correct")
    return broken


def save(mode, plan, machine, tallies, harness, all_figures, all_ratios, all_bars):
    RESULTS.mkdir(exist_ok=True)
    record = {
        "mode": mode,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": machine,
        "plan": asdict(plan),
        "implementations": {tally.name: tally.label for tally in tallies},
        "figures": all_figures,
        "harness": harness,
        "ratios": all_ratios,
        "bars": [{"status": status, "bar": description} for status, description in all_bars],
        "failures": {tally.name: tally.failure for tally in tallies if tally.failure},
        "wrong_answers": {tally.name: sum(tally.problems.values()) for tally in tallies},
    }
    path = RESULTS / f"latest-{mode}.json"
    path.write_text(json.dumps(record, indent=2) + "\n")
    print(f"saved {path.relative_to(ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
