"""The process and the wire: finding the binary, the command line and environment, encoding
requests, classifying what the sidecar writes, and the pending-call table (including the
attribution of answers the sidecar could not address to an id)."""

from __future__ import annotations

import collections
import os

from ._errors import BinaryNotFound

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time (most of the import cost)
if TYPE_CHECKING:
    from logging import Logger
    from typing import Any, Deque, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

    PathLike = Union[str, "os.PathLike[str]"]


class _LazyLogger:
    """A logger that imports :mod:`logging` on first use: it (and what it imports) would be most
    of what ``import auth_sidecar`` costs, and a client that logs nothing never needs it."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        import logging

        return getattr(logging.getLogger(self._name), attribute)


if TYPE_CHECKING:
    log: Logger
    stderr_log: Logger
else:
    log = _LazyLogger("auth_sidecar")
    stderr_log = _LazyLogger("auth_sidecar.stderr")

ENV_BINARY = "AUTH_SIDECAR_BIN"
BINARY_NAME = "auth-sidecar"
CANCEL_METHOD = "$/cancelRequest"
SESSION_CHANGED = "sessionChanged"
LOGIN_PROMPT = "loginPrompt"
#: ``login`` flows where the user acts elsewhere (a browser, another device).
INTERACTIVE_FLOWS = frozenset({"device", "authorizationCode"})

#: Methods the sidecar answers inline (as soon as it reads them): they never count against its
#: in-flight limit, so the client does not queue them behind slow calls.
UNCOUNTED_METHODS = frozenset({"validate", "rpc.discover"})



class _Default:
    """Sentinel for "use the client's default" (distinct from an explicit ``None``)."""

    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT: Any = _Default()


#: Where a release wheel carries the binary (see setup.py); a source install has none there.
BUNDLED_BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", BINARY_NAME)


def resolve_binary(binary: Optional[PathLike] = None) -> str:
    """The executable to run: ``binary``, else ``$AUTH_SIDECAR_BIN``, else the binary inside this
    package (release wheels carry one), else ``auth-sidecar`` on PATH."""
    if binary is not None:
        return _checked(os.fspath(binary), "binary=")
    from_env = os.environ.get(ENV_BINARY)
    if from_env:
        return _checked(from_env, f"${ENV_BINARY}")
    if os.path.isfile(BUNDLED_BINARY) and os.access(BUNDLED_BINARY, os.X_OK):
        return BUNDLED_BINARY
    import shutil  # here, not at import: only starting a client needs it

    found = shutil.which(BINARY_NAME)
    if found:
        return found
    raise BinaryNotFound(
        f"cannot find the {BINARY_NAME} executable: pass binary=..., set {ENV_BINARY}, install a wheel "
        f"that carries it, or put {BINARY_NAME} on PATH"
    )


def _checked(path: str, source: str) -> str:
    if os.sep not in path and not os.path.exists(path):
        import shutil

        found = shutil.which(path)
        if found:
            return found
    if not os.path.isfile(path):
        raise BinaryNotFound(f"{source} names {path!r}, which is not a file")
    if not os.access(path, os.X_OK):
        raise BinaryNotFound(f"{source} names {path!r}, which is not executable")
    return path


def build_command(
    binary: str,
    state_dir: Optional[PathLike],
    config: Optional[PathLike],
    log_level: Optional[str],
    args: Sequence[str],
) -> List[str]:
    """The sidecar's argv. Never carries a secret: passwords only ever travel in requests."""
    command = [binary, "--framing", "ndjson"]
    if state_dir is not None:
        command += ["--state-dir", os.fspath(state_dir)]
    if config is not None:
        command += ["--config", os.fspath(config)]
    if log_level is not None:
        command += ["--log-level", log_level]
    command += [str(a) for a in args]
    return command


def build_env(env: Optional[Mapping[str, Optional[str]]]) -> Dict[str, str]:
    """``os.environ`` updated with ``env``; a ``None`` value removes that variable."""
    merged = dict(os.environ)
    for key, value in (env or {}).items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


