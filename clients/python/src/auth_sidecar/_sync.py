"""The blocking client: one sidecar process, calls from any number of threads."""

from __future__ import annotations

import collections
import itertools
import json
import queue
import subprocess
import threading
import time
from _thread import allocate_lock
from typing import Any, Callable, Deque, Dict, List, Mapping, Optional, Sequence, cast

from . import _common as c
from ._errors import (
    CallTimeout,
    ClientClosed,
    SidecarExited,
    error_from_response,
)
from ._types import (
    GetUserResult,
    LoginFlow,
    LoginPrompt,
    LoginResult,
    LogoutResult,
    OpenRPCDocument,
    Purpose,
    RefreshTokenResult,
    RegisterResult,
    SessionChanged,
    StatusResult,
    ValidationResult,
)

__all__ = ["AuthSidecar", "PendingCall"]


class PendingCall:
    """A request sent with :meth:`AuthSidecar.submit` and (maybe) not yet answered."""

    __slots__ = ("id", "method", "_client", "_done", "_result", "_error", "_counted")

    def __init__(self, client: "AuthSidecar", request_id: int, method: str, counted: bool) -> None:
        self.id = request_id
        self.method = method
        self._client = client
        # A lock held until the answer arrives: the cheapest way to park a thread in CPython.
        self._done = allocate_lock()
        self._done.acquire()
        self._result: Any = None
        self._error: Optional[BaseException] = None
        self._counted = counted

    def done(self) -> bool:
        """True once the call has its answer (or its error)."""
        return not self._done.locked()

    def result(self, timeout: Optional[float] = None) -> Any:
        """Waits for the answer and returns the result, or raises the error.

        With ``timeout`` (seconds), a call still unanswered is cancelled (``$/cancelRequest``)
        and :class:`CallTimeout` is raised.
        """
        if timeout is None:
            self._done.acquire()
        elif not self._done.acquire(timeout=max(timeout, 0)):
            if not self.done():
                self.cancel()
                raise CallTimeout(f"{self.method}: no answer from auth-sidecar within {timeout:g} s")
            self._done.acquire()
        self._done.release()  # let any other thread waiting on this call see it too
        if self._error is not None:
            raise self._error
        return self._result

    def cancel(self) -> bool:
        """Asks the sidecar to cancel the request (``$/cancelRequest``). The call then answers
        :class:`Cancelled`, or its real result when it had already taken effect. Returns False
        when the call was already answered."""
        if self.done():
            return False
        self._client._send_cancel(self.id)
        return True

    def _resolve(self, result: Any, error: Optional[BaseException]) -> None:
        self._result = result
        self._error = error
        self._done.release()

    def __repr__(self) -> str:
        state = "done" if self.done() else "pending"
        return f"<PendingCall id={self.id} method={self.method!r} {state}>"


