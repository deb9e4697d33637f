"""Exceptions: one class per error kind the sidecar answers, plus the client's own errors.

The kind -> class table, ``ERROR_KINDS``, is the single place that maps the sidecar's stable
``error.data.kind`` strings (``schema/openrpc.json``, ``components.errors``) to classes.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time (most of the import cost)
if TYPE_CHECKING:
    from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Type

    from ._types import ValidationFields

__all__ = [
    "SidecarError",
    "AuthSidecarError",
    "ValidationFailed",
    "InvalidCredentials",
    "NotLoggedIn",
    "SessionExpired",
    "RateLimited",
    "NetworkUnavailable",
    "Timeout",
    "RequestTimeout",
    "ServerError",
    "BadResponse",
    "TLSError",
    "StorageUnavailable",
    "StorageCorrupt",
    "AlreadyExists",
    "Unsupported",
    "ConfigError",
    "Cancelled",
    "InternalError",
    "ParseError",
    "InvalidRequest",
    "MethodNotFound",
    "InvalidParams",
    "VerificationRequired",
    "ERROR_KINDS",
    "error_from_response",
    "SidecarExited",
    "ClientClosed",
    "BinaryNotFound",
    "CallTimeout",
]


class SidecarError(Exception):
    """Base of every exception this package raises."""


# ---------------------------------------------------------------------------------------------
# Errors answered by the sidecar
# ---------------------------------------------------------------------------------------------


class AuthSidecarError(SidecarError):
    """An error answer from the sidecar (a JSON-RPC ``error`` object).

    Switch on the subclass (or on ``kind``, the stable ``error.data.kind`` string). ``message`` is
    short, human and localized; it never contains a secret.
    """

    #: The kind this class stands for (set from ``ERROR_KINDS``); ``None`` on the base class.
    KIND: Optional[str] = None
    #: Whether ``fields`` is a dict even when the answer carried none.
    _FIELDS_ALWAYS = False

    def __init__(
        self,
        kind: str,
        code: int,
        message: str,
        retryable: bool = False,
        retry_after: Optional[float] = None,
        fields: Optional[ValidationFields] = None,
        data: Optional[Dict[str, Any]] = None,
        *,
        method: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.code = code
        self.message = message
        self.retryable = retryable
        self.retry_after = retry_after
        #: The per-field report of ``validate`` (always there on :class:`ValidationFailed`).
        self.fields = {} if fields is None and self._FIELDS_ALWAYS else fields
        self.data: Dict[str, Any] = dict(data) if data else {}
        #: The RPC method whose call failed, when known.
        self.method = method

    @property
    def field(self) -> Optional[str]:
        """``data.field``: the offending params key (invalid_params) or field (already_exists)."""
        value = self.data.get("field")
        return value if isinstance(value, str) else None

    @property
    def reason(self) -> Optional[str]:
        """``data.reason``: why, when the kind alone does not say (``"unknown_account"`` on
        :class:`InvalidCredentials`, ``"too_many_in_flight"`` on :class:`RateLimited`, …)."""
        value = self.data.get("reason")
        return value if isinstance(value, str) else None

    @property
    def status(self) -> Optional[int]:
        """``data.status``: the upstream HTTP status, where relevant."""
        value = self.data.get("status")
        return value if isinstance(value, int) else None

    def __str__(self) -> str:
        where = f" in {self.method}" if self.method else ""
        return f"{self.message} ({self.kind}, code {self.code}{where})"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(kind={self.kind!r}, code={self.code!r}, message={self.message!r}, "
            f"retryable={self.retryable!r}, retry_after={self.retry_after!r})"
        )

    def __reduce__(self) -> Any:
        return (
            _rebuild_error,
            (type(self), self.kind, self.code, self.message, self.retryable, self.retry_after,
             self.fields, self.data, self.method),
        )


def _rebuild_error(cls: Type[AuthSidecarError], kind: str, code: int, message: str, retryable: bool,
                   retry_after: Optional[float], fields: Optional[ValidationFields],
                   data: Optional[Dict[str, Any]], method: Optional[str]) -> AuthSidecarError:
    return cls(kind, code, message, retryable, retry_after, fields, data, method=method)


class ValidationFailed(AuthSidecarError):
    """Input failed the validation rules; ``fields`` has the per-field report of ``validate``."""

    fields: ValidationFields
    _FIELDS_ALWAYS = True


class InvalidCredentials(AuthSidecarError):
    """Unknown account, wrong password or disabled account (one answer for all), unless the profile
    reads an unknown account from a server that already tells it: then ``unknown_account`` is true
    (``reason == "unknown_account"``) and a host may offer to register instead."""

    @property
    def unknown_account(self) -> bool:
        return self.reason == "unknown_account"

    @property
    def reason(self) -> Optional[str]:
        """For a code: ``"invalid_code"`` (let the user type again) or ``"code_expired"`` (send a new one)."""
        value = self.data.get("reason")
        return value if isinstance(value, str) else None


class VerificationRequired(AuthSidecarError):
    """The password was right; a second step is needed. Ask for a code by one of ``methods`` (``sms``,
    ``email``, ``totp``, ``recovery``), then call ``login(challenge=e.challenge, code=...)``. When the
    sidecar sent a code while answering, ``sent_to`` and ``resend_at`` say where and when another may be sent
    (``send_code(challenge=e.challenge)``). The challenge is a secret: do not log it."""

    @property
    def challenge(self) -> str:
        value = self.data.get("challenge")
        return value if isinstance(value, str) else ""

    @property
    def methods(self) -> List[str]:
        value = self.data.get("methods")
        return [m for m in value if isinstance(m, str)] if isinstance(value, list) else []

    @property
    def expires_at(self) -> Optional[str]:
        """RFC 3339: when the challenge stops being accepted."""
        value = self.data.get("expiresAt")
        return value if isinstance(value, str) else None

    @property
    def sent_to(self) -> Optional[str]:
        value = self.data.get("sentTo")
        return value if isinstance(value, str) else None

    @property
    def resend_at(self) -> Optional[str]:
        value = self.data.get("resendAt")
        return value if isinstance(value, str) else None


class NotLoggedIn(AuthSidecarError):
    """The profile has no session. ``last_account`` may pre-fill a login form."""

    @property
    def last_account(self) -> Optional[str]:
        value = self.data.get("lastAccount")
        return value if isinstance(value, str) else None


class SessionExpired(AuthSidecarError):
    """The refresh was rejected; the local session is already cleared. Log in again."""


class RateLimited(AuthSidecarError):
    """Too many attempts (wait ``retry_after`` seconds) or too many requests in flight
    (``reason == "too_many_in_flight"``)."""

    @property
    def resend_at(self) -> Optional[str]:
        """For ``send_code``: RFC 3339, when the next code may be sent (draw the countdown from it)."""
        value = self.data.get("resendAt")
        return value if isinstance(value, str) else None


class NetworkUnavailable(AuthSidecarError):
    """The auth server cannot be reached. The session is kept."""


class Timeout(SidecarError, TimeoutError):
    """Something took too long: the auth server (:class:`RequestTimeout`) or the sidecar's answer
    (:class:`CallTimeout`). Also the builtin :class:`TimeoutError`, so ``except TimeoutError``
    catches both."""


class RequestTimeout(AuthSidecarError, Timeout):
    """Error kind ``timeout``: the auth server did not answer in time (the session is kept)."""


class ServerError(AuthSidecarError):
    """The auth server failed (5xx) after retries; ``status`` has the HTTP status."""


class BadResponse(AuthSidecarError):
    """The auth server's answer could not be understood."""