# ---------------------------------------------------------------------------------------------
# Messages
# ---------------------------------------------------------------------------------------------

_encoder: Any = None


def json_codec() -> Any:
    """The ``json`` module, imported at the first client rather than at ``import auth_sidecar``:
    with the ``re`` module it pulls in, it is most of the package's import time, which every host
    pays at launch even when it never logs anyone in."""
    global _encoder
    import json

    if _encoder is None:
        # ensure_ascii=True: the output is plain ASCII (no encoding step can fail); a lone surrogate
        # in a str is sent as its \uXXXX escape and the sidecar answers parse_error, attributed below.
        _encoder = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return json


def encode_request(request_id: int, method: str, params: Any) -> bytes:
    if _encoder is None:
        json_codec()
    if params is None:
        text = '{"jsonrpc":"2.0","id":%d,"method":%s}\n' % (request_id, _encoder.encode(method))
    else:
        text = '{"jsonrpc":"2.0","id":%d,"method":%s,"params":%s}\n' % (
            request_id,
            _encoder.encode(method),
            _encoder.encode(params),
        )
    return text.encode("ascii")


def encode_cancel(request_id: int) -> bytes:
    return b'{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":%d}}\n' % request_id


# Kinds of lines read from the sidecar's stdout.
RESPONSE = 0
NOTIFICATION = 1
OTHER = 2


def classify(message: Any) -> Iterable[Tuple[int, Any]]:
    """Splits one decoded stdout message into (kind, message) pairs (a batch answer is a list)."""
    items = message if isinstance(message, list) else (message,)
    for item in items:
        if not isinstance(item, dict):
            yield OTHER, item
        elif "method" in item:
            yield (NOTIFICATION if "id" not in item else OTHER), item
        elif "id" in item and ("result" in item or "error" in item):
            yield RESPONSE, item
        else:
            yield OTHER, item


# ---------------------------------------------------------------------------------------------
# Pending calls
# ---------------------------------------------------------------------------------------------

class PendingTable:
    """The calls sent and not yet answered, by id.

    The sidecar answers a message it could not read an id from (unparsable JSON, over the size
    limit, too deep) with ``id: null``. Only this client writes to the sidecar's stdin and every
    message it writes carries an id, so such an answer belongs to one of the pending calls, which
    will get no other answer. Which one is known for certain once every other pending call has
    been answered: whenever the number of pending calls equals the number of such anonymous
    errors, all of them are the rejected ones (paired in sending order). So a lone call gets its
    error at once, and a rejected call never waits for an answer that cannot come.

    Not thread-safe: the sync client guards it with its lock; the async one uses one loop.
    """

    __slots__ = ("entries", "orphans")

    def __init__(self) -> None:
        self.entries: Dict[int, Any] = {}
        self.orphans: Deque[Any] = collections.deque()

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, request_id: int, entry: Any) -> None:
        self.entries[request_id] = entry

    def pop(self, request_id: Any) -> Tuple[Optional[Any], List[Tuple[Any, Any]]]:
        """Removes the entry answered with ``request_id``; also returns anonymous errors now
        attributable, as (entry, error object) pairs."""
        entry = self.entries.pop(request_id, None) if isinstance(request_id, int) else None
        if entry is None:
            return None, []
        return entry, (self._settle() if self.orphans else [])

    def orphan(self, error: Any) -> List[Tuple[Any, Any]]:
        """Records an ``id: null`` error; returns the (entry, error) pairs now attributable."""
        self.orphans.append(error)
        return self._settle()

    def _settle(self) -> List[Tuple[Any, Any]]:
        while len(self.orphans) > len(self.entries):
            # Cannot be ours (nothing pending could have caused it): drop it.
            log.warning("auth-sidecar answered an error without an id that matches no call: %r",
                        self.orphans.pop())
        if not self.orphans or len(self.entries) != len(self.orphans):
            return []
        settled = [(self.entries.pop(i), self.orphans.popleft()) for i in sorted(self.entries)]
        return settled

    def take_all(self) -> List[Any]:
        entries = list(self.entries.values())
        self.entries.clear()
        self.orphans.clear()
        return entries