class AuthSidecar:
    """A running ``auth-sidecar`` process, spoken to over its stdin/stdout.

    Use it as a context manager (``with AuthSidecar(...) as sidecar:``) or call :meth:`start`
    and :meth:`close`. Every method is thread-safe; calls from several threads are multiplexed
    over the one process and matched by id.

    :param binary: the executable; else ``$AUTH_SIDECAR_BIN``, else ``auth-sidecar`` on PATH.
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
    """

    def __init__(
        self,
        binary: Optional[c.PathLike] = None,
        *,
        state_dir: Optional[c.PathLike] = None,
        config: Optional[c.PathLike] = None,
        log_level: Optional[str] = None,
        args: Sequence[str] = (),
        env: Optional[Mapping[str, Optional[str]]] = None,
        cwd: Optional[c.PathLike] = None,
        profile: Optional[str] = None,
        locale: Optional[str] = None,
        timeout: Optional[float] = None,
        max_in_flight: Optional[int] = 64,
        shutdown_timeout: float = 10.0,
        stderr_lines: int = 50,
    ) -> None:
        self._binary = binary
        self._state_dir = state_dir
        self._config = config
        self._log_level = log_level
        self._args = list(args)
        self._env = dict(env) if env else None
        self._cwd = cwd
        self.profile = profile
        self.locale = locale
        self.timeout = timeout
        if max_in_flight is not None and max_in_flight < 1:
            raise ValueError("max_in_flight must be at least 1 (or None)")
        self._max_in_flight = max_in_flight
        self._shutdown_timeout = shutdown_timeout

        self._proc: Optional[subprocess.Popen] = None  # type: ignore[type-arg]
        self._lock = threading.Lock()
        self._slot_free = threading.Condition(self._lock)
        self._in_flight = 0
        self._write_lock = threading.Lock()
        self._pending: c.PendingTable[PendingCall] = c.PendingTable()
        self._ids = itertools.count(1)
        self._dead: Optional[SidecarExited] = None
        self._closing = False
        self._started = False
        self._stderr_tail: Deque[str] = collections.deque(maxlen=max(stderr_lines, 1))
        self._threads: List[threading.Thread] = []
        self._stderr_thread: Optional[threading.Thread] = None
        self._notifications: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        self._dispatcher: Optional[threading.Thread] = None
        self._listeners: List[Callable[[str, Any], Any]] = []
        self._session_listeners: List[Callable[[SessionChanged], Any]] = []
        self._prompt_listeners: List[Callable[[LoginPrompt], Any]] = []
        #: ``on_prompt`` of pending interactive logins, by request id (guarded by ``_lock``).
        self._prompt_callbacks: Dict[int, Callable[[LoginPrompt], Any]] = {}

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> "AuthSidecar":
        """Spawns the sidecar (once). Raises :class:`BinaryNotFound` without an executable."""
        with self._lock:
            if self._dead is not None:
                raise _copy_exit(self._dead)
            if self._started:
                return self
            binary = c.resolve_binary(self._binary)
            command = c.build_command(binary, self._state_dir, self._config, self._log_level, self._args)
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
        return self

    def close(self) -> None:
        """Stops the sidecar cleanly: closes its stdin (it answers what is in flight and exits),
        waits up to ``shutdown_timeout``, then terminates and finally kills it. Idempotent."""
        with self._lock:
            if not self._started:
                self._closing = True
                if self._dead is None:
                    self._dead = ClientClosed(None, (), "the client was closed")
                return
            if self._closing:
                proc = None
            else:
                self._closing = True
                proc = self._proc
        if proc is None:
            self._join_threads()
            return
        with self._write_lock:
            try:
                proc.stdin.close()  # type: ignore[union-attr]
            except OSError:
                pass
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

    def __enter__(self) -> "AuthSidecar":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    @property
    def pid(self) -> Optional[int]:
        """The sidecar's process id (``None`` before :meth:`start`)."""
        return self._proc.pid if self._proc else None

    @property
    def returncode(self) -> Optional[int]:
        """The sidecar's exit code once it has exited (negative: killed by that signal)."""
        return self._proc.poll() if self._proc else None

    @property
    def stderr_tail(self) -> List[str]:
        """The last lines the sidecar wrote to stderr."""
        with self._lock:
            return list(self._stderr_tail)

    # -- notifications ------------------------------------------------------------------------

    def on_session_changed(self, callback: Callable[[SessionChanged], Any]) -> Callable[[], None]:
        """Calls ``callback({"profile": ..., "state": ...})`` for every ``sessionChanged``
        (state ``loggedIn``, ``refreshed``, ``loggedOut`` or ``expired``). Callbacks run in order
        on one dedicated thread, so they may call this client. Returns a function that removes
        the callback."""
        self._session_listeners.append(callback)
        return lambda: _remove(self._session_listeners, callback)

    def on_notification(self, callback: Callable[[str, Any], Any]) -> Callable[[], None]:
        """Calls ``callback(method, params)`` for every notification the sidecar sends."""
        self._listeners.append(callback)
        return lambda: _remove(self._listeners, callback)

    def on_login_prompt(self, callback: Callable[[LoginPrompt], Any]) -> Callable[[], None]:
        """Calls ``callback(prompt)`` for every ``loginPrompt`` (any interactive login of this
        client; ``prompt["id"]`` names the login request). Returns a function that removes it."""
        self._prompt_listeners.append(callback)
        return lambda: _remove(self._prompt_listeners, callback)

    def _dispatch(self) -> None:
        while True:
            item = self._notifications.get()
            if item is None:
                return
            method, params = item
            if method is _FORGET_PROMPT:
                with self._lock:
                    self._prompt_callbacks.pop(params, None)
                continue
            for callback in list(self._listeners):
                _run_callback(callback, method, params)
            if method == c.SESSION_CHANGED:
                for on_change in list(self._session_listeners):
                    _run_callback(on_change, params)
            elif method == c.LOGIN_PROMPT:
                for on_prompt in list(self._prompt_listeners):
                    _run_callback(on_prompt, params)
                with self._lock:
                    own = self._prompt_callbacks.pop(c.prompt_request_id(params), None)  # type: ignore[arg-type]
                if own is not None:
                    _run_callback(own, params)

    # -- calls --------------------------------------------------------------------------------

    def call(self, method: str, params: Any = None, *, timeout: Any = c.DEFAULT) -> Any:
        """Sends any request and returns its result (raises its error as an exception).

        ``params`` is sent as given (normally a dict; ``None`` sends none).
        """
        return self.submit(method, params).result(self.timeout if timeout is c.DEFAULT else timeout)

    def submit(self, method: str, params: Any = None) -> PendingCall:
        """Sends a request without waiting: ``.result(timeout)`` waits, ``.cancel()`` cancels."""
        return self._submit(method, params)

    def _submit(self, method: str, params: Any,
                on_prompt: Optional[Callable[[LoginPrompt], Any]] = None) -> PendingCall:
        if not self._started:
            self.start()
        request_id = next(self._ids)
        data = c.encode_request(request_id, method, params)  # TypeError/ValueError: nothing sent
        counted = self._max_in_flight is not None and method not in c.UNCOUNTED_METHODS
        with self._lock:
            if counted:
                while self._in_flight >= self._max_in_flight and self._dead is None:  # type: ignore[operator]
                    self._slot_free.wait()
            if self._dead is not None:
                raise _copy_exit(self._dead)
            if self._closing:
                raise ClientClosed(None, (), "the client is closing")
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
                popped._resolve(None, SidecarExited(proc.poll() if proc else None, self.stderr_tail,
                                                    "cannot write to its stdin"))

    def _send_cancel(self, request_id: int) -> None:
        with self._lock:
            if self._dead is not None or self._closing:
                return
        self._write(c.encode_cancel(request_id), None)

    # -- the reader threads -------------------------------------------------------------------

    def _read_stdout(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        stdout = proc.stdout
        detail = ""
        loads = json.loads
        try:
            for line in iter(stdout.readline, b""):
                try:
                    message = loads(line)
                except ValueError:
                    if not line.isspace():
                        c.log.warning("auth-sidecar wrote a line that is not JSON on stdout: %.200r", line)
                    continue
                # The common case first: one answer to one of our calls.
                if type(message) is dict and "method" not in message and "id" in message:
                    self._answer(message)
                    continue
                for kind, item in c.classify(message):
                    if kind == c.RESPONSE:
                        self._answer(item)
                    elif kind == c.NOTIFICATION:
                        self._notifications.put((item.get("method"), item.get("params")))
                    else:
                        c.log.warning("auth-sidecar sent an unexpected message: %.200r", item)
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

    def _answer(self, message: Dict[str, Any]) -> None:
        request_id = message.get("id")
        settled: List[Any] = []
        with self._lock:
            if request_id is None:
                call = None
                settled = self._pending.orphan(message.get("error"))
            else:
                call, settled = self._pending.pop(request_id)
            if call is not None and call._counted:
                self._in_flight -= 1
                self._slot_free.notify()
            for entry, _ in settled:
                if entry._counted:
                    self._in_flight -= 1
                    self._slot_free.notify()
        if call is not None:
            error = message.get("error")
            if error is None:
                call._resolve(message.get("result"), None)
            else:
                call._resolve(None, error_from_response(error, call.method))
        elif request_id is not None:
            c.log.warning("auth-sidecar answered id %.40r, which no call is waiting for", request_id)
        for entry, error in settled:
            entry._resolve(None, error_from_response(error, entry.method))

    def _read_stderr(self) -> None:
        proc = self._proc
        assert proc is not None and proc.stderr is not None
        tail = self._stderr_tail
        try:
            for raw in iter(proc.stderr.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                with self._lock:
                    tail.append(line)
                c.stderr_log.info("%s", line)
        finally:
            _close_quietly(proc.stderr)

    def _mark_dead(self, returncode: Optional[int], detail: str = "") -> None:
        with self._lock:
            if self._dead is None:
                tail = list(self._stderr_tail)
                if self._closing:
                    self._dead = ClientClosed(returncode, tail, detail or "the client was closed")
                else:
                    self._dead = SidecarExited(returncode, tail, detail)
            error = self._dead
            calls = self._pending.take_all()
            self._in_flight = 0
            self._slot_free.notify_all()
        for call in calls:
            call._resolve(None, _copy_exit(error))

    # -- the methods ----------------------------------------------------------------------------

    def _params(self, profile: Optional[str], locale: Optional[str], **values: Any) -> Dict[str, Any]:
        return c.params_of(profile=profile or self.profile, locale=locale or self.locale, **values)

    def validate(
        self,
        *,
        account: Optional[str] = None,
        username: Optional[str] = None,
        email: Optional[str] = None,
        phone: Optional[str] = None,
        password: Optional[str] = None,
        purpose: Optional[Purpose] = None,
        locale: Optional[str] = None,
        profile: Optional[str] = None,
        timeout: Any = c.DEFAULT,
    ) -> ValidationResult:
        """Checks form fields (no I/O). An invalid value is ``valid: False``, not an error."""
        params = c.validate_params(account, username, email, phone, password, purpose,
                                   locale or self.locale, profile or self.profile)
        return cast(ValidationResult, self.call("validate", params, timeout=timeout))

    def register(
        self,
        *,
        username: str,
        password: str,
        email: Optional[str] = None,
        phone: Optional[str] = None,
        display_name: Optional[str] = None,
        profile: Optional[str] = None,
        locale: Optional[str] = None,
        timeout: Any = c.DEFAULT,
    ) -> RegisterResult:
        """Creates an account (full registration policy). Does not log in."""
        params = c.register_params(username, password, email, phone, display_name,
                                   profile or self.profile, locale or self.locale)
        return cast(RegisterResult, self.call("register", params, timeout=timeout))

    def login(
        self,
        *,
        account: Optional[str] = None,
        username: Optional[str] = None,
        email: Optional[str] = None,
        phone: Optional[str] = None,
        password: Optional[str] = None,
        flow: Optional[LoginFlow] = None,
        on_prompt: Optional[Callable[[LoginPrompt], Any]] = None,
        profile: Optional[str] = None,
        locale: Optional[str] = None,
        timeout: Any = c.DEFAULT,
    ) -> LoginResult:
        """Logs in with exactly one of ``account`` (classified as email, phone or username),
        ``username``, ``email``, ``phone``, and ``password``.

        With ``flow="device"`` or ``flow="authorizationCode"`` (oauth2 profiles) nothing is typed
        here: ``on_prompt(prompt)`` is called (on the notification thread) with what to show or
        open — the device flow's ``userCode`` and ``verificationUri``, or the ``authorizationUrl``
        to open in the user's browser — and the call returns once the user is done. Give a
        ``timeout`` long enough for a person (the sidecar's own deadline is
        ``prompt["expiresAt"]``); a timeout or :meth:`PendingCall.cancel` stops the wait."""
        params = c.login_params(account, username, email, phone, password,
                                profile or self.profile, locale or self.locale, flow)
        call = self._submit("login", params, on_prompt)
        try:
            return cast(LoginResult, call.result(self.timeout if timeout is c.DEFAULT else timeout))
        finally:
            if on_prompt is not None:
                # Through the notification queue, not at once: a prompt read before the answer is
                # still queued there and must reach ``on_prompt`` first.
                self._notifications.put((_FORGET_PROMPT, call.id))

    def get_user(self, *, refresh: bool = False, profile: Optional[str] = None,
                 locale: Optional[str] = None, timeout: Any = c.DEFAULT) -> GetUserResult:
        """The logged-in user and session (refreshing an expiring access token transparently);
        ``refresh=True`` fetches the user from the provider first. Raises :class:`NotLoggedIn`
        (see ``last_account``) or :class:`SessionExpired`."""
        params = self._params(profile, locale, refresh=True if refresh else None)
        return cast(GetUserResult, self.call("getUser", params, timeout=timeout))

    def refresh_token(self, *, force: bool = False, profile: Optional[str] = None,
                      locale: Optional[str] = None, timeout: Any = c.DEFAULT) -> RefreshTokenResult:
        """Refreshes the access token when it is within the refresh margin, or always with
        ``force=True``."""
        params = self._params(profile, locale, force=True if force else None)
        return cast(RefreshTokenResult, self.call("refreshToken", params, timeout=timeout))

    def logout(self, *, profile: Optional[str] = None, locale: Optional[str] = None,
               timeout: Any = c.DEFAULT) -> LogoutResult:
        """Revokes the session (best effort) and always clears it locally. Idempotent."""
        return cast(LogoutResult, self.call("logout", self._params(profile, locale), timeout=timeout))

    def status(self, *, profile: Optional[str] = None, locale: Optional[str] = None,
               timeout: Any = c.DEFAULT) -> StatusResult:
        """Version, capabilities, each profile's provider and logged-in state, storage protection."""
        return cast(StatusResult, self.call("status", self._params(profile, locale), timeout=timeout))

    def discover(self, *, timeout: Any = c.DEFAULT) -> OpenRPCDocument:
        """The sidecar's OpenRPC document (``rpc.discover``)."""
        return cast(OpenRPCDocument, self.call("rpc.discover", {}, timeout=timeout))

    def __repr__(self) -> str:
        state = "not started" if not self._started else ("exited" if self._dead else f"pid {self.pid}")
        return f"<AuthSidecar {state}>"


#: A notification-queue item that drops a finished login's ``on_prompt``.
_FORGET_PROMPT = object()


def _copy_exit(error: SidecarExited) -> SidecarExited:
    """A fresh exception per waiter (raising one instance from many threads tangles tracebacks)."""
    return type(error)(error.returncode, error.stderr_tail, error.detail)


def _close_quietly(stream: Any) -> None:
    try:
        stream.close()
    except (OSError, ValueError):
        pass


def _remove(listeners: List[Any], callback: Any) -> None:
    try:
        listeners.remove(callback)
    except ValueError:
        pass


def _run_callback(callback: Callable[..., Any], *args: Any) -> None:
    try:
        callback(*args)
    except Exception:
        c.log.exception("auth-sidecar notification callback %r failed", callback)
