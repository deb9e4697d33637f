"""Every answer in every golden transcript, and every example in the schema, must validate
against schema/openrpc.json with a real JSON Schema validator."""
import pathlib

import pytest

from conftest import TRANSCRIPTS, load_document, messages_in, validator_for

OUTPUTS = sorted(p for p in TRANSCRIPTS.iterdir() if ".out." in p.name)


def method_index(document):
    return {m["name"]: m for m in document["methods"]}


def test_there_are_transcripts():
    assert len(OUTPUTS) >= 8


def test_schema_is_valid_openrpc_shape(document):
    assert document["openrpc"].startswith("1.")
    for method in document["methods"]:
        validator_for(document, method["result"]["schema"])
        for param in method["params"]:
            validator_for(document, param["schema"])


def test_error_codes_are_unique_and_match_kinds(document):
    errors = document["components"]["errors"]
    codes = [e["code"] for e in errors.values()]
    assert len(codes) == len(set(codes))
    for kind, error in errors.items():
        assert error["data"]["kind"] == kind


@pytest.mark.parametrize("output", OUTPUTS, ids=lambda p: p.name)
def test_transcript_answers_validate(output: pathlib.Path):
    document = load_document()
    methods = method_index(document)
    response = validator_for(document, {"$ref": "#/components/schemas/Response"})
    notification = validator_for(document, {"$ref": "#/components/schemas/Notification"})
    errors = document["components"]["errors"]
    request_path = output.with_name(output.name.replace(".out.", ".in."))
    id_to_method = {}
    for message in messages_in(request_path):
        if isinstance(message, dict) and "id" in message and isinstance(message.get("method"), str):
            id_to_method.setdefault(repr(message["id"]), message["method"])
    answers = messages_in(output)
    assert answers, f"{output.name} has no answers"
    for answer in answers:
        if "method" in answer:
            notification.validate(answer)
            continue
        response.validate(answer)
        if "error" in answer:
            kind = answer["error"]["data"]["kind"]
            assert answer["error"]["code"] == errors[kind]["code"], kind
            continue
        method = id_to_method.get(repr(answer["id"]))
        if method in methods:
            validator_for(document, methods[method]["result"]["schema"]).validate(answer["result"])


def test_schema_examples_validate(document):
    for method in document["methods"]:
        result_validator = validator_for(document, method["result"]["schema"])
        params = {p["name"]: p for p in method["params"]}
        for example in method.get("examples", []):
            for param in example.get("params", []):
                assert param["name"] in params, (method["name"], param["name"])
                validator_for(document, params[param["name"]]["schema"]).validate(param["value"])
            if "result" in example:
                result_validator.validate(example["result"]["value"])


@pytest.mark.parametrize(
    "session, valid",
    [
        ({"accessToken": "at_1", "tokenType": "Bearer", "expiresAt": "2027-01-01T00:15:00Z"}, True),
        ({"tokenType": "cookie", "expiresAt": "2027-01-01T00:15:00Z"}, True),
        # A tokenless rest login (an API that answers only yes or no): the session carries the user, no token.
        ({"tokenType": "none", "expiresAt": "2027-01-02T00:00:00Z"}, True),
        # A bearer session without its token, or a cookie or tokenless session that shows one, is not a session.
        ({"tokenType": "Bearer", "expiresAt": "2027-01-01T00:15:00Z"}, False),
        ({"accessToken": "x", "tokenType": "cookie", "expiresAt": "2027-01-01T00:15:00Z"}, False),
        ({"accessToken": "0", "tokenType": "none", "expiresAt": "2027-01-01T00:15:00Z"}, False),
        ({"tokenType": "cookie"}, False),
        ({"tokenType": "none"}, False),
    ],
)
def test_session_shape_for_bearer_cookie_and_tokenless_sessions(document, session, valid):
    validator = validator_for(document, {"$ref": "#/components/schemas/Session"})
    assert validator.is_valid(session) == valid


def test_notification_examples_validate(document):
    """Every x-notifications example is a valid params object, and wrapped as a message it is a
    valid Notification."""
    notification = validator_for(document, {"$ref": "#/components/schemas/Notification"})
    for entry in document["x-notifications"]:
        params = validator_for(document, entry["params"])
        for example in entry.get("examples", []):
            params.validate(example)
            if entry["direction"] == "sidecar\u2192host":
                notification.validate({"jsonrpc": "2.0", "method": entry["name"], "params": example})


def test_login_prompt_shapes_are_strict(document):
    prompt = validator_for(document, {"$ref": "#/components/schemas/LoginPromptParams"})
    device = {"profile": "default", "id": 1, "flow": "device", "userCode": "ABCD",
              "verificationUri": "http://127.0.0.1:8000/o/device/", "expiresAt": "2027-01-01T00:05:00Z"}
    prompt.validate(device)
    for broken in ({**device, "flow": "authorizationCode"}, {**device, "deviceCode": "secret"},
                   {**device, "verificationUri": "javascript:alert(1)"},
                   {k: v for k, v in device.items() if k != "userCode"}):
        assert not prompt.is_valid(broken), broken
    code = {"profile": "default", "id": "a", "flow": "authorizationCode",
            "authorizationUrl": "https://id.example.com/authorize?x=1",
            "redirectUri": "http://127.0.0.1:41234/callback", "expiresAt": "2027-01-01T00:05:00Z"}
    prompt.validate(code)
    assert not prompt.is_valid({**code, "redirectUri": "http://localhost:41234/callback"})


@pytest.mark.parametrize(
    "data, valid",
    [
        ({"kind": "invalid_credentials", "retryable": False}, True),
        # Only for a profile that reads it from the server's answer; the one reason this kind has.
        ({"kind": "invalid_credentials", "retryable": False, "reason": "unknown_account"}, True),
        ({"kind": "invalid_credentials", "retryable": False, "reason": "wrong_password"}, False),
        ({"kind": "invalid_credentials", "retryable": False, "reason": ""}, False),
        ({"kind": "rate_limited", "retryable": True, "reason": "too_many_in_flight"}, True),
    ],
)
def test_invalid_credentials_reason_is_only_unknown_account(document, data, valid):
    error = {"code": document["components"]["errors"][data["kind"]]["code"], "message": "m", "data": data}
    validator = validator_for(document, {"$ref": "#/components/schemas/ErrorObject"})
    assert validator.is_valid(error) == valid


def test_login_context_is_strings_under_declarable_names(document):
    params = {p["name"]: p for p in method_index(document)["login"]["params"]}
    assert "context" in params, "login must carry context"
    context = validator_for(document, params["context"]["schema"])
    context.validate({"deviceId": "d-1", "appVersion": "2.3.0"})
    context.validate({})
    for broken in ({"deviceId": 7}, {"deviceId": None}, {"device-id": "x"}, {"": "x"}, ["deviceId"], "d-1"):
        assert not context.is_valid(broken), broken


def test_status_says_when_oauth2_discovery_has_not_run(document):
    status = validator_for(document, method_index(document)["status"]["result"]["schema"])
    answer = {"version": "0.1.0",
              "capabilities": {"methods": [], "framing": [], "providers": [], "locales": []},
              "storage": {"protection": "key-file", "encryption": "AES-256-GCM"},
              "profiles": [{"name": "sso", "provider": "oauth2", "loginFlows": ["device"], "codeFlows": [],
                            "discoveryPending": True, "loggedIn": False}]}
    status.validate(answer)
    answer["profiles"][0]["discoveryPending"] = "yes"
    assert not status.is_valid(answer)
