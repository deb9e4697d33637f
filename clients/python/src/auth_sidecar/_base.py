"""What the sync and asyncio clients share: their options, listeners, and everything done with
what the sidecar writes (answers matched to calls, errors mapped to exceptions, notifications
fanned out). Each client adds its transport: threads and pipes, or the event loop."""

from __future__ import annotations

import collections
import itertools

from . import _common as c
from ._errors import ClientClosed, SidecarExited, error_from_response

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time (most of the import cost)
if TYPE_CHECKING:
    from typing import Any, Callable, ContextManager, Deque, Dict, List, Mapping, Optional, Sequence

    from ._requests import PromptCallback
    from ._types import SessionChanged

    SessionCallback = Callable[[SessionChanged], object]
    NotificationCallback = Callable[[str, Any], object]


class CallEntry:
    """A request sent and not yet answered. ``future`` is the transport's own kind of future
    (``concurrent.futures`` or ``asyncio``): both are settled here the same way."""

    __slots__ = ("id", "method", "counted", "future")

    def __init__(self, request_id: int, method: str, counted: bool, future: Any) -> None:
        self.id = request_id
        self.method = method
        self.counted = counted
        self.future = future


class BaseClient:
    """The options of both clients (see :class:`AuthSidecar`) and their shared behaviour."""

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
        handshake: bool = True,
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
        self._handshake = handshake

        self._loads = c.json_codec().loads
        self._pending = c.PendingTable()
        self._ids = itertools.count(1)
        self._in_flight = 0
        self._dead: Optional[SidecarExited] = None
        self._closing = False
        self._stderr_tail: Deque[str] = collections.deque(maxlen=max(stderr_lines, 1))
        self._listeners: List[NotificationCallback] = []
        self._session_listeners: List[SessionCallback] = []
        self._prompt_listeners: List[PromptCallback] = []
        #: ``on_prompt`` of pending interactive logins, by request id (guarded by ``_lock``).
        self._prompt_callbacks: Dict[Any, PromptCallback] = {}
        self._setup()

    def _setup(self) -> None:
        """The transport's own state (the client's constructor ends here)."""
        raise NotImplementedError

    #: Guards the pending table, the in-flight count and the stderr tail (a no-op on one loop).
    _lock: ContextManager[Any]

    def _command(self) -> List[str]:
        binary = c.resolve_binary(self._binary)
        return c.build_command(binary, self._state_dir, self._config, self._log_level, self._args)

    def _counts(self, method: str) -> bool:
        return self._max_in_flight is not None and method not in c.UNCOUNTED_METHODS

    def _check_open(self) -> None:
        if self._dead is not None:
            raise copy_exit(self._dead)
        if self._closing:
            raise ClientClosed(None, (), "the client is closing")

    @property
    def stderr_tail(self) -> List[str]:
        """The last lines the sidecar wrote to stderr."""
        with self._lock:
            return list(self._stderr_tail)

    # -- notifications ------------------------------------------------------------------------

    def on_session_changed(self, callback: SessionCallback) -> Callable[[], None]:
        """Calls ``callback({"profile": ..., "state": ...})`` for every ``sessionChanged`` (state
        ``loggedIn``, ``refreshed``, ``loggedOut`` or ``expired``), before the call whose answer
        follows the notification returns. Returns a function that removes the callback."""
        self._session_listeners.append(callback)
        return lambda: _remove(self._session_listeners, callback)

    def on_notification(self, callback: NotificationCallback) -> Callable[[], None]:
        """Calls ``callback(method, params)`` for every notification the sidecar sends."""
        self._listeners.append(callback)
        return lambda: _remove(self._listeners, callback)

    def on_login_prompt(self, callback: PromptCallback) -> Callable[[], None]:
        """Calls ``callback(prompt)`` for every ``loginPrompt`` (any interactive login of this
        client; ``prompt["id"]`` names the login request). Returns a function that removes it."""
        self._prompt_listeners.append(callback)
        return lambda: _remove(self._prompt_listeners, callback)

    def _deliver(self, method: Any, params: Any) -> None:
        """Runs the listeners of one notification, in the order they were added."""
        for callback in list(self._listeners):
            self._run_callback(callback, method, params)
        if method == c.SESSION_CHANGED:
            for on_change in list(self._session_listeners):
                self._run_callback(on_change, params)
        elif method == c.LOGIN_PROMPT:
            for on_prompt in list(self._prompt_listeners):
                self._run_callback(on_prompt, params)
            request_id = params.get("id") if isinstance(params, dict) else None
            with self._lock:
                own = self._prompt_callbacks.pop(request_id, None)
            if own is not None:
                self._run_callback(own, params)

    def _run_callback(self, callback: Callable[..., object], *args: Any) -> object:
        try:
            return callback(*args)
        except Exception:
            c.log.exception("auth-sidecar notification callback %r failed", callback)
            return None

    # -- what the sidecar writes --------------------------------------------------------------

    def _stdout_line(self, line: bytes) -> None:
        try:
            message = self._loads(line)
        except ValueError:
            if line.strip():
                c.log.warning("auth-sidecar wrote a line that is not JSON on stdout: %.200r", line)
            return
        # The common case first: one answer to one of our calls.
        if type(message) is dict and "method" not in message and "id" in message:
            self._answer(message)
            return
        for kind, item in c.classify(message):
            if kind == c.RESPONSE:
                self._answer(item)
            elif kind == c.NOTIFICATION:
                self._notification(item.get("method"), item.get("params"))
            else:
                c.log.warning("auth-sidecar sent an unexpected message: %.200r", item)

    def _notification(self, method: Any, params: Any) -> None:
        raise NotImplementedError

    def _answer(self, message: Dict[str, Any]) -> None:
        request_id = message.get("id")
        with self._lock:
            if request_id is None:
                call = None
                settled = self._pending.orphan(message.get("error"))
            else:
                call, settled = self._pending.pop(request_id)
            for entry in ([call] if call is not None else []) + [entry for entry, _ in settled]:
                if entry.counted:
                    self._in_flight -= 1
                    self._slot_freed()
        if call is not None:
            error = message.get("error")
            if error is None:
                self._settle(call, message.get("result"), None)
            else:
                self._settle(call, None, error_from_response(error, call.method))
        elif request_id is not None:
            c.log.warning("auth-sidecar answered id %.40r, which no call is waiting for", request_id)
        for entry, error in settled:
            self._settle(entry, None, error_from_response(error, entry.method))

    def _settle(self, call: CallEntry, result: Any, error: Optional[BaseException]) -> None:
        future = call.future
        if future.done():  # the caller was cancelled or timed out (asyncio)
            return
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)

    def _slot_freed(self) -> None:
        """One in-flight slot is free again (called with ``_lock`` held)."""

    def _all_slots_freed(self) -> None:
        """The process is gone: nobody waits for a slot any more (called with ``_lock`` held)."""

    def _stderr_line(self, raw: bytes) -> None:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        with self._lock:
            self._stderr_tail.append(line)
        c.stderr_log.info("%s", line)

    def _mark_dead(self, returncode: Optional[int], detail: str = "") -> None:
        """The process is gone: every pending call fails with its exit, and so will later ones."""
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
            self._all_slots_freed()
        for call in calls:
            self._settle(call, None, copy_exit(error))


def copy_exit(error: SidecarExited) -> SidecarExited:
    """A fresh exception per waiter (raising one instance from many threads tangles tracebacks)."""
    return type(error)(error.returncode, error.stderr_tail, error.detail)


def _remove(listeners: List[Any], callback: Any) -> None:
    try:
        listeners.remove(callback)
    except ValueError:
        pass
