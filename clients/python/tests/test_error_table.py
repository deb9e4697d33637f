"""The kind -> class table against the contract, and building exceptions from error answers.
No sidecar needed."""

from __future__ import annotations

import json
import pickle

import pytest

import auth_sidecar
from auth_sidecar import (
    ERROR_KINDS,
    AuthSidecarError,
    BinaryNotFound,
    CallTimeout,
    ClientClosed,
    InternalError,
    InvalidCredentials,
    InvalidParams,
    NotLoggedIn,
    RateLimited,
    RequestTimeout,
    SidecarError,
    SidecarExited,
    Timeout,
    ValidationFailed,
    error_from_response,
)

from _support import SCHEMA


def schema_errors() -> dict:
    if not SCHEMA.exists():
        pytest.skip(f"{SCHEMA} not found (tests run from the repository)")
    return json.loads(SCHEMA.read_text())["components"]["errors"]


def test_table_covers_exactly_the_schema_kinds_with_their_codes():
    errors = schema_errors()
    schema_kinds = {entry["data"]["kind"]: entry["code"] for entry in errors.values()}
    assert set(errors) == set(schema_kinds), "components.errors keys are the kinds"
    assert set(ERROR_KINDS) == set(schema_kinds)
    assert {kind: code for kind, (_, code) in ERROR_KINDS.items()} == schema_kinds


def test_the_error_object_schema_lists_the_same_kinds():
    document = json.loads(SCHEMA.read_text()) if SCHEMA.exists() else pytest.skip("no schema")
    kinds = document["components"]["schemas"]["ErrorObject"]["properties"]["data"]["properties"]["kind"]["enum"]
    assert set(kinds) == set(ERROR_KINDS)


def test_one_distinct_exported_class_per_kind():
    classes = [cls for cls, _ in ERROR_KINDS.values()]
    assert len(set(classes)) == len(classes)
    for kind, (cls, _) in ERROR_KINDS.items():
        assert issubclass(cls, AuthSidecarError) and cls is not AuthSidecarError
        assert cls.KIND == kind
        assert getattr(auth_sidecar, cls.__name__) is cls
        assert cls.__name__ in auth_sidecar.__all__


def test_one_timeout_family_under_the_builtin():
    assert ERROR_KINDS["timeout"][0] is RequestTimeout
    # The auth server's timeout and the client's own: one family, caught by `except TimeoutError`.
    for cls in (RequestTimeout, CallTimeout):
        assert issubclass(cls, Timeout) and issubclass(cls, TimeoutError) and issubclass(cls, SidecarError)
    assert issubclass(RequestTimeout, AuthSidecarError) and not issubclass(CallTimeout, AuthSidecarError)
    slow = error_from_response({"code": -32007, "message": "slow", "data": {"kind": "timeout", "retryable": True}})
    with pytest.raises(TimeoutError):
        raise slow
    assert ERROR_KINDS["internal"][0] is InternalError


@pytest.mark.parametrize("kind", sorted(ERROR_KINDS))
def test_every_kind_builds_its_class(kind):
    cls, code = ERROR_KINDS[kind]
    error = error_from_response({"code": code, "message": "m", "data": {"kind": kind, "retryable": True}}, "x")
    assert type(error) is cls
    assert (error.kind, error.code, error.message, error.retryable, error.method) == (kind, code, "m", True, "x")
    assert pickle.loads(pickle.dumps(error)).kind == kind


def test_unknown_kind_maps_to_the_base_class():
    error = error_from_response({"code": -32099, "message": "new", "data": {"kind": "brand_new", "retryable": False}})
    assert type(error) is AuthSidecarError
    assert error.kind == "brand_new" and error.code == -32099


def test_missing_kind_falls_back_to_the_code():
    assert type(error_from_response({"code": -32602, "message": "bad"})) is InvalidParams
    assert type(error_from_response({"code": 1, "message": "?"})) is AuthSidecarError
    assert type(error_from_response("not an object")) is AuthSidecarError


def test_fields_retry_after_and_extras():
    fields = {"password": {"valid": False, "errors": [{"code": "too_short", "message": "short"}]}}
    error = error_from_response({"code": -32001, "message": "Some fields are not valid.",
                                 "data": {"kind": "validation_failed", "retryable": False, "fields": fields}})
    assert isinstance(error, ValidationFailed) and error.fields == fields
    no_fields = error_from_response({"code": -32001, "message": "m", "data": {"kind": "validation_failed"}})
    assert isinstance(no_fields, ValidationFailed) and no_fields.fields == {}  # never None
    assert pickle.loads(pickle.dumps(error)).fields == fields
    limited = error_from_response({"code": -32005, "message": "slow down",
                                   "data": {"kind": "rate_limited", "retryable": True, "retryAfter": 2,
                                            "reason": "too_many_in_flight"}})
    assert isinstance(limited, RateLimited) and limited.retry_after == 2 and limited.reason == "too_many_in_flight"
    absent = error_from_response({"code": -32003, "message": "Not logged in.",
                                  "data": {"kind": "not_logged_in", "retryable": False}})
    assert isinstance(absent, NotLoggedIn) and absent.last_account is None
    assert "not_logged_in" in str(absent) and "-32003" in str(absent)


def test_reason_is_on_every_error_and_unknown_account_on_refused_logins():
    unknown = error_from_response({"code": -32002, "message": "The account or password is incorrect.",
                                   "data": {"kind": "invalid_credentials", "retryable": False,
                                            "reason": "unknown_account"}})
    assert isinstance(unknown, InvalidCredentials)
    assert unknown.reason == "unknown_account" and unknown.unknown_account is True
    assert pickle.loads(pickle.dumps(unknown)).unknown_account is True
    generic = error_from_response({"code": -32002, "message": "m",
                                   "data": {"kind": "invalid_credentials", "retryable": False}})
    assert isinstance(generic, InvalidCredentials) and generic.reason is None and generic.unknown_account is False
    # Any kind may carry a reason; a reason that is not a string is not one.
    corrupt = error_from_response({"code": -32012, "message": "m",
                                   "data": {"kind": "storage_corrupt", "retryable": False, "reason": "wrong_key"}})
    assert corrupt.reason == "wrong_key"
    odd = error_from_response({"code": -32002, "message": "m",
                               "data": {"kind": "invalid_credentials", "retryable": False, "reason": 7}})
    assert odd.reason is None and odd.unknown_account is False


def test_client_errors():
    exited = SidecarExited(-9, ["boom"])
    assert "-9" in str(exited) and "SIGKILL" in str(exited) and "boom" in str(exited)
    assert isinstance(ClientClosed(0), SidecarExited)
    assert isinstance(BinaryNotFound("x"), FileNotFoundError)
    for cls in (SidecarExited, BinaryNotFound, CallTimeout, AuthSidecarError):
        assert issubclass(cls, SidecarError)
