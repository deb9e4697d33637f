"""Result shapes, mirroring ``schema/openrpc.json``. Results are plain dicts with the wire's
camelCase keys; these TypedDicts only describe them for type checkers."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, TypedDict

__all__ = [
    "Purpose",
    "SessionState",
    "FieldError",
    "FieldReport",
    "ValidationFields",
    "ValidationResult",
    "User",
    "Session",
    "LoginResult",
    "RegisterResult",
    "GetUserResult",
    "RefreshTokenResult",
    "LogoutResult",
    "StatusCapabilities",
    "StatusStorage",
    "StatusProfile",
    "StatusResult",
    "SessionChanged",
    "LoginFlow",
    "LoginPrompt",
    "OpenRPCDocument",
    "CodePurpose",
    "CodeChannel",
    "SendCodeResult",
    "ResetPasswordResult",
]

Purpose = Literal["register", "login"]
SessionState = Literal["loggedIn", "refreshed", "loggedOut", "expired"]
LoginFlow = Literal["password", "device", "authorizationCode"]


class FieldError(TypedDict):
    code: str  # required, too_short, too_long, invalid_characters, invalid_format, ...
    message: str


class _FieldReportRequired(TypedDict):
    valid: bool
    errors: List[FieldError]


class FieldReport(_FieldReportRequired, total=False):
    value: str  # normalized; never present for password
    kind: Literal["email", "phone", "username"]  # only for account


#: The report of each field given to ``validate`` (``account``, ``username``, ``email``,
#: ``phone``, ``password``), by field name.
ValidationFields = Dict[str, FieldReport]


class ValidationResult(TypedDict):
    valid: bool
    fields: ValidationFields


class _UserRequired(TypedDict):
    id: str
    username: str


class User(_UserRequired, total=False):
    """Providers may add members after the standard ones."""

    email: str
    phone: str
    displayName: str


class _SessionRequired(TypedDict):
    tokenType: str  # "Bearer" (or the API's own scheme), "cookie" (form provider) or "none" (tokenless rest API)
    expiresAt: str  # RFC 3339, UTC, e.g. "2027-01-01T00:15:00Z"


class Session(_SessionRequired, total=False):
    """Refresh tokens, cookies and passwords never leave the sidecar.

    accessToken is absent when tokenType is "cookie" (the form provider's credential is the site's
    session cookie, which stays in the sidecar) or "none" (a rest login API that answers only yes or
    no: the session carries the user and no token). Without a token, call get_user to know whether
    the session still holds.
    """

    accessToken: str
    scopes: List[str]


class LoginResult(TypedDict):
    user: User
    session: Session


CodePurpose = Literal["login", "register", "resetPassword", "verifyContact"]
CodeChannel = Literal["sms", "email"]


class SendCodeResult(TypedDict):
    sentTo: str  # masked: "+86 138****5678", "a***@example.com"
    channel: CodeChannel
    resendAt: str  # RFC 3339: when the next code may be asked for (draw the countdown from it)
    expiresAt: str


class ResetPasswordResult(TypedDict):
    reset: Literal[True]


class RegisterResult(TypedDict):
    user: User


class GetUserResult(TypedDict):
    user: User
    session: Session
    stale: bool  # true when the provider could not be reached and the answer is from the store


class RefreshTokenResult(TypedDict):
    session: Session


class LogoutResult(TypedDict):
    loggedOut: Literal[True]
    revoked: bool


class StatusCapabilities(TypedDict):
    methods: List[str]
    framing: List[str]
    providers: List[str]
    locales: List[str]


class StatusStorage(TypedDict):
    protection: Literal["env-key", "key-file", "keyring"]
    encryption: Literal["AES-256-GCM"]


class _StatusProfileRequired(TypedDict):
    name: str
    provider: Literal["local", "rest", "oauth2", "form", "simulated"]
    loginFlows: list[Literal["password", "device", "authorizationCode"]]
    codeFlows: list[Literal["sendCode", "loginWithCode", "verify", "resetPassword"]]
    loggedIn: bool


class StatusProfile(_StatusProfileRequired, total=False):
    expiresAt: str
    username: str
    # oauth2 profiles using discovery: True until the discovery document was fetched (loginFlows are
    # then the configured flows, not yet checked against what the server announces).
    discoveryPending: bool
    # simulated profiles only: their answers are made up, for tests and demos; never ship one.
    warning: str


class StatusResult(TypedDict):
    version: str
    capabilities: StatusCapabilities
    storage: StatusStorage
    profiles: List[StatusProfile]


class SessionChanged(TypedDict):
    """Params of the ``sessionChanged`` notification."""

    profile: str
    state: SessionState


class _LoginPromptRequired(TypedDict):
    profile: str
    #: The id of the pending ``login`` request this prompt belongs to.
    id: Any
    flow: Literal["device", "authorizationCode"]
    #: RFC 3339: the login answers ``Timeout`` if the user has not acted by then.
    expiresAt: str


class LoginPrompt(_LoginPromptRequired, total=False):
    """Params of the ``loginPrompt`` notification: what to show or open while an interactive
    ``login`` waits for the user. Device flow: show ``userCode`` and ``verificationUri`` (or
    ``verificationUriComplete``). Authorization code flow: open ``authorizationUrl`` in the
    user's browser; it comes back to ``redirectUri`` (the sidecar's loopback listener)."""

    userCode: str
    verificationUri: str
    verificationUriComplete: str
    authorizationUrl: str
    redirectUri: str


#: The OpenRPC document returned by ``rpc.discover``.
OpenRPCDocument = Dict[str, Any]
