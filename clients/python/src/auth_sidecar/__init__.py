"""Python client for auth-sidecar: a complete client-side login over JSON-RPC on stdio.

    from auth_sidecar import AuthSidecar, InvalidCredentials

    with AuthSidecar() as sidecar:
        sidecar.login(account="alice", password=password)
        print(sidecar.get_user()["user"]["username"])
        sidecar.logout()

Standard library only. See ``AuthSidecar`` (threads) and ``AsyncAuthSidecar`` (asyncio).
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (see _common)
from ._common import resolve_binary
from . import _errors
from ._errors import *  # noqa: F401,F403 -- every exception, ERROR_KINDS, error_from_response (see _errors.__all__)
from ._sync import AuthSidecar, PendingCall

__version__ = "0.1.0"

__all__ = [
    "AuthSidecar",
    "AsyncAuthSidecar",
    "PendingCall",
    "resolve_binary",
    # types
    "ValidationResult",
    "ValidationFields",
    "FieldReport",
    "FieldError",
    "User",
    "Session",
    "LoginResult",
    "RegisterResult",
    "GetUserResult",
    "RefreshTokenResult",
    "LogoutResult",
    "StatusResult",
    "SessionChanged",
    "LoginFlow",
    "LoginPrompt",
    "SessionState",
    "OpenRPCDocument",
]
# The exceptions, listed once, in the module that defines them.
__all__ += _errors.__all__

if TYPE_CHECKING:
    from ._async import AsyncAuthSidecar
    from ._types import (
        FieldError,
        FieldReport,
        GetUserResult,
        LoginResult,
        LogoutResult,
        OpenRPCDocument,
        RefreshTokenResult,
        RegisterResult,
        Session,
        SessionChanged,
        LoginFlow,
        LoginPrompt,
        SessionState,
        StatusResult,
        User,
        ValidationFields,
        ValidationResult,
    )
else:

    def __getattr__(name: str) -> object:
        # asyncio costs more to import than the rest of the package: only its client loads it.
        if name == "AsyncAuthSidecar":
            from ._async import AsyncAuthSidecar

            return AsyncAuthSidecar
        # The result shapes (TypedDicts) are for type checkers; code that names them loads them.
        from ._types import __all__ as type_names

        if name in type_names:
            from . import _types

            return getattr(_types, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
