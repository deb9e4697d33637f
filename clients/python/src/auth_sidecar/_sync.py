"""The blocking client: one sidecar process, calls from any number of threads."""

from __future__ import annotations

import functools
import queue
import threading
import time

from . import _common as c
from . import _codes as codes
from . import _requests as r
from ._base import BaseClient, CallEntry, copy_exit
from ._errors import AuthSidecarError, CallTimeout, ClientClosed, SidecarExited

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time (most of the import cost)
if TYPE_CHECKING:
    import subprocess
    from typing import Any, Callable, List, Optional, Tuple, TypeVar

    from typing_extensions import Concatenate, ParamSpec

    P = ParamSpec("P")
    T = TypeVar("T")

__all__ = ["AuthSidecar", "PendingCall"]


class PendingCall(CallEntry):
    """A request sent with :meth:`AuthSidecar.submit` and (maybe) not yet answered."""

    __slots__ = ("_client", "seen")

    def __init__(self, client: AuthSidecar, request_id: int, method: str, counted: bool) -> None:
        super().__init__(request_id, method, counted, client._futures.Future())
        self._client = client
        #: How many notifications had been read when the answer came (their callbacks run first).
        self.seen = 0

    def done(self) -> bool:
        """True once the call has its answer (or its error)."""
        return bool(self.future.done())

    def result(self, timeout: Optional[float] = None) -> Any:
        """Waits for the answer and returns the result, or raises the error. The callbacks of
        notifications read before the answer (``sessionChanged``, …) have run by then.

        With ``timeout`` (seconds), a call still unanswered is cancelled (``$/cancelRequest``)
        and :class:`CallTimeout` is raised.
        """
        try:
            self.future.exception(None if timeout is None else max(timeout, 0))
        except self._client._futures.TimeoutError:
            self.cancel()
            raise CallTimeout(f"{self.method}: no answer from auth-sidecar within {timeout:g} s") from None
        self._client._await_callbacks(self.seen)
        return self.future.result()

    def cancel(self) -> bool:
        """Asks the sidecar to cancel the request (``$/cancelRequest``). The call then answers
        :class:`Cancelled`, or its real result when it had already taken effect. Returns False
        when the call was already answered."""
        if self.done():
            return False
        self._client._send_cancel(self.id)
        return True

    def __repr__(self) -> str:
        state = "done" if self.done() else "pending"
        return f"<PendingCall id={self.id} method={self.method!r} {state}>"


