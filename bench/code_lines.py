#!/usr/bin/env python3
"""Lines of machine code a remote `login` and `getUser` run, per call and per thread, under callgrind, against
libcurl driven from C making the same HTTP calls.

    python3 bench/code_lines.py                          # build the release (scripts/build-release) first
    python3 bench/code_lines.py --sidecar PATH           # measure that binary, skip the build
    python3 bench/code_lines.py --small 10 --large 40

Why lines and not time or instructions: between two calls a host waits, and the server works for milliseconds,
so every line of code (and data) a call touches comes from memory again. On the 2-vCPU VMs these benches run on,
84 KB of straight-line code added to each answer made `getUser` 0.16 ms slower (about 120 ns per 64-byte line)
while adding under 10,000 instructions: what the sidecar adds over a C client tracks the code it touches per
exchange, which callgrind counts exactly and without noise, where a wall-clock run moves by tenths of a
millisecond with the machine's neighbours (bench/README.md, "Code run per remote call").

Each side runs twice under `valgrind --tool=callgrind --separate-threads=yes --dump-instr=yes`, with `--small`
and with `--large` calls, against the Django test server (Tests/Servers/serve.py, as bench/remote_login.py runs
it, with its config). A 64-byte line of code counts for a call when the large run executed it more often than the
small one, weighted by how often its function was called per call (at most once): code that ran only now and then
(a statement compiled once, a timer) counts for its share. Start-up and exit cancel out. Per thread:

  request   the sidecar's reader thread (it reads the request and sends the first HTTP request itself), the C
            client's main thread;
  answers   the sidecar's HTTP thread (every answer, and what a login does between its two requests), the C
            client's epoll thread.

For `getUser` the reader also reads the store, after its request is out: off the answer's path, and the share
that varies between runs (the store compiles a statement now and then). Needs valgrind (skipped with a note
otherwise) and a C compiler with libcurl's headers for the C side. Python 3.11 standard library only; leaves
nothing behind.
"""

import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree

import argparse
import collections
import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import remote_login
from benchlib.release import add_binary_arguments, sidecar_binary

# A host does not call back to back; the pause also lets a login's work after its answer end before the next.
PAUSE = 0.005
# Functions that say which thread a callgrind part file is (mangled names, stable across builds).
READER_MARK = re.compile(r"^fn=.*3run8receiver", re.M)
HTTP_MARK = re.compile(r"^fn=.*CurlEngineC3run", re.M)
C_EPOLL_MARK = re.compile(r"^fn=wait_for_network", re.M)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_binary_arguments(parser)
    parser.add_argument("--small", type=int, default=15, help="calls in the first run (default %(default)s)")
    parser.add_argument("--large", type=int, default=45, help="calls in the second run (default %(default)s)")
    args = parser.parse_args()
    if not 0 < args.small < args.large:
        parser.error("--small must be positive and less than --large")
    return args


def profile_lines(path):
    """(hits per (object, 64-byte line, address), function of each line, calls per function) of one part file."""
    hits = collections.defaultdict(dict)
    function_of = {}
    calls = collections.Counter()
    current_object = object_of_function = function = callee = None
    skip_next = False
    with open(path, errors="replace") as profile:
        for line in profile:
            if line.startswith("ob="):
                current_object = line[3:].strip()
            elif line.startswith("fn="):
                object_of_function, function = current_object, re.sub(r"'\d+$", "", line[3:].strip())
            elif line.startswith("cfn="):
                callee = re.sub(r"'\d+$", "", line[4:].strip())
            elif line.startswith("calls="):
                calls[callee] += int(line[6:].split()[0])
                skip_next = True  # the next cost line is the call's inclusive cost, not this function's own
            elif line.startswith("0x"):
                if skip_next:
                    skip_next = False
                    continue
                fields = line.split()
                address = int(fields[0], 16)
                key = (object_of_function, address >> 6)
                hits[key][address] = hits[key].get(address, 0) + (int(fields[2]) if len(fields) > 2 else 0)
                function_of[key] = function
    return hits, function_of, calls


def grown_lines(small, large):
    """The (object, line) keys of `large` (a profile_lines hits table) that ran more often than in `small`, in the
    order the large run's profile first names them."""
    for key, addresses in large.items():
        before = small.get(key, {})
        if max(count - before.get(address, 0) for address, count in addresses.items()) > 0:
            yield key


def functions_per_call(small_path, large_path, object_path):
    """The functions of `object_path` with a line that ran more often in the large run of one thread than in the
    small one (so once or more per call), in the order the large run first ran them; scripts/generate-symbol-order
    places them together."""
    small, _, _ = profile_lines(small_path)
    large, function_of, _ = profile_lines(large_path)
    names = {}
    for key in grown_lines(small, large):
        if key[0] is not None and Path(key[0]).resolve() == Path(object_path).resolve():
            names.setdefault(function_of[key], None)
    return list(names)


def lines_per_call(small_path, large_path, extra_calls):
    """Effective lines per call, by object (the binary, libcurl, libc, ...), between the two runs of one thread."""
    small, _, small_calls = profile_lines(small_path)
    large, function_of, large_calls = profile_lines(large_path)
    by_object = collections.Counter()
    for key in grown_lines(small, large):
        function = function_of[key]
        weight = 1.0
        if function in large_calls:
            weight = max(0.0, min(1.0, (large_calls[function] - small_calls.get(function, 0)) / extra_calls))
        by_object[Path(key[0] or "?").name] += weight
    return by_object


