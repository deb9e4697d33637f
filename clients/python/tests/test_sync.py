"""The blocking client against the real auth-sidecar."""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from auth_sidecar import (
    AlreadyExists,
    AuthSidecar,
    CallTimeout,
    Cancelled,
    ClientClosed,
    ConfigError,
    InvalidCredentials,
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    NotLoggedIn,
    ParseError,
    RateLimited,
    SessionExpired,
    SidecarExited,
    ValidationFailed,
)

from _support import PASSWORD, TEST_ENV, write_script

MONTH = 31 * 86400  # past the local provider's 30-day refresh token lifetime


class Events:
    """Collects sessionChanged states; waits for them (callbacks run on another thread)."""

    def __init__(self) -> None:
        self.states = []
        self.cond = threading.Condition()

    def __call__(self, event) -> None:
        with self.cond:
            self.states.append((event["profile"], event["state"]))
            self.cond.notify_all()

    def wait_for(self, count: int, timeout: float = 5.0):
        with self.cond:
            assert self.cond.wait_for(lambda: len(self.states) >= count, timeout), self.states
            return list(self.states)


# -- every method --------------------------------------------------------------------------------


def test_every_method(sidecar):
    checked = sidecar.validate(username="  alice ", password="short", purpose="register")
    assert checked["valid"] is False
    assert checked["fields"]["username"] == {"valid": True, "value": "alice", "errors": []}
    assert checked["fields"]["password"]["errors"][0]["code"] == "too_short"
    account = sidecar.validate(account="13812345678", purpose="login")["fields"]["account"]
    assert account["kind"] == "phone" and account["value"] == "+8613812345678"
    localized = sidecar.validate(username="名字", locale="zh-Hans")["fields"]["username"]["errors"][0]["message"]
    assert "用户名" in localized

    user = sidecar.register(username="alice", password=PASSWORD, email="alice@example.com",
                            display_name="Alice")["user"]
    assert user["username"] == "alice" and user["email"] == "alice@example.com" and user["displayName"] == "Alice"

    login = sidecar.login(account="alice@example.com", password=PASSWORD)
    assert login["user"]["id"] == user["id"]
    assert login["session"]["tokenType"] == "Bearer" and login["session"]["accessToken"].count(".") == 2

    got = sidecar.get_user()
    assert got["user"]["id"] == user["id"] and got["stale"] is False
    assert sidecar.get_user(refresh=True)["user"]["username"] == "alice"

    refreshed = sidecar.refresh_token(force=True)["session"]
    assert refreshed["accessToken"] != login["session"]["accessToken"]
    assert sidecar.refresh_token()["session"]["expiresAt"]  # not within the margin: no refresh needed

    status = sidecar.status()
    assert status["storage"]["encryption"] == "AES-256-GCM"
    assert {"login", "getUser", "validate"} <= set(status["capabilities"]["methods"])
    profile = status["profiles"][0]
    assert profile["name"] == "default" and profile["loggedIn"] is True and profile["username"] == "alice"

    document = sidecar.discover()
    assert document["openrpc"].startswith("1.") and {m["name"] for m in document["methods"]} >= {"login", "logout"}

    assert sidecar.logout() == {"loggedOut": True, "revoked": True}
    assert sidecar.logout() == {"loggedOut": True, "revoked": False}  # idempotent
    assert sidecar.status()["profiles"][0]["loggedIn"] is False

    # login by username / phone keyword, generic call
    sidecar.login(username="alice", password=PASSWORD)
    assert sidecar.call("getUser", {})["user"]["username"] == "alice"


def test_client_default_profile_and_locale(make_sync, tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"profiles": {"default": {"provider": "local"}, "work": {"provider": "local"}}}))
    sidecar = make_sync(config=config, profile="work", locale="zh-Hans")
    sidecar.register(username="bob", password=PASSWORD)
    sidecar.login(account="bob", password=PASSWORD)
    assert sidecar.get_user()["user"]["username"] == "bob"
    with pytest.raises(NotLoggedIn) as raised:
        sidecar.get_user(profile="default")
    assert "登录" in raised.value.message  # zh-Hans message
    states = {p["name"]: p["loggedIn"] for p in sidecar.status()["profiles"]}
    assert states == {"default": False, "work": True}