class TLSError(AuthSidecarError):
    """TLS verification or handshake failed."""


class StorageUnavailable(AuthSidecarError):
    """The store cannot be opened or written (permissions, full disk, lock timeout)."""


class StorageCorrupt(AuthSidecarError):
    """The store is damaged; it was moved aside for inspection, never wiped."""


class AlreadyExists(AuthSidecarError):
    """The account already exists (``field`` says which: username, email, phone)."""


class Unsupported(AuthSidecarError):
    """The profile's provider does not support this."""


class ConfigError(AuthSidecarError):
    """The configuration cannot serve this request, e.g. the profile is not configured."""

    @property
    def profile(self) -> Optional[str]:
        value = self.data.get("profile")
        return value if isinstance(value, str) else None


class Cancelled(AuthSidecarError):
    """The request was cancelled (``$/cancelRequest``, or at the sidecar's shutdown)."""


class InternalError(AuthSidecarError):
    """A bug in the sidecar; details only in its diagnostics log (stderr)."""


class ParseError(AuthSidecarError):
    """JSON-RPC -32700: the sidecar could not parse what was sent (e.g. a lone surrogate)."""


class InvalidRequest(AuthSidecarError):
    """JSON-RPC -32600: not a valid request (shape, size or nesting limits)."""


class MethodNotFound(AuthSidecarError):
    """JSON-RPC -32601: no such method."""


class InvalidParams(AuthSidecarError):
    """JSON-RPC -32602: params have an unknown key or a wrongly typed value (``field``)."""