def callgrind(directory, name):
    out = directory / f"{name}.cg"
    # Names as the linker knows them (scripts/generate-symbol-order lists functions from these runs).
    prefix = ["valgrind", "--tool=callgrind", "--separate-threads=yes", "--dump-instr=yes", "--demangle=no",
              "--compress-strings=no", "--compress-pos=no", f"--callgrind-out-file={out}"]
    return prefix, out


def part_files(out):
    return sorted(out.parent.glob(out.name + "-*"))


def pick(parts, mark):
    chosen = [part for part in parts if mark.search(part.read_text(errors="replace"))]
    if len(chosen) != 1:
        raise remote_login.Broken(f"{len(chosen)} callgrind parts match {mark.pattern} in {parts}")
    return chosen[0]


def run_sidecar(binary, directory, server_url, method, calls, tag):
    """Runs the sidecar under callgrind: one login, then `calls` of `method`. Returns its (reader, HTTP) parts."""
    run_dir = directory / tag
    run_dir.mkdir()
    config = run_dir / "config.json"
    config.write_text(json.dumps(remote_login.rest_config(server_url)))
    prefix, out = callgrind(directory, tag)
    sidecar = remote_login.Sidecar(binary, run_dir, config, prefix=prefix)
    try:
        remote_login.sidecar_login(sidecar)
        call = remote_login.sidecar_login if method == "login" else remote_login.sidecar_get_user
        for _ in range(calls):
            time.sleep(PAUSE)
            call(sidecar)
    finally:
        if sidecar.close() != 0:
            raise remote_login.Broken(f"the sidecar under valgrind exited badly: {sidecar.stderr_tail()}")
    parts = part_files(out)
    return pick(parts, READER_MARK), pick(parts, HTTP_MARK)


def run_c(binary, directory, server_url, method, calls, tag):
    """Runs the C client under callgrind: one login, then `calls` of `method`. Returns its (main, epoll) parts."""
    prefix, out = callgrind(directory, tag)
    client = remote_login.CurlFromC(binary, server_url, True, prefix=prefix)
    try:
        client.login()
        call = client.login if method == "login" else client.get_user
        for _ in range(calls):
            time.sleep(PAUSE)
            call()
    finally:
        client.close()
    parts = part_files(out)
    epoll = pick(parts, C_EPOLL_MARK)
    main = [part for part in parts if part != epoll]
    if len(main) != 1:
        raise remote_login.Broken(f"expected the C client's two threads, found {parts}")
    return main[0], epoll


def measure(run, binary, directory, server_url, method, args, side):
    small = run(binary, directory, server_url, method, args.small, f"{side}-{method}-small")
    large = run(binary, directory, server_url, method, args.large, f"{side}-{method}-large")
    return [lines_per_call(a, b, args.large - args.small) for a, b in zip(small, large)]


def main():
    args = parse_arguments()
    if shutil.which("valgrind") is None:
        print("code_lines.py: valgrind not found; nothing measured (Debian: apt-get install valgrind)")
        return 0
    binary, problem = sidecar_binary(args)
    if binary is None:
        print(f"code_lines.py: {problem}", file=sys.stderr)
        return 1
    directory = Path(tempfile.mkdtemp(prefix="code-lines-bench-"))
    server = None
    try:
        # valgrind 3.19 cannot read the DWARF lld writes; the symbol table is all callgrind needs.
        traced = directory / "auth-sidecar"
        subprocess.run(["strip", "--strip-debug", "-o", str(traced), str(binary)], check=True)
        c_binary, c_problem = remote_login.CurlFromC.build(directory)
        server = remote_login.Server(directory)
        rows = []
        for method in ("login", "getUser"):
            request, answers = measure(run_sidecar, traced, directory, server.url, method, args, "sidecar")
            row = {"method": method, "sidecar": (request, answers)}
            if c_binary:
                row["c"] = measure(run_c, c_binary, directory, server.url, method, args, "c")
            rows.append(row)
        report(binary, args, rows, c_problem)
        return 0
    except remote_login.Broken as error:
        print(f"code_lines.py: {error}", file=sys.stderr)
        return 1
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(directory, ignore_errors=True)


def report(binary, args, rows, c_problem):
    print(f"sidecar {binary}; {args.small} and {args.large} calls per run; lines are 64-byte lines of machine code")
    print()
    print("| method | side | request thread | answer thread | total | of which the binary's own | libcurl | "
          "libc | sidecar / C |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        sides = [("sidecar", "auth-sidecar", *row["sidecar"])]
        if "c" in row:
            sides.append(("libcurl C", "libcurl-client", *row["c"]))
        totals = [sum((request + answers).values()) for _, _, request, answers in sides]
        for index, (side, own_name, request, answers) in enumerate(sides):
            combined = request + answers
            ratio = f"{totals[0] / totals[1]:.2f}" if index == 0 and len(totals) == 2 else ""
            print(f"| {row['method']} | {side} | {sum(request.values()):.0f} | {sum(answers.values()):.0f} | "
                  f"{totals[index]:.0f} | {combined[own_name]:.0f} | {share(combined, 'libcurl.so'):.0f} | "
                  f"{share(combined, 'libc.so'):.0f} | {ratio} |")
    print()
    if c_problem:
        print(f"libcurl from C skipped: {c_problem}")
    print("A login's answer thread includes what it does while its user request is out (the store's write of the")
    print("tokens); getUser's request thread includes the store's read after its request is sent.")


def share(counter, prefix):
    """Lines of the shared objects whose names start with `prefix`."""
    return sum(value for name, value in counter.items() if name.startswith(prefix))


if __name__ == "__main__":
    sys.exit(main())