def test_login_needs_exactly_one_identifier(sidecar):
    with pytest.raises(TypeError):
        sidecar.login(password=PASSWORD)
    with pytest.raises(TypeError):
        sidecar.login(account="a", email="a@b.co", password=PASSWORD)


def test_login_context_is_sent_and_checked_by_the_profile(sidecar):
    # A local profile declares no context names: the sidecar refuses the one sent, which proves the client sent it.
    sidecar.register(username="alice", password=PASSWORD)
    with pytest.raises(InvalidParams) as raised:
        sidecar.login(username="alice", password=PASSWORD, context={"deviceId": "d-1"})
    assert raised.value.data.get("field") == "context.deviceId"
    assert sidecar.login(username="alice", password=PASSWORD, context={})["user"]["username"] == "alice"


# -- every error kind the local provider produces --------------------------------------------------


def test_validation_failed_carries_fields(sidecar):
    with pytest.raises(ValidationFailed) as raised:
        sidecar.register(username="al", password="password")
    error = raised.value
    assert error.code == -32001 and error.kind == "validation_failed" and not error.retryable
    assert error.fields["username"]["errors"][0]["code"] == "too_short"
    assert {e["code"] for e in error.fields["password"]["errors"]} >= {"too_common"}
    assert "password" not in str(error).lower() or "password" in error.message.lower()


def test_invalid_credentials_and_rate_limited(sidecar):
    sidecar.register(username="alice", password=PASSWORD)
    with pytest.raises(InvalidCredentials) as raised:
        sidecar.login(account="alice", password="wrong password here")
    assert raised.value.code == -32002 and PASSWORD not in str(raised.value)
    with pytest.raises(InvalidCredentials):
        sidecar.login(account="nobody", password="wrong password here")  # same answer: no enumeration
    for _ in range(4):
        with pytest.raises(InvalidCredentials):
            sidecar.login(account="alice", password="wrong password here")
    with pytest.raises(RateLimited) as limited:
        sidecar.login(account="alice", password=PASSWORD)
    assert limited.value.retryable and limited.value.retry_after and limited.value.retry_after >= 1


def test_not_logged_in_with_last_account(sidecar):
    with pytest.raises(NotLoggedIn) as fresh:
        sidecar.get_user()
    assert fresh.value.last_account is None
    sidecar.register(username="alice", password=PASSWORD)
    sidecar.login(account="alice", password=PASSWORD)
    sidecar.logout()
    with pytest.raises(NotLoggedIn) as raised:
        sidecar.get_user()
    assert raised.value.code == -32003 and raised.value.last_account == "alice"
    with pytest.raises(NotLoggedIn):
        sidecar.refresh_token(force=True)


def test_session_expired_and_expired_notification(make_sync):
    sidecar = make_sync(clock=True)
    events = Events()
    sidecar.on_session_changed(events)
    sidecar.register(username="alice", password=PASSWORD)
    sidecar.login(account="alice", password=PASSWORD)
    assert sidecar.call("test.advanceClock", {"seconds": MONTH})["now"] == "2027-02-01T00:00:00Z"
    with pytest.raises(SessionExpired) as raised:
        sidecar.get_user()
    assert raised.value.code == -32004 and not raised.value.retryable
    assert events.wait_for(2) == [("default", "loggedIn"), ("default", "expired")]
    with pytest.raises(NotLoggedIn):  # the local session is already cleared
        sidecar.get_user()


def test_already_exists(sidecar):
    sidecar.register(username="alice", password=PASSWORD, email="alice@example.com")
    with pytest.raises(AlreadyExists) as raised:
        sidecar.register(username="alice", password=PASSWORD)
    assert raised.value.field == "username" and raised.value.code == -32013


def test_config_error_for_unknown_profile(sidecar):
    with pytest.raises(ConfigError) as raised:
        sidecar.get_user(profile="nope")
    assert raised.value.profile == "nope" and raised.value.code == -32015