def _blocking(build: Callable[Concatenate[BaseClient, P], r.Request[T]]) -> Callable[Concatenate[AuthSidecar, P], T]:
    """The blocking method of a request builder: sends the request and waits for its answer."""

    def method(self: AuthSidecar, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self._perform(build(self, *args, **kwargs))

    functools.update_wrapper(method, build)
    return method


class AuthSidecar(BaseClient):
    """A running ``auth-sidecar`` process, spoken to over its stdin/stdout.

    Use it as a context manager (``with AuthSidecar(...) as sidecar:``) or call :meth:`start`
    and :meth:`close`. Every method is thread-safe; calls from several threads are multiplexed
    over the one process and matched by id.

    :param binary: the executable; else ``$AUTH_SIDECAR_BIN``, else the one inside the package (release
        wheels), else ``auth-sidecar`` on PATH.
    :param state_dir: ``--state-dir`` (the session store).
    :param config: ``--config`` (the profiles file).
    :param log_level: ``--log-level`` (error, warning, info, debug, trace). Its stderr is read
        continuously, forwarded to the ``auth_sidecar.stderr`` logger (INFO) and its last
        ``stderr_lines`` lines are kept for :class:`SidecarExited`.
    :param args: extra command-line arguments (never put a secret here).
    :param env: variables added to (or, with ``None``, removed from) this process's environment.
    :param profile: the default ``profile`` of every call (the sidecar's own default otherwise).
    :param locale: the default ``locale`` of every call (``en``, ``zh-Hans``).
    :param timeout: default seconds to wait for each answer (``None``: no limit).
    :param max_in_flight: at most this many calls are sent and unanswered at once (the
        sidecar's ``--max-in-flight``, default 64); further calls wait their turn here instead of
        being refused. ``validate`` and ``rpc.discover`` are not counted. ``None``: no limit.
    :param shutdown_timeout: seconds :meth:`close` waits for the process to exit after closing
        its stdin, before SIGTERM (then, 2 s later, SIGKILL).
    :param handshake: :meth:`start` waits for a first answer, so a sidecar that cannot start
        (exit 78: a bad config) fails there with :class:`SidecarExited`.
    """

    def _setup(self) -> None:
        # Imported by the first client, not with the package: concurrent.futures brings logging.
        import concurrent.futures

        self._futures = concurrent.futures
        self._proc: Optional[subprocess.Popen[bytes]] = None
        lock = threading.Lock()
        self._lock = lock
        self._slot_free = threading.Condition(lock)
        self._write_lock = threading.Lock()
        self._started = False
        self._threads: List[threading.Thread] = []
        self._stderr_thread: Optional[threading.Thread] = None
        self._notifications: queue.SimpleQueue[Optional[Tuple[int, Any, Any]]] = queue.SimpleQueue()
        self._dispatcher: Optional[threading.Thread] = None
        # Notifications read (by the reader thread) and delivered (by the dispatcher thread).
        self._notified = 0
        self._delivered = 0
        self._delivery = threading.Condition()

    validate = _blocking(r.validate)
    register = _blocking(r.register)
    send_code = _blocking(codes.send_code)
    reset_password = _blocking(codes.reset_password)
    login = _blocking(r.login)
    get_user = _blocking(r.get_user)
    refresh_token = _blocking(r.refresh_token)
    logout = _blocking(r.logout)
    status = _blocking(r.status)
    discover = _blocking(r.discover)
    call = _blocking(r.call)

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> AuthSidecar:
        """Spawns the sidecar (once) and, with ``handshake`` (the default), waits for its first
        answer. Raises :class:`BinaryNotFound` without an executable, :class:`SidecarExited` when
        the sidecar exits at start (78: a bad config; ``stderr_tail`` says why)."""
        import subprocess  # here, not at import: a few milliseconds every importer would pay

        with self._lock:
            if self._dead is not None:
                raise copy_exit(self._dead)
            if self._started:
                return self
            command = self._command()
            self._proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=c.build_env(self._env),
                cwd=self._cwd,
                close_fds=True,
                # Its own session: a Ctrl-C in the terminal interrupts the host, not the sidecar,
                # which still exits as soon as the host closes it or dies (stdin EOF).
                start_new_session=True,
            )
            self._started = True
            name = f"auth-sidecar[{self._proc.pid}]"
            self._stderr_thread = threading.Thread(target=self._read_stderr, name=f"{name} stderr", daemon=True)
            self._dispatcher = threading.Thread(target=self._dispatch, name=f"{name} notifications", daemon=True)
            reader = threading.Thread(target=self._read_stdout, name=f"{name} reader", daemon=True)
            self._threads = [self._stderr_thread, self._dispatcher, reader]
            for thread in self._threads:
                thread.start()
            c.log.debug("started %s: %s", name, command)
        if self._handshake:
            try:
                self.call(r.HANDSHAKE_METHOD, r.HANDSHAKE_PARAMS)
            except AuthSidecarError:
                pass  # an answer all the same
            except SidecarExited:
                self.close()
                raise
        return self

    def close(self) -> None:
        """Stops the sidecar cleanly: closes its stdin (it answers what is in flight and exits),
        waits up to ``shutdown_timeout``, then terminates and finally kills it. Idempotent."""
        with self._lock:
            proc = self._proc if self._started and not self._closing else None
            self._closing = True
            if not self._started:
                if self._dead is None:
                    self._dead = ClientClosed(None, (), "the client was closed")
                return
        if proc is None:
            self._join_threads()
            return
        import subprocess

        with self._write_lock:
            _close_quietly(proc.stdin)
        try:
            proc.wait(self._shutdown_timeout)
        except subprocess.TimeoutExpired:
            c.log.warning("auth-sidecar[%d] did not exit within %g s of EOF; terminating",
                          proc.pid, self._shutdown_timeout)
            proc.terminate()
            try:
                proc.wait(2.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self._join_threads()
        self._mark_dead(proc.returncode)

    def _join_threads(self) -> None:
        current = threading.current_thread()
        for thread in self._threads:
            if thread is not current and thread.is_alive():
                thread.join(5.0)

    def __enter__(self) -> AuthSidecar:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pid(self) -> Optional[int]:
        """The sidecar's process id (``None`` before :meth:`start`)."""
        return self._proc.pid if self._proc else None

    @property
    def returncode(self) -> Optional[int]:
        """The sidecar's exit code once it has exited (negative: killed by that signal)."""
        return self._proc.poll() if self._proc else None

    # -- calls --------------------------------------------------------------------------------

    def submit(self, method: str, params: Any = None) -> PendingCall:
        """Sends a request without waiting: ``.result(timeout)`` waits, ``.cancel()`` cancels."""
        return self._submit(method, params)

    def _perform(self, request: r.Request[T]) -> T:
        call = self._submit(request.method, request.params, request.on_prompt)
        try:
            result: T = call.result(request.timeout)
            return result
        finally:
            if request.on_prompt is not None:
                with self._lock:
                    self._prompt_callbacks.pop(call.id, None)

    def _submit(self, method: str, params: Any, on_prompt: Optional[r.PromptCallback] = None) -> PendingCall:
        if not self._started:
            self.start()
        request_id = next(self._ids)
        data = c.encode_request(request_id, method, params)  # TypeError/ValueError: nothing sent
        counted = self._counts(method)
        limit = self._max_in_flight or 0
        with self._lock:
            while counted and self._in_flight >= limit and self._dead is None:
                self._slot_free.wait()
            self._check_open()
            call = PendingCall(self, request_id, method, counted)
            self._pending.add(request_id, call)
            if on_prompt is not None:
                # Before the write: the prompt may come back before this thread runs again.
                self._prompt_callbacks[request_id] = on_prompt
            if counted:
                self._in_flight += 1
        self._write(data, call)
        return call

    def _write(self, data: bytes, call: Optional[PendingCall]) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            with self._write_lock:
                proc.stdin.write(data)
                proc.stdin.flush()
        except (OSError, ValueError):
            # The process is gone (EPIPE) or stdin was closed: the reader thread sees EOF and fails
            # every pending call with the exit code. Wait for that a moment, so this call also
            # gets the real exit code rather than a guess.
            if call is not None:
                self._await_death(call)

    def _await_death(self, call: PendingCall) -> None:
        deadline = time.monotonic() + 5.0
        while not call.done() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not call.done():
            with self._lock:
                popped, _ = self._pending.pop(call.id)
            if popped is not None:
                proc = self._proc
                self._settle(popped, None, SidecarExited(proc.poll() if proc else None, self.stderr_tail,
                                                         "cannot write to its stdin"))

    def _send_cancel(self, request_id: int) -> None:
        with self._lock:
            if self._dead is not None or self._closing:
                return
        self._write(c.encode_cancel(request_id), None)

    def _settle(self, call: CallEntry, result: Any, error: Optional[BaseException]) -> None:
        if isinstance(call, PendingCall):
            call.seen = self._notified
        super()._settle(call, result, error)

    def _slot_freed(self) -> None:
        self._slot_free.notify()

    def _all_slots_freed(self) -> None:
        self._slot_free.notify_all()

    # -- notifications: delivered in order on one thread, before the answers that follow them --

    def _notification(self, method: Any, params: Any) -> None:
        self._notified += 1  # only the reader thread writes it
        self._notifications.put((self._notified, method, params))

    def _dispatch(self) -> None:
        while True:
            item = self._notifications.get()
            if item is None:
                return
            number, method, params = item
            self._deliver(method, params)
            with self._delivery:
                self._delivered = number
                self._delivery.notify_all()

    def _await_callbacks(self, seen: int) -> None:
        """Waits until the callbacks of the first ``seen`` notifications have run; at once on the
        dispatcher thread itself (a callback that calls the client must not wait for itself)."""
        if self._delivered >= seen or threading.current_thread() is self._dispatcher:
            return
        with self._delivery:
            self._delivery.wait_for(lambda: self._delivered >= seen)

    # -- the reader threads -------------------------------------------------------------------

    def _read_stdout(self) -> None:
        import subprocess

        proc = self._proc
        assert proc is not None and proc.stdout is not None
        stdout = proc.stdout
        detail = ""
        try:
            for line in iter(stdout.readline, b""):
                self._stdout_line(line)
        except Exception as error:  # a bug here must not leave every caller hanging
            c.log.exception("auth-sidecar reader failed; stopping the sidecar")
            detail = f"the client's reader failed: {error!r}"
            with self._write_lock:
                _close_quietly(proc.stdin)  # the sidecar finishes its work and exits
        finally:
            _close_quietly(stdout)
            returncode: Optional[int]
            try:
                returncode = proc.wait(5.0 if not detail else self._shutdown_timeout)
            except subprocess.TimeoutExpired:
                returncode = None
            if self._stderr_thread is not None:
                self._stderr_thread.join(2.0)
            self._mark_dead(returncode, detail)
            self._notifications.put(None)

    def _read_stderr(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stderr is not None
        try:
            for raw in iter(proc.stderr.readline, b""):
                self._stderr_line(raw)
        finally:
            _close_quietly(proc.stderr)

    def __repr__(self) -> str:
        state = "not started" if not self._started else ("exited" if self._dead else f"pid {self.pid}")
        return f"<AuthSidecar {state}>"


def _close_quietly(stream: Any) -> None:
    try:
        stream.close()
    except (OSError, ValueError):
        pass
