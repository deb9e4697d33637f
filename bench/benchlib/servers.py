"""One server process under test: spawn it, write to its stdin, read its stdout lines, reap it."""

import os
import subprocess
import threading
import time
from dataclasses import dataclass

READ_SIZE = 1 << 20


@dataclass(frozen=True)
class Implementation:
    name: str  # "sidecar", "python" or "node"
    argv: tuple
    label: str  # what it is, for the report


class ServerFailure(Exception):
    """The server crashed, hung, closed stdout early or exited with a failure status."""


class Watchdog:
    """One thread that kills servers past their deadline.

    Arming is a dictionary write, with no thread started and no thread woken, so it costs nothing
    on a measured path (a cold start is a few milliseconds); a hung server dies within a second of
    its deadline."""

    def __init__(self):
        self._deadlines = {}  # Server -> time.monotonic() deadline
        self._lock = threading.Lock()
        self._thread = None

    def arm(self, server, seconds):
        with self._lock:
            self._deadlines[server] = time.monotonic() + seconds
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="watchdog", daemon=True)
                self._thread.start()

    def disarm(self, server):
        with self._lock:
            self._deadlines.pop(server, None)

    def _watch(self):
        while True:
            time.sleep(0.5)
            now = time.monotonic()
            with self._lock:
                expired = [server for server, deadline in self._deadlines.items() if deadline <= now]
                for server in expired:
                    del self._deadlines[server]
            for server in expired:
                server.kill_hung()


WATCHDOG = Watchdog()


class Server:
    """A running implementation, spoken to through blocking pipes.

    Reads and writes block without timeouts, so that nothing (no poll, no select) sits between the
    runner and the server on the measured path; the watchdog kills a server that hangs instead,
    which turns the hang into end of file.
    """

    def __init__(self, impl, stderr):
        self.impl = impl
        try:
            self.proc = subprocess.Popen(
                impl.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, bufsize=0
            )
        except OSError as error:  # no such program, not executable
            raise ServerFailure(f"{impl.name}: cannot start {impl.argv[0]}: {error.strerror}") from None
        self._stdin = self.proc.stdin.fileno()
        self._stdout = self.proc.stdout.fileno()
        self._pending = b""  # read past the last line handed out
        self.timed_out = False

    def arm(self, seconds):
        """Kills the server if it is still running `seconds` from now (until disarmed)."""
        WATCHDOG.arm(self, seconds)

    def disarm(self):
        WATCHDOG.disarm(self)

    def kill_hung(self):
        self.timed_out = True
        self.proc.kill()

    def send(self, data):
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._stdin, view) :]
        except OSError as error:  # EPIPE: it is gone
            raise self._failure(f"stdin closed ({error.strerror})") from None

    def read_line(self):
        while b"\n" not in self._pending:
            self._pending += self._read()
        line, _, self._pending = self._pending.partition(b"\n")
        return line

    def read_lines(self, count):
        """Reads exactly `count` lines, counting newlines as they come and splitting them only after."""
        chunks = [self._pending]
        seen = self._pending.count(b"\n")
        while seen < count:
            chunk = self._read()
            seen += chunk.count(b"\n")
            chunks.append(chunk)
        lines = b"".join(chunks).split(b"\n")
        self._pending = b"\n".join(lines[count:])
        return lines[:count]

    def _read(self):
        chunk = os.read(self._stdout, READ_SIZE)
        if not chunk:
            raise self._failure("stdout closed before the answer")
        return chunk

    def peak_rss(self):
        """The high-water mark of the resident set in bytes (VmHWM), or None without /proc.

        Not wait4's ru_maxrss: Linux carries the pre-exec high-water mark across execve, so a child
        forked from this runner would report at least the runner's own RSS."""
        return self._status_bytes(b"VmHWM:")

    def rss(self):
        """The resident set now, in bytes (VmRSS), or None without /proc."""
        return self._status_bytes(b"VmRSS:")

    def _status_bytes(self, key):
        try:
            with open(f"/proc/{self.proc.pid}/status", "rb") as status:
                for line in status:
                    if line.startswith(key):
                        return int(line.split()[1]) * 1024  # kB
        except OSError:
            pass
        return None

    def finish(self, timeout):
        """Closes stdin and waits for the exit, which must be a clean one."""
        self.proc.stdin.close()
        self.arm(timeout)
        _, status = os.waitpid(self.proc.pid, 0)
        self.disarm()
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        self.proc.stdout.close()
        if self.timed_out:
            raise ServerFailure(f"{self.impl.name}: did not exit within {timeout} s of end of input")
        if self.proc.returncode != 0:
            raise ServerFailure(f"{self.impl.name}: exited with status {self.proc.returncode}")

    def abandon(self):
        """Stops a server that failed, without waiting on its good will."""
        self.disarm()
        if self.proc.returncode is None:
            self.proc.kill()
            self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if not pipe.closed:
                pipe.close()

    def _failure(self, what):
        if self.timed_out:
            return ServerFailure(f"{self.impl.name}: timed out (killed by the watchdog)")
        exit_code = self.proc.poll()
        suffix = "" if exit_code is None else f", exit status {exit_code}"
        return ServerFailure(f"{self.impl.name}: {what}{suffix}")
