"""Python client for auth-sidecar: a complete client-side login over JSON-RPC on stdio.

    from auth_sidecar import AuthSidecar, InvalidCredentials

    with AuthSidecar() as sidecar:
        sidecar.login(account="alice", password=password)
        print(sidecar.get_user()["user"]["username"])
        sidecar.logout()

Standard library only. See ``AuthSidecar`` (threads) and ``AsyncAuthSidecar`` (asyncio).
"""

from ._async import AsyncAuthSidecar
from ._common import resolve_binary
from ._errors import (
    ERROR_KINDS,
    AlreadyExists,
    AuthSidecarError,
    BadResponse,
    BinaryNotFound,
    CallTimeout,
    Cancelled,
    ClientClosed,
    ConfigError,
    InternalError,
    InvalidCredentials,
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    NetworkUnavailable,
    NotLoggedIn,
    ParseError,
    RateLimited,
    RequestTimeout,
    ServerError,
    SessionExpired,
    SidecarError,
    SidecarExited,
    StorageCorrupt,
    StorageUnavailable,
    Timeout,
    TLSError,
    Unsupported,
    ValidationFailed,
    error_from_response,
)
from ._sync import AuthSidecar, PendingCall
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

__version__ = "0.1.0"

__all__ = [
    "AuthSidecar",
    "AsyncAuthSidecar",
    "PendingCall",
    "resolve_binary",
    # errors
    "SidecarError",
    "AuthSidecarError",
    "ERROR_KINDS",
    "error_from_response",
    "ValidationFailed",
    "InvalidCredentials",
    "NotLoggedIn",
    "SessionExpired",
    "RateLimited",
    "NetworkUnavailable",
    "RequestTimeout",
    "Timeout",
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
    "SidecarExited",
    "ClientClosed",
    "BinaryNotFound",
    "CallTimeout",
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