def test_protocol_errors_through_the_generic_call(sidecar):
    with pytest.raises(MethodNotFound) as missing:
        sidecar.call("noSuchMethod", {})
    assert missing.value.code == -32601 and missing.value.data.get("method") == "noSuchMethod"
    with pytest.raises(InvalidParams) as bad:
        sidecar.call("getUser", {"bogus": 1})
    assert bad.value.field == "bogus" and bad.value.code == -32602
    with pytest.raises(InvalidParams):
        sidecar.call("getUser", {"refresh": "yes"})
    with pytest.raises(InvalidRequest) as request:
        sidecar.call("validate", "not an object")  # params must be an object or an array
    assert request.value.code == -32600
    # A lone surrogate cannot be UTF-8: the sidecar answers -32700 with id null, which the client
    # still attributes to the one call that caused it.
    with pytest.raises(ParseError) as parse:
        sidecar.call("validate", {"username": "\ud800"})
    assert parse.value.code == -32700
    assert sidecar.validate(username="alice")["valid"] is True  # and the client carries on


def test_unencodable_params_send_nothing(sidecar):
    with pytest.raises(TypeError):
        sidecar.call("validate", {"username": object()})
    with pytest.raises(ValueError):
        sidecar.call("validate", {"username": float("nan")})
    assert len(sidecar._pending) == 0 and sidecar._in_flight == 0
    assert sidecar.validate(username="alice")["valid"] is True


def test_unaddressable_error_is_attributed_while_other_calls_are_pending(make_sync):
    sidecar = make_sync(fast=False)
    sidecar.register(username="alice", password=PASSWORD)  # slow hash
    slow = sidecar.submit("login", {"account": "alice", "password": PASSWORD})
    bad = sidecar.submit("validate", {"username": "\udfff"})
    with pytest.raises(ParseError):
        bad.result(10)
    assert slow.result(10)["user"]["username"] == "alice"


def test_cancelled(make_sync):
    sidecar = make_sync(fast=False)  # the default KDF: a login takes ~140 ms
    sidecar.register(username="alice", password=PASSWORD)
    login = sidecar.submit("login", {"account": "alice", "password": PASSWORD})
    queued = sidecar.submit("getUser", {})  # waits behind the login (same profile)
    assert queued.cancel() is True
    with pytest.raises(Cancelled) as raised:
        queued.result(10)
    assert raised.value.code == -32800
    assert login.result(10)["user"]["username"] == "alice"
    assert queued.cancel() is False  # already answered


def test_call_timeout_cancels_and_the_client_goes_on(make_sync):
    sidecar = make_sync(fast=False)
    sidecar.register(username="alice", password=PASSWORD)
    started = time.monotonic()
    with pytest.raises(CallTimeout):
        sidecar.login(account="alice", password=PASSWORD, timeout=0.001)
    assert time.monotonic() - started < 0.1  # did not wait for the ~140 ms hash
    assert sidecar.validate(username="alice")["valid"] is True
    # The cancelled login either took effect (it was already running) or never started.
    try:
        assert sidecar.get_user()["user"]["username"] == "alice"
    except NotLoggedIn:
        pass
    assert sidecar.status()["version"]
    assert len(sidecar._pending) == 0  # the late answer was received and dropped


def test_in_flight_limit_is_queued_client_side(make_sync):
    # The sidecar refuses past --max-in-flight; a client with the same limit queues instead.
    raw = make_sync(fast=False, args=["--max-in-flight", "2"], max_in_flight=None)
    raw.register(username="alice", password=PASSWORD)
    calls = [raw.submit("login", {"account": "alice", "password": PASSWORD})]
    calls += [raw.submit("getUser", {}) for _ in range(6)]
    outcomes = []
    for call in calls:
        try:
            call.result(10)
            outcomes.append("ok")
        except RateLimited as error:
            assert error.reason == "too_many_in_flight"
            outcomes.append("limited")
    assert "limited" in outcomes
    raw.close()

    queued = make_sync(fast=False, args=["--max-in-flight", "2"], max_in_flight=2)
    calls = [queued.submit("logout", {})]
    calls += [queued.submit("status", {}) for _ in range(6)]
    for call in calls:
        call.result(10)


# -- notifications ---------------------------------------------------------------------------------