#: error.data.kind -> (exception class, error.code). The single table; a test checks that it
#: covers exactly the kinds of ``schema/openrpc.json`` (components.errors) with their codes.
ERROR_KINDS: Mapping[str, Tuple[Type[AuthSidecarError], int]] = {
    "parse_error": (ParseError, -32700),
    "invalid_request": (InvalidRequest, -32600),
    "method_not_found": (MethodNotFound, -32601),
    "invalid_params": (InvalidParams, -32602),
    "validation_failed": (ValidationFailed, -32001),
    "invalid_credentials": (InvalidCredentials, -32002),
    "not_logged_in": (NotLoggedIn, -32003),
    "session_expired": (SessionExpired, -32004),
    "rate_limited": (RateLimited, -32005),
    "network_unavailable": (NetworkUnavailable, -32006),
    "timeout": (RequestTimeout, -32007),
    "server_error": (ServerError, -32008),
    "bad_response": (BadResponse, -32009),
    "tls_error": (TLSError, -32010),
    "storage_unavailable": (StorageUnavailable, -32011),
    "storage_corrupt": (StorageCorrupt, -32012),
    "already_exists": (AlreadyExists, -32013),
    "unsupported": (Unsupported, -32014),
    "config_error": (ConfigError, -32015),
    "verification_required": (VerificationRequired, -32016),
    "cancelled": (Cancelled, -32800),
    "internal": (InternalError, -32603),
}

for _kind, (_cls, _code) in ERROR_KINDS.items():
    _cls.KIND = _kind
_KIND_BY_CODE: Dict[int, str] = {code: kind for kind, (_, code) in ERROR_KINDS.items()}
del _kind, _cls, _code


def error_from_response(error: Any, method: Optional[str] = None) -> AuthSidecarError:
    """Builds the exception for a JSON-RPC ``error`` member.

    The class comes from ``error.data.kind``; without a kind, from the standard code; an unknown
    kind gives the base class :class:`AuthSidecarError` (with ``kind`` set to what was received).
    """
    if not isinstance(error, dict):
        return AuthSidecarError("internal", -32603, f"malformed error answer: {error!r:.200}", method=method)
    code = error.get("code")
    if not isinstance(code, int) or isinstance(code, bool):
        code = -32603
    message = error.get("message")
    if not isinstance(message, str) or not message:
        message = "error"
    data = error.get("data")
    if not isinstance(data, dict):
        data = {}
    kind = data.get("kind")
    if not isinstance(kind, str) or not kind:
        kind = _KIND_BY_CODE.get(code, "unknown")
    entry = ERROR_KINDS.get(kind)
    cls = entry[0] if entry else AuthSidecarError
    retry_after = data.get("retryAfter")
    if not isinstance(retry_after, (int, float)) or isinstance(retry_after, bool):
        retry_after = None
    fields = data.get("fields")
    return cls(
        kind,
        code,
        message,
        retryable=data.get("retryable") is True,
        retry_after=retry_after,
        fields=fields if isinstance(fields, dict) else None,
        data=data,
        method=method,
    )


# ---------------------------------------------------------------------------------------------
# The client's own errors
# ---------------------------------------------------------------------------------------------

_EXIT_MEANINGS = {
    0: "exited normally",
    64: "usage error (bad command-line option)",
    78: "configuration error",
    -9: "killed by SIGKILL",
    -15: "terminated by SIGTERM",
}


class SidecarExited(SidecarError):
    """The sidecar process is gone: raised by every pending call and every later call.

    ``returncode`` is the exit code (negative: killed by that signal; ``None`` if unknown) and
    ``stderr_tail`` the last lines it wrote to stderr (its diagnostics, redacted by the sidecar).
    """

    def __init__(self, returncode: Optional[int], stderr_tail: Sequence[str] = (), detail: str = "") -> None:
        self.returncode = returncode
        self.stderr_tail: List[str] = list(stderr_tail)
        self.detail = detail
        super().__init__(self._compose())

    def _compose(self) -> str:
        if self.returncode is None:
            text = "auth-sidecar exited"
        else:
            meaning = _EXIT_MEANINGS.get(self.returncode)
            text = f"auth-sidecar exited with code {self.returncode}" + (f" ({meaning})" if meaning else "")
        if self.detail:
            text += f": {self.detail}"
        if self.stderr_tail:
            text += "\nlast stderr lines:\n  " + "\n  ".join(self.stderr_tail)
        return text

    def __reduce__(self) -> Any:
        return (type(self), (self.returncode, self.stderr_tail, self.detail))


class ClientClosed(SidecarExited):
    """The client was closed (``close()`` / the end of its ``with`` block)."""


class BinaryNotFound(SidecarError, FileNotFoundError):
    """No auth-sidecar executable: not passed as ``binary=``, not in ``AUTH_SIDECAR_BIN``, not in the
    package (only release wheels carry it) and not on PATH."""

    def __init__(self, message: str) -> None:
        SidecarError.__init__(self, message)

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "auth-sidecar binary not found"


class CallTimeout(Timeout):
    """The client stopped waiting for an answer (the ``timeout=`` of a call). The request was
    cancelled with ``$/cancelRequest``; its late answer is discarded."""

    def __init__(self, message: str) -> None:
        SidecarError.__init__(self, message)

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "timed out"
