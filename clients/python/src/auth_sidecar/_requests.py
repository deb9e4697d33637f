"""Building requests: each public method's signature, defaults and params, written once.

The sync and asyncio clients turn every builder here into a method (``AuthSidecar.login`` waits
for the answer, ``AsyncAuthSidecar.login`` awaits it), so a method's keyword arguments, their
types and their checks cannot drift apart between the two."""

from __future__ import annotations


from ._common import DEFAULT, INTERACTIVE_FLOWS

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time (most of the import cost)
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Generic, Optional, TypeVar

    from ._base import BaseClient
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
        StatusResult,
        ValidationResult,
    )

    T = TypeVar("T")

    #: What ``on_prompt`` / ``on_login_prompt`` accept: a function, or (asyncio client) a
    #: coroutine function.
    PromptCallback = Callable[[LoginPrompt], object]


class _Request:
    """One call to make."""

    __slots__ = ("method", "params", "timeout", "on_prompt")

    def __init__(self, method: str, params: Any, timeout: Optional[float],
                 on_prompt: Optional[PromptCallback] = None) -> None:
        self.method = method
        self.params = params
        self.timeout = timeout
        self.on_prompt = on_prompt


if TYPE_CHECKING:

    class Request(_Request, Generic[T]):
        """One call to make: ``T`` is the type of its result (for type checkers only)."""

else:
    Request = _Request


def params_of(**values: Any) -> Dict[str, Any]:
    """A params object of the values that are not ``None``."""
    return {k: v for k, v in values.items() if v is not None}


def _request(client: BaseClient, method: str, params: Dict[str, Any], timeout: Any,
             on_prompt: Optional[PromptCallback] = None) -> Request[Any]:
    """``params`` with the client's default profile and locale, and the client's default timeout."""
    for key, default in (("profile", client.profile), ("locale", client.locale)):
        value = params.pop(key, None) or default
        if value is not None:
            params[key] = value
    return Request(method, params, client.timeout if timeout is DEFAULT else timeout, on_prompt)


def validate(
    self: BaseClient,
    *,
    account: Optional[str] = None,
    username: Optional[str] = None,
    email: Optional[str] = None,
    phone: Optional[str] = None,
    password: Optional[str] = None,
    purpose: Optional[Purpose] = None,
    locale: Optional[str] = None,
    profile: Optional[str] = None,
    timeout: Optional[float] = DEFAULT,
) -> Request[ValidationResult]:
    """Checks form fields (no I/O). An invalid value is ``valid: False``, not an error."""
    params = params_of(account=account, username=username, email=email, phone=phone, password=password,
                       purpose=purpose, locale=locale, profile=profile)
    return _request(self, "validate", params, timeout)


def register(
    self: BaseClient,
    *,
    username: str,
    password: str,
    email: Optional[str] = None,
    phone: Optional[str] = None,
    display_name: Optional[str] = None,
    profile: Optional[str] = None,
    locale: Optional[str] = None,
    timeout: Optional[float] = DEFAULT,
) -> Request[RegisterResult]:
    """Creates an account (full registration policy). Does not log in."""
    if not isinstance(password, str):
        raise TypeError("register() needs password= as a str")
    params = params_of(username=username, password=password, email=email, phone=phone,
                       displayName=display_name, profile=profile, locale=locale)
    return _request(self, "register", params, timeout)


