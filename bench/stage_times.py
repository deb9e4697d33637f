#!/usr/bin/env python3
"""The sidecar's own time in a remote call, stage by stage, for one or two builds run side by side.

    python3 bench/stage_times.py path/to/auth-sidecar                    # 300 logins after 20 warm-up
    python3 bench/stage_times.py OLD/auth-sidecar NEW/auth-sidecar       # interleaved; prints NEW - OLD
    python3 bench/stage_times.py OLD NEW --method getUser --rounds 500   # getUser {refresh: true}

Why: a change of tens of microseconds is real (it is paid on every call) but invisible end to end: the Django
server's password hash varies by milliseconds from call to call, so `login_ab.py`'s paired median moves by
±0.2 ms at 400 rounds even between two copies of one binary. Here the clock runs inside the sidecar, between the
system calls that bound each stage of its own work, and the server's time is in no stage.

A small library (bench/reference/stage_timer.c, compiled into the temp directory with `cc`) is loaded into each
sidecar with LD_PRELOAD; it wraps read, epoll_wait, recv, send, sendto and write, and times per thread:

  request read -> first HTTP request sent   the request line read from stdin until the first request goes out
  network wake -> response read             the HTTP thread's epoll_wait returning until libcurl's first recv
  response read -> next HTTP request sent   a response's first recv until the next request goes out (a login's
                                            user request after its token response)
  response read -> answer written           a response's first recv until the answer line is written

Not timed: the wake-ups themselves (the host's write until the sidecar's read returns, and the answer's write
until the host reads it), which depend on the kernel and the VM, not on the sidecar's code. The server, the
config and the calls are remote_login.py's (the Django test server under the repo's .venv python, a `rest`
profile; a login is POST /api/token/ + GET /api/me/). Each sidecar has its own state dir; the order of the two
alternates every round, with `--pause-ms` after each call.

Prints, per stage, the p50 of each build with its p25-p75 and the sample count, the difference of the p50s, and
the sum of the stages' p50s per call. Exit status: 0 when the run completed, 1 when something broke. Linux, glibc
and a C compiler; Python 3.11 standard library only; leaves nothing behind.
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

import remote_login
from benchlib.reference import compile_c

BENCH = Path(__file__).resolve().parent
TIMER_SOURCE = BENCH / "reference" / "stage_timer.c"
STAGES = (
    "request read -> first HTTP request sent",
    "network wake -> response read",
    "response read -> next HTTP request sent",
    "response read -> answer written",
)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sidecars", nargs="+", type=Path, metavar="SIDECAR", help="one or two sidecar binaries")
    parser.add_argument("--method", choices=("login", "getUser"), default="login")
    parser.add_argument("--rounds", type=int, default=300, help="timed calls per sidecar (default %(default)s)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed calls first (default %(default)s)")
    parser.add_argument("--pause-ms", type=float, default=2.0, help="pause after each call (default %(default)s)")
    args = parser.parse_args()
    if len(args.sidecars) > 2:
        parser.error("one or two sidecars")
    return args


def read_samples(path, skip):
    """{stage: [microseconds]} from the timer's file, without each stage's first `skip` samples (the warm-up)."""
    samples = {stage: [] for stage in range(len(STAGES))}
    for line in path.read_text().splitlines():
        stage, micros = line.split()
        samples[int(stage)].append(float(micros))
    return {stage: values[skip:] for stage, values in samples.items()}


def quartiles(values):
    ordered = sorted(values)
    return tuple(ordered[int(len(ordered) * q)] for q in (0.25, 0.5, 0.75))


def report(args, names, samples):
    print(f"{args.method}: {args.rounds} calls per sidecar after {args.warmup} warm-up, interleaved; microseconds "
          f"inside the sidecar, p50 (p25-p75, samples)\n")
    header = "| stage | " + " | ".join(names) + (" | B - A, p50 |" if len(names) == 2 else " |")
    print(header)
    print("|---|" + "---:|" * (len(names) + (1 if len(names) == 2 else 0)))
    totals = [0.0] * len(names)
    for stage, title in enumerate(STAGES):
        cells, medians = [], []
        for side, per_stage in enumerate(samples):
            values = per_stage[stage]
            if not values:
                cells.append("-")
                medians.append(None)
                continue
            low, median, high = quartiles(values)
            totals[side] += median
            medians.append(median)
            cells.append(f"{median:.1f} ({low:.0f}-{high:.0f}, {len(values)})")
        if all(m is None for m in medians):
            continue
        difference = ""
        if len(names) == 2:
            difference = f" {medians[1] - medians[0]:+.1f} |" if None not in medians else " - |"
        print(f"| {title} | " + " | ".join(cells) + " |" + difference)
    total_difference = f" {totals[1] - totals[0]:+.1f} |" if len(names) == 2 else ""
    print("| sum of the p50s | " + " | ".join(f"{total:.1f}" for total in totals) + " |" + total_difference)


def main():
    args = parse_arguments()
    names = ["A", "B"][: len(args.sidecars)]
    directory = Path(tempfile.mkdtemp(prefix="stage-times-bench-"))
    server, sidecars = None, []
    try:
        timer, problem = compile_c(TIMER_SOURCE, directory / "stage_timer.so", ["-shared", "-fPIC", "-ldl"])
        if timer is None:
            print(f"stage_times.py: {problem}", file=sys.stderr)
            return 1
        server = remote_login.Server(directory)
        config = directory / "config.json"
        config.write_text(json.dumps(remote_login.rest_config(server.url)))
        outputs = []
        for name, binary in zip(names, args.sidecars):
            workdir = directory / name
            workdir.mkdir()
            outputs.append(workdir / "stages.txt")
            prefix = ["env", f"LD_PRELOAD={timer}", f"STAGE_TIMER_OUT={outputs[-1]}"]
            sidecars.append(remote_login.Sidecar(binary.resolve(), workdir, config, prefix=prefix))
        call = remote_login.sidecar_login if args.method == "login" else remote_login.sidecar_get_user
        if args.method == "getUser":
            for sidecar in sidecars:
                remote_login.sidecar_login(sidecar)
        for round_ in range(args.warmup + args.rounds):
            for sidecar in sidecars if round_ % 2 == 0 else reversed(sidecars):
                call(sidecar)
                time.sleep(args.pause_ms / 1e3)
        for sidecar in sidecars:
            if sidecar.close() != 0:
                raise remote_login.Broken(f"a sidecar exited badly: {sidecar.stderr_tail()}")
        # A getUser run's login before the warm-up adds one sample to the stages it touches.
        skip = args.warmup + (1 if args.method == "getUser" else 0)
        report(args, names, [read_samples(path, skip) for path in outputs])
        return 0
    except remote_login.Broken as error:
        print(f"stage_times.py: {error}", file=sys.stderr)
        return 1
    finally:
        for sidecar in sidecars:
            sidecar.close()
        if server is not None:
            server.stop()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
