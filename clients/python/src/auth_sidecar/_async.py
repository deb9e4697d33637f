"""The asyncio client: one sidecar process, calls from any number of tasks."""

from __future__ import annotations

import asyncio
import collections
import inspect
import itertools
import json
import subprocess
from typing import Any, Awaitable, Callable, Deque, Dict, List, Mapping, Optional, Sequence, Set, Union, cast

from . import _common as c
from ._errors import CallTimeout, ClientClosed, SidecarExited, error_from_response
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

__all__ = ["AsyncAuthSidecar"]

SessionCallback = Callable[[SessionChanged], Union[None, Awaitable[None]]]
NotificationCallback = Callable[[str, Any], Union[None, Awaitable[None]]]
PromptCallback = Callable[[LoginPrompt], Union[None, Awaitable[None]]]


class _Call:
    __slots__ = ("id", "method", "future", "counted")

    def __init__(self, request_id: int, method: str, future: "asyncio.Future[Any]", counted: bool) -> None:
        self.id = request_id
        self.method = method
        self.future = future
        self.counted = counted


class _Protocol(asyncio.SubprocessProtocol):
    """Feeds the sidecar's stdout and stderr to the client as they arrive, straight from the
    event loop's callbacks (no reader task: one hop less per answer)."""

    def __init__(self, client: "AsyncAuthSidecar") -> None:
        self.client = client
        self.partial = {1: b"", 2: b""}

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        handle = self.client._stdout_line if fd == 1 else self.client._stderr_line
        if self.partial[fd]:
            data = self.partial[fd] + data
        lines = data.split(b"\n")
        self.partial[fd] = lines.pop()  # b"" when data ended with a newline
        for line in lines:
            handle(line)

    def pipe_connection_lost(self, fd: int, exc: Optional[Exception]) -> None:
        rest = self.partial.get(fd)
        if rest:
            self.partial[fd] = b""
            (self.client._stdout_line if fd == 1 else self.client._stderr_line)(rest)

    def pause_writing(self) -> None:
        self.client._write_paused = True

    def resume_writing(self) -> None:
        self.client._resume_writing()

    def connection_lost(self, exc: Optional[Exception]) -> None:
        # Called once the process has exited and all its pipes are closed.
        self.client._finished()


