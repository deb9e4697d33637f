"""The asyncio client: one sidecar process, calls from any number of tasks."""

from __future__ import annotations

import asyncio
import collections
import functools
import inspect
import subprocess
from typing import TYPE_CHECKING, Any, Callable, Coroutine, Deque, List, Optional, Set, TypeVar, cast

from . import _common as c
from . import _codes as codes
from . import _requests as r
from ._base import BaseClient, CallEntry, copy_exit
from ._errors import AuthSidecarError, CallTimeout, SidecarExited

if TYPE_CHECKING:
    from typing_extensions import Concatenate, ParamSpec

    P = ParamSpec("P")

__all__ = ["AsyncAuthSidecar"]

T = TypeVar("T")


class _NoLock:
    """One event loop runs everything: nothing to guard."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _awaitable(build: Callable[Concatenate[BaseClient, P], r.Request[T]],
               ) -> Callable[Concatenate[AsyncAuthSidecar, P], Coroutine[Any, Any, T]]:
    """The coroutine method of a request builder: sends the request and awaits its answer."""

    async def method(self: AsyncAuthSidecar, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._perform(build(self, *args, **kwargs))

    functools.update_wrapper(method, build)
    return method


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


class AsyncAuthSidecar(BaseClient):
    """The asyncio twin of :class:`AuthSidecar`: ``async with AsyncAuthSidecar(...) as s:``.

    Calls from many tasks share the one process. Cancelling a task that awaits a call sends
    ``$/cancelRequest`` for it. Notification callbacks may be plain functions (run in order, as
    the notification arrives and before any later answer is delivered: they must not block) or
    coroutine functions (scheduled as tasks).

    Options are those of :class:`AuthSidecar`.
    """

    def _setup(self) -> None:
        self._lock = _NoLock()
        self._transport: Optional[asyncio.SubprocessTransport] = None
        self._stdin: Optional[asyncio.WriteTransport] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._starting: Optional[asyncio.Future[None]] = None
        self._exited: Optional[asyncio.Future[None]] = None
        self._write_paused = False
        self._drain_waiters: List[asyncio.Future[None]] = []
        self._slot_waiters: Deque[asyncio.Future[None]] = collections.deque()
        self._closed: Optional[asyncio.Future[None]] = None
        self._pid: Optional[int] = None
        self._callback_tasks: Set[asyncio.Future[Any]] = set()

    validate = _awaitable(r.validate)
    register = _awaitable(r.register)
    send_code = _awaitable(codes.send_code)
    reset_password = _awaitable(codes.reset_password)
    login = _awaitable(r.login)
    get_user = _awaitable(r.get_user)
    refresh_token = _awaitable(r.refresh_token)
    logout = _awaitable(r.logout)
    status = _awaitable(r.status)
    discover = _awaitable(r.discover)
    call = _awaitable(r.call)

    # -- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> AsyncAuthSidecar:
        """Spawns the sidecar (once) and, with ``handshake`` (the default), waits for its first
        answer. Raises :class:`BinaryNotFound` without an executable, :class:`SidecarExited` when
        the sidecar exits at start (78: a bad config; ``stderr_tail`` says why)."""
        if self._dead is not None:
            raise copy_exit(self._dead)
        if self._starting is not None:
            await asyncio.shield(self._starting)
            return self
        loop = asyncio.get_running_loop()
        self._loop = loop
        starting = self._starting = loop.create_future()
        try:
            command = self._command()
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
            self._transport = transport
            self._pid = transport.get_pid()
            self._stdin = cast(asyncio.WriteTransport, transport.get_pipe_transport(0))
            self._closed = loop.create_future()
            c.log.debug("started auth-sidecar[%d]: %s", self._pid, command)
            if self._handshake:
                await self._handshake_once()
        except BaseException as error:
            self._starting = None
            starting.set_exception(error)
            starting.exception()  # retrieved: other starters re-raise it, nobody else must
            raise
        starting.set_result(None)
        return self

    async def _handshake_once(self) -> None:
        try:
            await self._call(r.HANDSHAKE_METHOD, r.HANDSHAKE_PARAMS, self.timeout)
        except AuthSidecarError:
            pass  # an answer all the same
        except SidecarExited:
            await self.close()
            raise

    async def close(self) -> None:
        """Stops the sidecar cleanly: closes its stdin (it answers what is in flight and exits),
        waits up to ``shutdown_timeout``, then terminates and finally kills it. Idempotent."""
        transport = self._transport
        if transport is None:
            self._closing = True
            if self._dead is None:
                self._mark_dead(None)
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

    async def __aenter__(self) -> AsyncAuthSidecar:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def pid(self) -> Optional[int]:
        """The sidecar's process id (``None`` before :meth:`start`)."""
        return self._pid

    @property
    def returncode(self) -> Optional[int]:
        """The sidecar's exit code once it has exited (negative: killed by that signal)."""
        return self._transport.get_returncode() if self._transport else None

    # -- notifications: plain callbacks run at once, before any later answer ---------------------

    def _notification(self, method: Any, params: Any) -> None:
        self._deliver(method, params)

    def _run_callback(self, callback: Callable[..., object], *args: Any) -> object:
        outcome = super()._run_callback(callback, *args)
        if inspect.isawaitable(outcome):
            task = asyncio.ensure_future(outcome)
            self._callback_tasks.add(task)
            task.add_done_callback(self._callback_done)
        return outcome

    def _callback_done(self, task: asyncio.Future[Any]) -> None:
        self._callback_tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            c.log.error("auth-sidecar notification callback failed", exc_info=task.exception())

    # -- calls --------------------------------------------------------------------------------

    async def _perform(self, request: r.Request[T]) -> T:
        result: T = await self._call(request.method, request.params, request.timeout, request.on_prompt)
        return result

    async def _call(self, method: str, params: Any, timeout: Any,
                    on_prompt: Optional[r.PromptCallback] = None) -> Any:
        if self._transport is None:
            await self.start()
        request_id = next(self._ids)
        data = c.encode_request(request_id, method, params)  # TypeError/ValueError: nothing sent
        counted = self._counts(method)
        limit = self._max_in_flight or 0
        while counted and self._in_flight >= limit and self._dead is None:
            await self._wait_for_slot()
        self._check_open()
        loop = self._loop
        stdin = self._stdin
        assert loop is not None and stdin is not None
        future: "asyncio.Future[Any]" = loop.create_future()
        self._pending.add(request_id, CallEntry(request_id, method, counted, future))
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

    def _slot_freed(self) -> None:
        self._wake_one()

    def _all_slots_freed(self) -> None:
        while self._slot_waiters:
            waiter = self._slot_waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)

    def _send_cancel(self, request_id: int) -> None:
        stdin = self._stdin
        if stdin is None or self._dead is not None or self._closing or stdin.is_closing():
            return
        stdin.write(c.encode_cancel(request_id))

    # -- the process ending -----------------------------------------------------------------------

    def _finished(self) -> None:
        transport = self._transport
        self._mark_dead(transport.get_returncode() if transport else None)
        if self._exited is not None and not self._exited.done():
            self._exited.set_result(None)
        self._resume_writing()

    def __repr__(self) -> str:
        state = "not started" if self._transport is None else ("exited" if self._dead else f"pid {self.pid}")
        return f"<AsyncAuthSidecar {state}>"


async def _wait(future: asyncio.Future[None], seconds: float) -> bool:
    """Waits for ``future`` up to ``seconds`` without cancelling it; True if it is done."""
    if not future.done():
        await asyncio.wait([future], timeout=seconds)
    return future.done()


def _signal(send: Callable[[], None]) -> None:
    try:
        send()
    except ProcessLookupError:
        pass
