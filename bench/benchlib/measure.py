"""The measurements. Each function measures one implementation once and raises ServerFailure when it
breaks; answers are checked after the clock has stopped, so checking never slows a server down."""

import random
import threading
import time

from .cases import COLD_START, MIX
from .servers import Server, ServerFailure
from .verify import StreamChecker, WrongAnswer, check_answer, parse

TIMEOUT = 60.0  # seconds any single step may take before the server counts as hung


def with_server(impl, stderr, work, sample_rss=True):
    """Runs `work(server)` on a fresh server, then reaps it; returns (work's value, peak RSS).

    The peak RSS is sampled after the work, before end of input (None when not sampled)."""
    server = Server(impl, stderr)
    try:
        server.arm(TIMEOUT)
        value = work(server)
        rss = server.peak_rss() if sample_rss else None
        server.finish(TIMEOUT)
        return value, rss
    except BaseException:
        server.abandon()
        raise


def cold_start(impl, stderr):
    """Spawn → one `validate` → its answer → end of input → exit. Returns (seconds, problem).

    RSS is not sampled here: reading /proc would add to the time measured."""
    request = COLD_START.request(1)
    started = time.perf_counter()
    line, _ = with_server(impl, stderr, lambda server: send_and_read(server, request), sample_rss=False)
    elapsed = time.perf_counter() - started
    return elapsed, problem_of(line, COLD_START, 1)


def idle_rss(impl, stderr, settle_seconds=0.1):
    """Spawn → one `validate` → its answer → a short pause → VmRSS, while the server waits for more input.

    Returns (bytes or None without /proc, problem)."""

    def work(server):
        line = send_and_read(server, COLD_START.request(1))
        time.sleep(settle_seconds)  # whatever the answer set off (a flush, a freed buffer) has happened
        return line, server.rss()

    (line, rss), _ = with_server(impl, stderr, work, sample_rss=False)
    return rss, problem_of(line, COLD_START, 1)


def send_and_read(server, request):
    server.send(request)
    return server.read_line()


def problem_of(line, case, request_id):
    try:
        check_answer(parse(line), case, request_id)
        return None
    except WrongAnswer as wrong:
        return str(wrong)


class Workload:
    """Requests 1..n drawn from the template mix in a fixed pseudo-random order, and their checker."""

    def __init__(self, count, seed=2024):
        rng = random.Random(seed)
        self.count = count
        self.case_of_id = [0] + [rng.randrange(len(MIX)) for _ in range(count)]
        self.requests = [b""] + [MIX[self.case_of_id[i]].request(i) for i in range(1, count + 1)]

    def payload(self, first, last):
        """Requests first..last (inclusive) as one byte string."""
        return b"".join(self.requests[first : last + 1])

    def check(self, lines, last_id=None):
        """Checks the answers to requests 1..last_id (default: all); returns the StreamChecker."""
        checker = StreamChecker(MIX, self.case_of_id)
        for line in lines:
            checker.check_line(line)
        checker.check_all_answered(last_id)
        return checker


def pipeline(server, payload, count):
    """Writes `payload` from a thread while this thread reads `count` answers; returns (lines, seconds)."""
    failures = []

    def write():
        try:
            server.send(payload)
        except ServerFailure as failure:
            failures.append(failure)

    writer = threading.Thread(target=write, daemon=True)
    started = time.perf_counter()
    writer.start()
    lines = server.read_lines(count)
    elapsed = time.perf_counter() - started
    writer.join()
    if failures:
        raise failures[0]
    return lines, elapsed


def throughput(impl, stderr, workload, warmup):
    """Pipelined requests/s over requests warmup+1..n after an untimed burst of 1..warmup.

    Returns (requests/s, peak RSS, every answer line); Workload.check checks the lines."""

    def run(server):
        warm_lines, _ = pipeline(server, workload.payload(1, warmup), warmup)
        timed = workload.count - warmup
        lines, seconds = pipeline(server, workload.payload(warmup + 1, workload.count), timed)
        return warm_lines + lines, timed / seconds

    (lines, rate), rss = with_server(impl, stderr, run)
    return rate, rss, lines


class RoundTrips:
    """Sequential request → answer round trips against one running server."""

    def __init__(self, impl, stderr, workload):
        self.server = Server(impl, stderr)
        self.workload = workload
        self.next_id = 1
        self.lines = []
        self.microseconds = []

    def run(self, count, record=True):
        """`count` round trips; their durations are kept only when `record` (not for warm-up)."""
        server, requests = self.server, self.workload.requests
        self.server.arm(TIMEOUT + count * 0.01)
        for request_id in range(self.next_id, self.next_id + count):
            started = time.perf_counter_ns()
            server.send(requests[request_id])
            line = server.read_line()
            elapsed = time.perf_counter_ns() - started
            self.lines.append(line)
            if record:
                self.microseconds.append(elapsed / 1000)
        self.server.disarm()
        self.next_id += count

    def finish(self):
        """Reaps the server; returns (peak RSS, checker holding the problems found)."""
        rss = self.server.peak_rss()
        self.server.finish(TIMEOUT)
        return rss, self.workload.check(self.lines, last_id=self.next_id - 1)

    def abandon(self):
        self.server.abandon()