def test_session_changed_notifications(make_sync):
    sidecar = make_sync()
    events = Events()
    everything = []
    sidecar.on_session_changed(events)
    sidecar.on_notification(lambda method, params: everything.append((method, params)))
    sidecar.on_session_changed(lambda event: 1 / 0)  # a failing callback does not stop the others
    sidecar.register(username="alice", password=PASSWORD)
    sidecar.login(account="alice", password=PASSWORD)
    sidecar.refresh_token(force=True)
    sidecar.logout()
    assert events.wait_for(3) == [("default", "loggedIn"), ("default", "refreshed"), ("default", "loggedOut")]
    assert everything[0] == ("sessionChanged", {"profile": "default", "state": "loggedIn"})


def test_session_changed_callbacks_have_run_when_the_call_returns(sidecar):
    # A slow callback: without delivery before the return, login() would come back first.
    seen = []
    calls_from_the_callback = []

    def slow(event):
        time.sleep(0.2)
        seen.append(event["state"])
        calls_from_the_callback.append(sidecar.validate(username="alice")["valid"])  # no deadlock

    sidecar.on_session_changed(slow)
    sidecar.register(username="alice", password=PASSWORD)
    sidecar.login(account="alice", password=PASSWORD)
    assert seen == ["loggedIn"]
    sidecar.refresh_token(force=True)
    assert seen == ["loggedIn", "refreshed"]
    pending = sidecar.submit("logout", {})
    pending.result(10)
    assert seen == ["loggedIn", "refreshed", "loggedOut"] and calls_from_the_callback == [True] * 3


def test_callbacks_may_call_the_client_and_unsubscribe(sidecar):
    seen = []
    done = threading.Event()

    def on_change(event):
        if event["state"] == "loggedIn":
            seen.append(sidecar.get_user()["user"]["username"])  # no deadlock: own thread
            done.set()

    remove = sidecar.on_session_changed(on_change)
    sidecar.register(username="alice", password=PASSWORD)
    sidecar.login(account="alice", password=PASSWORD)
    assert done.wait(5) and seen == ["alice"]
    remove()
    sidecar.logout()
    sidecar.login(account="alice", password=PASSWORD)
    sidecar.validate(username="x")
    time.sleep(0.1)
    assert seen == ["alice"]


# -- concurrency -----------------------------------------------------------------------------------


def test_100_parallel_calls_from_threads(sidecar):
    sidecar.register(username="alice", password=PASSWORD)
    sidecar.login(account="alice", password=PASSWORD)

    def one(i):
        kind = i % 4
        if kind == 0:
            return sidecar.validate(username=f"user_{i}")["fields"]["username"]["value"] == f"user_{i}"
        if kind == 1:
            return sidecar.get_user()["user"]["username"] == "alice"
        if kind == 2:
            return sidecar.status()["profiles"][0]["loggedIn"] is True
        try:
            sidecar.call("noSuchMethod", {"i": i})
        except MethodNotFound as error:
            return error.data["method"] == "noSuchMethod"
        return False

    with ThreadPoolExecutor(max_workers=100) as pool:
        results = list(pool.map(one, range(100)))
    assert results == [True] * 100
    assert len(sidecar._pending) == 0


# -- the process ----------------------------------------------------------------------------------


def test_sidecar_killed_mid_call(make_sync):
    sidecar = make_sync(fast=False)
    sidecar.register(username="alice", password=PASSWORD)
    pending = [sidecar.submit("login", {"account": "alice", "password": PASSWORD}) for _ in range(3)]
    pending += [sidecar.submit("getUser", {}) for _ in range(5)]
    waiting = []
    errors = []

    def wait_in_thread():
        try:
            sidecar.get_user()
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    for _ in range(4):
        thread = threading.Thread(target=wait_in_thread)
        thread.start()
        waiting.append(thread)
    time.sleep(0.05)
    started = time.monotonic()
    os.kill(sidecar.pid, signal.SIGKILL)
    for call in pending:
        with pytest.raises(SidecarExited) as raised:
            call.result(5)
        assert raised.value.returncode == -signal.SIGKILL
    for thread in waiting:
        thread.join(5)
    assert len(errors) == 4 and all(isinstance(e, SidecarExited) for e in errors)
    assert time.monotonic() - started < 3.0
    # every later call fails at once, too
    later = time.monotonic()
    with pytest.raises(SidecarExited, match="SIGKILL"):
        sidecar.validate(username="alice")
    assert time.monotonic() - later < 0.5
    sidecar.close()  # still fine