class AsyncAuthSidecar:
    """The asyncio twin of :class:`AuthSidecar`: ``async with AsyncAuthSidecar(...) as s:``.

    Calls from many tasks share the one process. Cancelling a task that awaits a call sends
    ``$/cancelRequest`` for it. Notification callbacks may be plain functions (run in order, as
    the notification arrives and before any later answer is delivered: they must not block) or
    coroutine functions (scheduled as tasks).

    Options are those of :class:`AuthSidecar`.
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

        self._transport: Optional[asyncio.SubprocessTransport] = None
        self._stdin: Optional[asyncio.WriteTransport] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._starting: Optional["asyncio.Future[None]"] = None
        self._exited: Optional["asyncio.Future[None]"] = None
        self._write_paused = False
        self._drain_waiters: List["asyncio.Future[None]"] = []
        self._pending: c.PendingTable[_Call] = c.PendingTable()
        self._ids = itertools.count(1)
        self._in_flight = 0
        self._slot_waiters: Deque["asyncio.Future[None]"] = collections.deque()
        self._dead: Optional[SidecarExited] = None
        self._closing = False
        self._closed: Optional["asyncio.Future[None]"] = None
        self._pid: Optional[int] = None
        self._stderr_tail: Deque[str] = collections.deque(maxlen=max(stderr_lines, 1))
        self._callback_tasks: Set["asyncio.Future[Any]"] = set()
        self._listeners: List[NotificationCallback] = []
        self._session_listeners: List[SessionCallback] = []
        self._prompt_listeners: List[PromptCallback] = []
        #: ``on_prompt`` of pending interactive logins, by request id.
        self._prompt_callbacks: Dict[int, PromptCallback] = {}

    # -- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> "AsyncAuthSidecar":
        """Spawns the sidecar (once). Raises :class:`BinaryNotFound` without an executable."""
        if self._dead is not None:
            raise _copy_exit(self._dead)
        if self._transport is not None:
            return self
        if self._starting is not None:
            await asyncio.shield(self._starting)
            return self
        loop = asyncio.get_running_loop()
        self._loop = loop
        starting = self._starting = loop.create_future()
        try:
            binary = c.resolve_binary(self._binary)
            command = c.build_command(binary, self._state_dir, self._config, self._log_level, self._args)
            self._exited = loop.create_future()
            transport, _ = await loop.subprocess_exec(
                lambda: _Protocol(self),
                *command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=c.build_env(self._env),
                cwd=self._cwd,
                start_new_session=True,  # a terminal's Ctrl-C is for the host (see AuthSidecar)
            )
        except BaseException as error:
            self._starting = None
            starting.set_exception(error)
            starting.exception()  # retrieved: other starters re-raise it, nobody else must
            raise
        self._transport = transport
        self._pid = transport.get_pid()
        self._stdin = cast(asyncio.WriteTransport, transport.get_pipe_transport(0))
        self._closed = loop.create_future()
        starting.set_result(None)
        c.log.debug("started auth-sidecar[%d]: %s", self._pid, command)
        return self

    async def close(self) -> None:
        """Stops the sidecar cleanly: closes its stdin (it answers what is in flight and exits),
        waits up to ``shutdown_timeout``, then terminates and finally kills it. Idempotent."""
        transport = self._transport
        if transport is None:
            self._closing = True
            if self._dead is None:
                self._dead = ClientClosed(None, (), "the client was closed")
            return
        if self._closing:
            if self._closed is not None:
                await asyncio.shield(self._closed)
            return
        self._closing = True
        exited = self._exited
        assert exited is not None
        try:
            if self._stdin is not None:
                self._stdin.close()  # EOF once what is buffered is written
            if not await _wait(exited, self._shutdown_timeout):
                c.log.warning("auth-sidecar[%s] did not exit within %g s of EOF; terminating",
                              self._pid, self._shutdown_timeout)
                _signal(transport.terminate)
                if not await _wait(exited, 2.0):
                    _signal(transport.kill)
                    await _wait(exited, 5.0)
            self._mark_dead(transport.get_returncode())
        finally:
            transport.close()
            if self._closed is not None and not self._closed.done():
                self._closed.set_result(None)

    async def __aenter__(self) -> "AsyncAuthSidecar":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @property
    def pid(self) -> Optional[int]:
        """The sidecar's process id (``None`` before :meth:`start`)."""
        return self._pid

    @property
    def returncode(self) -> Optional[int]:
        """The sidecar's exit code once it has exited (negative: killed by that signal)."""
        return self._transport.get_returncode() if self._transport else None

    @property
    def stderr_tail(self) -> List[str]:
        """The last lines the sidecar wrote to stderr."""
        return list(self._stderr_tail)

    # -- notifications ------------------------------------------------------------------------

    def on_session_changed(self, callback: SessionCallback) -> Callable[[], None]:
        """Calls ``callback({"profile": ..., "state": ...})`` for every ``sessionChanged``.
        Returns a function that removes the callback."""
        self._session_listeners.append(callback)
        return lambda: _remove(self._session_listeners, callback)

    def on_notification(self, callback: NotificationCallback) -> Callable[[], None]:
        """Calls ``callback(method, params)`` for every notification the sidecar sends."""
        self._listeners.append(callback)
        return lambda: _remove(self._listeners, callback)

    def on_login_prompt(self, callback: PromptCallback) -> Callable[[], None]:
        """Calls ``callback(prompt)`` (a function or a coroutine function) for every
        ``loginPrompt``. Returns a function that removes the callback."""
        self._prompt_listeners.append(callback)
        return lambda: _remove(self._prompt_listeners, callback)

    def _notify(self, method: Any, params: Any) -> None:
        for callback in list(self._listeners):
            self._run_callback(callback, method, params)
        if method == c.SESSION_CHANGED:
            for on_change in list(self._session_listeners):
                self._run_callback(on_change, params)
        elif method == c.LOGIN_PROMPT:
            for on_prompt in list(self._prompt_listeners):
                self._run_callback(on_prompt, params)
            own = self._prompt_callbacks.pop(c.prompt_request_id(params), None)  # type: ignore[arg-type]
            if own is not None:
                self._run_callback(own, params)

    def _run_callback(self, callback: Callable[..., Any], *args: Any) -> None:
        try:
            outcome = callback(*args)
        except Exception:
            c.log.exception("auth-sidecar notification callback %r failed", callback)
            return
        if inspect.isawaitable(outcome):
            task = asyncio.ensure_future(outcome)
            self._callback_tasks.add(task)
            task.add_done_callback(self._callback_done)

    def _callback_done(self, task: "asyncio.Future[Any]") -> None:
        self._callback_tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            c.log.error("auth-sidecar notification callback failed", exc_info=task.exception())

    # -- calls --------------------------------------------------------------------------------

    async def call(self, method: str, params: Any = None, *, timeout: Any = c.DEFAULT) -> Any:
        """Sends any request and returns its result (raises its error as an exception).

        Cancelling the awaiting task sends ``$/cancelRequest``; with ``timeout`` (seconds) an
        unanswered call is cancelled the same way and raises :class:`CallTimeout`.
        """
        return await self._call(method, params, timeout)

    async def _call(self, method: str, params: Any, timeout: Any,
                    on_prompt: Optional[PromptCallback] = None) -> Any:
        if self._transport is None:
            await self.start()
        if timeout is c.DEFAULT:
            timeout = self.timeout
        request_id = next(self._ids)
        data = c.encode_request(request_id, method, params)  # TypeError/ValueError: nothing sent
        counted = self._max_in_flight is not None and method not in c.UNCOUNTED_METHODS
        if counted:
            while self._in_flight >= self._max_in_flight and self._dead is None:  # type: ignore[operator]
                await self._wait_for_slot()
        if self._dead is not None:
            raise _copy_exit(self._dead)
        if self._closing:
            raise ClientClosed(None, (), "the client is closing")
        loop = self._loop
        stdin = self._stdin
        assert loop is not None and stdin is not None
        future: "asyncio.Future[Any]" = loop.create_future()
        self._pending.add(request_id, _Call(request_id, method, future, counted))
        if counted:
            self._in_flight += 1
        if on_prompt is not None:
            self._prompt_callbacks[request_id] = on_prompt
        # A closed pipe (the process is gone) drops the write: the exit fails this call.
        stdin.write(data)
        try:
            if self._write_paused:
                await self._drain()
            if timeout is None:
                return await future
            return await asyncio.wait_for(future, timeout)
        except asyncio.CancelledError:
            if not future.done() or future.cancelled():
                future.cancel()
                self._send_cancel(request_id)
            raise
        except asyncio.TimeoutError:
            if future.cancelled():
                self._send_cancel(request_id)
                raise CallTimeout(f"{method}: no answer from auth-sidecar within {timeout:g} s") from None
            raise
        finally:
            self._prompt_callbacks.pop(request_id, None)

    async def _drain(self) -> None:
        assert self._loop is not None
        waiter: "asyncio.Future[None]" = self._loop.create_future()
        self._drain_waiters.append(waiter)
        await waiter

    def _resume_writing(self) -> None:
        self._write_paused = False
        waiters, self._drain_waiters = self._drain_waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def _wait_for_slot(self) -> None:
        assert self._loop is not None
        waiter: "asyncio.Future[None]" = self._loop.create_future()
        self._slot_waiters.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._wake_one()  # pass the slot we were given on
            raise

    def _wake_one(self) -> None:
        while self._slot_waiters:
            waiter = self._slot_waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    def _release(self, call: _Call) -> None:
        if call.counted:
            self._in_flight -= 1
            self._wake_one()

    def _send_cancel(self, request_id: int) -> None:
        stdin = self._stdin
        if stdin is None or self._dead is not None or self._closing or stdin.is_closing():
            return
        stdin.write(c.encode_cancel(request_id))

    # -- what the sidecar writes ----------------------------------------------------------------

    def _stdout_line(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            if line.strip():
                c.log.warning("auth-sidecar wrote a line that is not JSON on stdout: %.200r", line)
            return
        if type(message) is dict and "method" not in message and "id" in message:
            self._answer(message)
            return
        for kind, item in c.classify(message):
            if kind == c.RESPONSE:
                self._answer(item)
            elif kind == c.NOTIFICATION:
                self._notify(item.get("method"), item.get("params"))
            else:
                c.log.warning("auth-sidecar sent an unexpected message: %.200r", item)

    def _answer(self, message: Dict[str, Any]) -> None:
        request_id = message.get("id")
        if request_id is None:
            call = None
            settled = self._pending.orphan(message.get("error"))
        else:
            call, settled = self._pending.pop(request_id)
            if call is None:
                c.log.warning("auth-sidecar answered id %.40r, which no call is waiting for", request_id)
        if call is not None:
            self._release(call)
            if not call.future.done():  # done: the caller was cancelled or timed out
                error = message.get("error")
                if error is None:
                    call.future.set_result(message.get("result"))
                else:
                    call.future.set_exception(error_from_response(error, call.method))
        for entry, error in settled:
            self._release(entry)
            if not entry.future.done():
                entry.future.set_exception(error_from_response(error, entry.method))

    def _stderr_line(self, raw: bytes) -> None:
        line = raw.decode("utf-8", "replace").rstrip("\r")
        self._stderr_tail.append(line)
        c.stderr_log.info("%s", line)

    def _finished(self) -> None:
        transport = self._transport
        self._mark_dead(transport.get_returncode() if transport else None)
        if self._exited is not None and not self._exited.done():
            self._exited.set_result(None)
        self._resume_writing()

    def _mark_dead(self, returncode: Optional[int]) -> None:
        if self._dead is None:
            tail = list(self._stderr_tail)
            if self._closing:
                self._dead = ClientClosed(returncode, tail, "the client was closed")
            else:
                self._dead = SidecarExited(returncode, tail)
        for call in self._pending.take_all():
            if not call.future.done():
                call.future.set_exception(_copy_exit(self._dead))
        self._in_flight = 0
        while self._slot_waiters:
            waiter = self._slot_waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)

    # -- the methods ----------------------------------------------------------------------------

    def _params(self, profile: Optional[str], locale: Optional[str], **values: Any) -> Dict[str, Any]:
        return c.params_of(profile=profile or self.profile, locale=locale or self.locale, **values)

    async def validate(
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
        return cast(ValidationResult, await self.call("validate", params, timeout=timeout))

    async def register(
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
        return cast(RegisterResult, await self.call("register", params, timeout=timeout))

    async def login(
        self,
        *,
        account: Optional[str] = None,
        username: Optional[str] = None,
        email: Optional[str] = None,
        phone: Optional[str] = None,
        password: Optional[str] = None,
        flow: Optional[LoginFlow] = None,
        on_prompt: Optional[PromptCallback] = None,
        profile: Optional[str] = None,
        locale: Optional[str] = None,
        timeout: Any = c.DEFAULT,
    ) -> LoginResult:
        """Logs in with exactly one of ``account``, ``username``, ``email``, ``phone``, and
        ``password``; or, with ``flow="device"`` / ``"authorizationCode"`` (oauth2 profiles),
        with nothing typed here: ``on_prompt(prompt)`` (a function or coroutine function) gets
        what to show or open, and the call returns once the user is done. Cancelling the task
        stops the wait."""
        params = c.login_params(account, username, email, phone, password,
                                profile or self.profile, locale or self.locale, flow)
        return cast(LoginResult, await self._call("login", params,
                                                  self.timeout if timeout is c.DEFAULT else timeout,
                                                  on_prompt))

    async def get_user(self, *, refresh: bool = False, profile: Optional[str] = None,
                       locale: Optional[str] = None, timeout: Any = c.DEFAULT) -> GetUserResult:
        """The logged-in user and session; ``refresh=True`` fetches the user first."""
        params = self._params(profile, locale, refresh=True if refresh else None)
        return cast(GetUserResult, await self.call("getUser", params, timeout=timeout))

    async def refresh_token(self, *, force: bool = False, profile: Optional[str] = None,
                            locale: Optional[str] = None, timeout: Any = c.DEFAULT) -> RefreshTokenResult:
        """Refreshes within the refresh margin, or always with ``force=True``."""
        params = self._params(profile, locale, force=True if force else None)
        return cast(RefreshTokenResult, await self.call("refreshToken", params, timeout=timeout))

    async def logout(self, *, profile: Optional[str] = None, locale: Optional[str] = None,
                     timeout: Any = c.DEFAULT) -> LogoutResult:
        """Revokes the session (best effort) and always clears it locally. Idempotent."""
        return cast(LogoutResult, await self.call("logout", self._params(profile, locale), timeout=timeout))

    async def status(self, *, profile: Optional[str] = None, locale: Optional[str] = None,
                     timeout: Any = c.DEFAULT) -> StatusResult:
        """Version, capabilities, each profile's provider and logged-in state, storage protection."""
        return cast(StatusResult, await self.call("status", self._params(profile, locale), timeout=timeout))

    async def discover(self, *, timeout: Any = c.DEFAULT) -> OpenRPCDocument:
        """The sidecar's OpenRPC document (``rpc.discover``)."""
        return cast(OpenRPCDocument, await self.call("rpc.discover", {}, timeout=timeout))

    def __repr__(self) -> str:
        state = "not started" if self._transport is None else ("exited" if self._dead else f"pid {self.pid}")
        return f"<AsyncAuthSidecar {state}>"


async def _wait(future: "asyncio.Future[None]", seconds: float) -> bool:
    """Waits for ``future`` up to ``seconds`` without cancelling it; True if it is done."""
    if not future.done():
        await asyncio.wait([future], timeout=seconds)
    return future.done()


def _copy_exit(error: SidecarExited) -> SidecarExited:
    return type(error)(error.returncode, error.stderr_tail, error.detail)


def _signal(send: Callable[[], None]) -> None:
    try:
        send()
    except ProcessLookupError:
        pass


def _remove(listeners: List[Any], callback: Any) -> None:
    try:
        listeners.remove(callback)
    except ValueError:
        pass