def login(
    self: BaseClient,
    *,
    account: Optional[str] = None,
    username: Optional[str] = None,
    email: Optional[str] = None,
    phone: Optional[str] = None,
    password: Optional[str] = None,
    context: Optional[Dict[str, str]] = None,
    code: Optional[str] = None,
    challenge: Optional[str] = None,
    flow: Optional[LoginFlow] = None,
    on_prompt: Optional[PromptCallback] = None,
    profile: Optional[str] = None,
    locale: Optional[str] = None,
    timeout: Optional[float] = DEFAULT,
) -> Request[LoginResult]:
    """Logs in with exactly one of ``account`` (classified as email, phone or username),
    ``username``, ``email``, ``phone``, and ``password``.

    With ``flow="device"`` or ``flow="authorizationCode"`` (oauth2 profiles) nothing is typed
    here: ``on_prompt(prompt)`` gets what to show or open — the device flow's ``userCode`` and
    ``verificationUri``, or the ``authorizationUrl`` to open in the user's browser — and the call
    returns once the user is done. Give a ``timeout`` long enough for a person (the sidecar's own
    deadline is ``prompt["expiresAt"]``); a timeout or a cancellation stops the wait.

    ``context`` carries values the login API needs from the host (a device id, an app version):
    strings only, under names the profile declares in ``rest.context``; any other name is
    refused (:class:`InvalidParams`) and never sent.

    ``code`` instead of ``password`` logs in with a code sent by ``send_code(purpose="login")``; ``challenge``
    and ``code`` (no account) complete a login that raised :class:`VerificationRequired`."""
    given = [v for v in (account, username, email, phone) if v is not None]
    if code is not None or challenge is not None:
        if password is not None or flow not in (None, "password") or not isinstance(code, str):
            raise TypeError("login(code=...) needs code= as a str, and no password= or flow=")
        if (challenge is None) != (len(given) == 1) or (challenge is not None and given):
            raise TypeError("login(code=...) needs either challenge= or exactly one account field")
        params = params_of(account=account, username=username, email=email, phone=phone, code=code,
                           challenge=challenge, context=dict(context) if context is not None else None,
                           profile=profile, locale=locale)
        return _request(self, "login", params, timeout)
    if flow in INTERACTIVE_FLOWS:
        # The user signs in elsewhere: nothing typed here is sent (the sidecar would refuse it).
        if given or password is not None:
            raise TypeError(f"login(flow={flow!r}) takes no account or password")
        return _request(self, "login", params_of(flow=flow, profile=profile, locale=locale), timeout, on_prompt)
    if flow not in (None, "password"):
        raise ValueError(f"login() flow must be 'password', 'device' or 'authorizationCode', not {flow!r}")
    if not isinstance(password, str):
        raise TypeError("login() needs password= as a str")
    if len(given) != 1:
        raise TypeError("login() needs exactly one of account=, username=, email=, phone=")
    params = params_of(account=account, username=username, email=email, phone=phone, password=password,
                       context=dict(context) if context is not None else None, profile=profile, locale=locale)
    return _request(self, "login", params, timeout)


def get_user(self: BaseClient, *, refresh: bool = False, profile: Optional[str] = None,
             locale: Optional[str] = None, timeout: Optional[float] = DEFAULT) -> Request[GetUserResult]:
    """The logged-in user and session (refreshing an expiring access token transparently);
    ``refresh=True`` fetches the user from the provider first. Raises :class:`NotLoggedIn`
    (see ``last_account``) or :class:`SessionExpired`."""
    params = params_of(refresh=True if refresh else None, profile=profile, locale=locale)
    return _request(self, "getUser", params, timeout)


def refresh_token(self: BaseClient, *, force: bool = False, profile: Optional[str] = None,
                  locale: Optional[str] = None, timeout: Optional[float] = DEFAULT) -> Request[RefreshTokenResult]:
    """Refreshes the access token when it is within the refresh margin, or always with
    ``force=True``."""
    params = params_of(force=True if force else None, profile=profile, locale=locale)
    return _request(self, "refreshToken", params, timeout)


def logout(self: BaseClient, *, profile: Optional[str] = None, locale: Optional[str] = None,
           timeout: Optional[float] = DEFAULT) -> Request[LogoutResult]:
    """Revokes the session (best effort) and always clears it locally. Idempotent."""
    return _request(self, "logout", params_of(profile=profile, locale=locale), timeout)


def status(self: BaseClient, *, profile: Optional[str] = None, locale: Optional[str] = None,
           timeout: Optional[float] = DEFAULT) -> Request[StatusResult]:
    """Version, capabilities, each profile's provider and logged-in state, storage protection."""
    return _request(self, "status", params_of(profile=profile, locale=locale), timeout)


def discover(self: BaseClient, *, timeout: Optional[float] = DEFAULT) -> Request[OpenRPCDocument]:
    """The sidecar's OpenRPC document (``rpc.discover``)."""
    return Request("rpc.discover", {}, self.timeout if timeout is DEFAULT else timeout)


def call(self: BaseClient, method: str, params: Any = None, *, timeout: Optional[float] = DEFAULT) -> Request[Any]:
    """Sends any request and returns its result (raises its error as an exception).

    ``params`` is sent as given (normally a dict; ``None`` sends none)."""
    return Request(method, params, self.timeout if timeout is DEFAULT else timeout)


#: The first request of every client: pure, cheap, touches no store. Any answer proves the
#: sidecar is up and reads this framing; an exit (78: a bad config) fails ``start()``.
HANDSHAKE_METHOD = "validate"
HANDSHAKE_PARAMS = {"username": "handshake"}