def test_exit_at_start_reports_code_and_stderr(binary, state_dir, tmp_path):
    config = tmp_path / "bad.json"
    config.write_text('{"profiles": {"default": {"provider": "carrier-pigeon"}}}')
    with pytest.raises(SidecarExited) as raised:
        with AuthSidecar(binary, config=config, state_dir=state_dir, env=TEST_ENV):
            pytest.fail("the with block must not run")
    assert raised.value.returncode == 78
    assert any("bad.json" in line for line in raised.value.stderr_tail), raised.value.stderr_tail
    assert "configuration error" in str(raised.value)


def test_stderr_is_drained(binary, state_dir, tmp_path):
    # A wrapper floods stderr (far past a pipe's 64 KiB) before and while the sidecar runs; a
    # client that did not read stderr would hang here.
    wrapper = write_script(tmp_path / "noisy", f"""#!/bin/sh
head -c 1000000 /dev/zero | tr '\\0' 'x' | fold -w 100 >&2
exec "{binary}" "$@"
""")
    with AuthSidecar(wrapper, state_dir=state_dir, env=TEST_ENV, timeout=20) as sidecar:
        assert sidecar.validate(username="alice")["valid"] is True
        assert sidecar.stderr_tail and set(sidecar.stderr_tail[0]) == {"x"}


def test_clean_shutdown(binary, state_dir):
    sidecar = AuthSidecar(binary, state_dir=state_dir, env=TEST_ENV)
    with sidecar:
        pid = sidecar.pid
        assert os.getsid(pid) == pid  # its own session: a terminal's Ctrl-C is the host's
        slow = sidecar.submit("register", {"username": "alice", "password": PASSWORD})  # ~140 ms hash
    # close() let the request in flight finish, then the sidecar exited 0 on stdin EOF
    assert slow.result(0)["user"]["username"] == "alice"
    assert sidecar.returncode == 0
    with pytest.raises(OSError):
        os.kill(pid, 0)
    with pytest.raises(ClientClosed):
        sidecar.validate(username="alice")
    sidecar.close()  # idempotent
    assert not [t for t in threading.enumerate() if t.name.startswith(f"auth-sidecar[{pid}]")]


def test_close_kills_a_sidecar_that_ignores_eof(binary, state_dir, tmp_path):
    # A stand-in that never exits on EOF (and ignores SIGTERM): close() must still return.
    stubborn = write_script(tmp_path / "stubborn", "#!/bin/sh\ntrap '' TERM\nexec sleep 1000\n")
    sidecar = AuthSidecar(stubborn, shutdown_timeout=0.2, handshake=False).start()
    started = time.monotonic()
    sidecar.close()
    assert time.monotonic() - started < 5
    assert sidecar.returncode == -signal.SIGKILL


def test_passwords_never_in_argv_or_logs(make_sync, caplog):
    caplog.set_level(logging.DEBUG, logger="auth_sidecar")
    sidecar = make_sync(log_level="trace")
    secret = "Tr0ub4dor&3-unique-secret"
    sidecar.register(username="alice", password=secret)
    sidecar.login(account="alice", password=secret)
    with pytest.raises(InvalidCredentials) as raised:
        sidecar.login(account="alice", password=secret + "x")
    with open(f"/proc/{sidecar.pid}/cmdline", "rb") as f:
        assert secret.encode() not in f.read()
    sidecar.close()
    assert secret not in caplog.text
    assert secret not in "\n".join(sidecar.stderr_tail)
    assert secret not in str(raised.value) and secret not in repr(raised.value)


def test_close_while_other_threads_call(make_sync):
    sidecar = make_sync()
    outcomes = []
    stop = threading.Event()

    def hammer():
        while not stop.is_set():
            try:
                sidecar.validate(username="alice")
                outcomes.append("ok")
            except ClientClosed:
                outcomes.append("closed")
                return

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(0.1)
    sidecar.close()
    for thread in threads:
        thread.join(5)
    stop.set()
    assert not any(thread.is_alive() for thread in threads)
    assert outcomes.count("closed") == 8 and "ok" in outcomes
