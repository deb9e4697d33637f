"""User code, as a type checker sees it: every public method and every error of the package.

Not run: ``test_typing.py`` checks it with ``mypy --strict``, and each ``assert_type`` fails that
check unless the expression has exactly that type (not ``Any``, not ``object``)."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Type

from typing_extensions import assert_type

from auth_sidecar import (
    ERROR_KINDS,
    AlreadyExists,
    AsyncAuthSidecar,
    AuthSidecar,
    AuthSidecarError,
    BadResponse,
    BinaryNotFound,
    CallTimeout,
    Cancelled,
    ClientClosed,
    ConfigError,
    FieldError,
    FieldReport,
    GetUserResult,
    InternalError,
    InvalidCredentials,
    InvalidParams,
    InvalidRequest,
    LoginPrompt,
    LoginResult,
    LogoutResult,
    MethodNotFound,
    NetworkUnavailable,
    NotLoggedIn,
    OpenRPCDocument,
    ParseError,
    PendingCall,
    RateLimited,
    RefreshTokenResult,
    RegisterResult,
    RequestTimeout,
    ServerError,
    Session,
    SessionChanged,
    SessionExpired,
    SidecarError,
    SidecarExited,
    StatusResult,
    StorageCorrupt,
    StorageUnavailable,
    Timeout,
    TLSError,
    Unsupported,
    User,
    ValidationFailed,
    ValidationResult,
    error_from_response,
    resolve_binary,
)


def on_change(event: SessionChanged) -> None:
    print(event["profile"], event["state"])


def show(prompt: LoginPrompt) -> None:
    print(prompt.get("userCode"), prompt.get("verificationUri"), prompt.get("authorizationUrl"))


def show_fields(report: ValidationResult) -> None:
    for name, field in report["fields"].items():
        assert_type(name, str)
        assert_type(field, FieldReport)
        assert_type(field["valid"], bool)
        for problem in field["errors"]:
            assert_type(problem, FieldError)
            print(name, problem["code"], problem["message"])


def sync_methods() -> None:
    with AuthSidecar(state_dir="state", config="config.json", env={"AUTH_SIDECAR_KEY": None}, args=["--x"],
                     profile="default", locale="en", timeout=30, max_in_flight=None, handshake=True) as sidecar:
        assert_type(sidecar, AuthSidecar)
        remove: Callable[[], None] = sidecar.on_session_changed(on_change)
        sidecar.on_notification(lambda method, params: print(method, params))
        sidecar.on_login_prompt(show)
        show_fields(sidecar.validate(account="alice", password="pw", purpose="login", locale="zh-Hans", timeout=5))
        assert_type(sidecar.register(username="alice", password="pw", email="a@example.com", phone="+1",
                                     display_name="Alice", profile="default"), RegisterResult)
        login = sidecar.login(account="alice", password="pw")
        assert_type(login, LoginResult)
        assert_type(login["user"], User)
        assert_type(login["session"], Session)
        assert_type(login["session"].get("accessToken"), Optional[str])
        assert_type(sidecar.login(flow="device", on_prompt=show, timeout=600), LoginResult)
        assert_type(sidecar.login(phone="13542138562", password="pw", context={"deviceId": "d-1"}), LoginResult)
        got = sidecar.get_user(refresh=True)
        assert_type(got, GetUserResult)
        assert_type(got["stale"], bool)
        assert_type(sidecar.refresh_token(force=True), RefreshTokenResult)
        assert_type(sidecar.logout(profile="work"), LogoutResult)
        status = sidecar.status()
        assert_type(status, StatusResult)
        assert_type([profile["loggedIn"] for profile in status["profiles"]], List[bool])
        assert_type(sidecar.discover(), OpenRPCDocument)
        assert_type(sidecar.call("test.advanceClock", {"seconds": 60}, timeout=None), Any)
        pending = sidecar.submit("getUser", {})
        assert_type(pending, PendingCall)
        assert_type(pending.id, int)
        assert_type(pending.done(), bool)
        assert_type(pending.cancel(), bool)
        pending.result(timeout=1.0)
        assert_type(sidecar.pid, Optional[int])
        assert_type(sidecar.returncode, Optional[int])
        assert_type(sidecar.stderr_tail, List[str])
        remove()
    sidecar.close()
    assert_type(AuthSidecar().start(), AuthSidecar)


async def async_methods() -> None:
    async def on_change_later(event: SessionChanged) -> None:
        print(event["state"])

    async with AsyncAuthSidecar(state_dir="state", timeout=30) as sidecar:
        assert_type(sidecar, AsyncAuthSidecar)
        sidecar.on_session_changed(on_change)
        sidecar.on_session_changed(on_change_later)
        sidecar.on_notification(lambda method, params: None)
        sidecar.on_login_prompt(show)
        show_fields(await sidecar.validate(username="alice"))
        assert_type(await sidecar.register(username="alice", password="pw"), RegisterResult)
        assert_type(await sidecar.login(username="alice", password="pw"), LoginResult)
        assert_type(await sidecar.login(flow="authorizationCode", on_prompt=show), LoginResult)
        assert_type(await sidecar.get_user(), GetUserResult)
        assert_type(await sidecar.refresh_token(), RefreshTokenResult)
        assert_type(await sidecar.logout(), LogoutResult)
        assert_type(await sidecar.status(), StatusResult)
        assert_type(await sidecar.discover(), OpenRPCDocument)
        assert_type(await sidecar.call("validate", {"username": "x"}), Any)
        assert_type(sidecar.pid, Optional[int])
    await sidecar.close()
    assert_type(await AsyncAuthSidecar().start(), AsyncAuthSidecar)


def errors(sidecar: AuthSidecar) -> Optional[User]:
    try:
        return sidecar.login(account="alice", password="pw")["user"]
    except ValidationFailed as error:
        for name, report in error.fields.items():  # a validation failure always has its fields
            assert_type(report, FieldReport)
            print(name, [problem["message"] for problem in report["errors"]])
    except InvalidCredentials as error:
        assert_type(error.message, str)
        assert_type(error.unknown_account, bool)
        assert_type(error.reason, Optional[str])
    except NotLoggedIn as error:
        assert_type(error.last_account, Optional[str])
    except SessionExpired:
        pass
    except RateLimited as error:
        assert_type(error.retry_after, Optional[float])
        assert_type(error.reason, Optional[str])
    except (NetworkUnavailable, ServerError, BadResponse, TLSError) as error:
        assert_type(error.status, Optional[int])
        assert_type(error.retryable, bool)
    except RequestTimeout as error:
        assert_type(error.kind, str)
    except CallTimeout as error:
        print(error)
    except (StorageUnavailable, StorageCorrupt, Unsupported, Cancelled, InternalError):
        pass
    except AlreadyExists as error:
        assert_type(error.field, Optional[str])
    except ConfigError as error:
        assert_type(error.profile, Optional[str])
    except (ParseError, InvalidRequest, MethodNotFound, InvalidParams) as error:
        assert_type(error.code, int)
        assert_type(error.data, Dict[str, Any])
        assert_type(error.method, Optional[str])
    except AuthSidecarError as error:
        assert_type(error.fields, Optional[Dict[str, FieldReport]])
    except ClientClosed as error:
        assert_type(error.returncode, Optional[int])
    except SidecarExited as error:
        assert_type(error.stderr_tail, List[str])
    except BinaryNotFound as error:
        assert_type(error, BinaryNotFound)
    except SidecarError:
        pass
    return None


def timeouts(sidecar: AuthSidecar) -> None:
    try:
        sidecar.get_user(timeout=0.5)
    except Timeout as error:  # the auth server's (RequestTimeout) or the client's own (CallTimeout)
        builtin: TimeoutError = error
        print(builtin)


def the_error_table() -> None:
    assert_type(ERROR_KINDS, Mapping[str, Tuple[Type[AuthSidecarError], int]])
    assert_type(error_from_response({"code": -32007, "message": "slow"}, "login"), AuthSidecarError)
    assert_type(resolve_binary(), str)
