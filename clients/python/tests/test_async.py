"""The asyncio client against the real auth-sidecar (each test runs its own event loop)."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from _support import PASSWORD, TEST_ENV, make_async, write_script
from auth_sidecar import (
    AlreadyExists,
    AsyncAuthSidecar,
    CallTimeout,
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

MONTH = 31 * 86400


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def test_every_method_and_notifications(binary, state_dir):
    async def main():
        states = []
        seen_by_coroutine = []

        async def coroutine_callback(event):
            seen_by_coroutine.append(event["state"])

        everything = []
        async with make_async(binary, state_dir) as sidecar:
            sidecar.on_session_changed(lambda event: states.append(event["state"]))
            sidecar.on_session_changed(coroutine_callback)
            remove = sidecar.on_notification(lambda method, params: everything.append((method, params["state"])))
            checked = await sidecar.validate(account="alice@EXAMPLE.com", purpose="login")
            assert checked["fields"]["account"] == {"valid": True, "value": "alice@example.com",
                                                    "kind": "email", "errors": []}
            user = (await sidecar.register(username="alice", password=PASSWORD, phone="13812345678"))["user"]
            assert user["phone"] == "+8613812345678"
            login = await sidecar.login(phone="+8613812345678", password=PASSWORD)
            assert login["user"]["id"] == user["id"]
            # sync callbacks run before a later answer is delivered
            assert states == ["loggedIn"]
            got = await sidecar.get_user(refresh=True)
            assert got["user"]["username"] == "alice" and got["stale"] is False
            refreshed = await sidecar.refresh_token(force=True)
            assert refreshed["session"]["accessToken"] != login["session"]["accessToken"]
            assert (await sidecar.status())["profiles"][0]["loggedIn"] is True
            assert "methods" in await sidecar.discover()
            assert await sidecar.logout() == {"loggedOut": True, "revoked": True}
            assert states == ["loggedIn", "refreshed", "loggedOut"]
            await asyncio.sleep(0)
            assert seen_by_coroutine == states
            assert everything == [("sessionChanged", state) for state in states]
            remove()
            await sidecar.login(username="alice", password=PASSWORD)
            assert len(everything) == 3 and states[-1] == "loggedIn"
            assert (await sidecar.call("validate", {"username": "bob"}))["valid"] is True

    run(main())


def test_error_kinds(binary, state_dir):
    async def main():
        async with make_async(binary, state_dir, clock=True) as sidecar:
            states = []
            sidecar.on_session_changed(lambda event: states.append(event["state"]))
            with pytest.raises(ValidationFailed):
                await sidecar.register(username="x", password="123")
            await sidecar.register(username="alice", password=PASSWORD)
            with pytest.raises(AlreadyExists):
                await sidecar.register(username="alice", password=PASSWORD)
            with pytest.raises(NotLoggedIn) as fresh:
                await sidecar.get_user()
            assert fresh.value.last_account is None
            for _ in range(5):
                with pytest.raises(InvalidCredentials):
                    await sidecar.login(account="mallory", password="not the password")
            with pytest.raises(RateLimited) as limited:
                await sidecar.login(account="mallory", password="not the password")
            assert limited.value.retry_after >= 1
            await sidecar.login(account="alice", password=PASSWORD)
            await sidecar.call("test.advanceClock", {"seconds": MONTH})
            with pytest.raises(SessionExpired):
                await sidecar.refresh_token()
            assert states == ["loggedIn", "expired"]
            with pytest.raises(NotLoggedIn) as cleared:
                await sidecar.get_user()
            # the last login is 31 days old, past rememberAccountDays (7): nothing to pre-fill
            assert cleared.value.last_account is None
            with pytest.raises(ConfigError):
                await sidecar.logout(profile="nope")
            with pytest.raises(MethodNotFound):
                await sidecar.call("nope")
            with pytest.raises(InvalidParams):
                await sidecar.call("status", {"extra": True})
            with pytest.raises(InvalidRequest):
                await sidecar.call("status", 42)
            with pytest.raises(ParseError):
                await sidecar.call("validate", {"email": "\ud83d"})
            with pytest.raises(TypeError):  # not JSON: nothing is sent, nothing leaks
                await sidecar.call("status", {"profile": {1, 2}})
            assert not sidecar._pending.entries and sidecar._in_flight == 0

    run(main())


def test_task_cancellation_sends_cancel_request(binary, state_dir):
    async def main():
        async with make_async(binary, state_dir, fast=False) as sidecar:
            await sidecar.register(username="alice", password=PASSWORD)
            answers = []
            original = sidecar._answer

            def spy(message):
                answers.append(message)
                original(message)

            sidecar._answer = spy  # type: ignore[method-assign]
            login = asyncio.ensure_future(sidecar.login(account="alice", password=PASSWORD))
            queued = asyncio.ensure_future(sidecar.get_user())  # waits behind the login
            await asyncio.sleep(0.02)
            queued.cancel()
            with pytest.raises(asyncio.CancelledError):
                await queued
            assert (await login)["user"]["username"] == "alice"
            # The sidecar answers a request cancelled while queued at once (normally before the login ends).
            for _ in range(200):
                if not sidecar._pending.entries:
                    break
                await asyncio.sleep(0.01)
            kinds = [a.get("error", {}).get("data", {}).get("kind") for a in answers]
            # the discarded getUser was answered `cancelled`: the $/cancelRequest reached the sidecar
            assert sorted(map(str, kinds)) == ["None", "cancelled"], answers
            assert sidecar._pending.entries == {} and sidecar._in_flight == 0

    run(main())


def test_call_timeout(binary, state_dir):
    async def main():
        async with make_async(binary, state_dir, fast=False) as sidecar:
            await sidecar.register(username="alice", password=PASSWORD)
            with pytest.raises(CallTimeout):
                await sidecar.login(account="alice", password=PASSWORD, timeout=0.001)
            assert (await sidecar.validate(username="alice"))["valid"]
            try:  # the cancelled login either took effect (already running) or never started
                assert (await sidecar.get_user())["user"]["username"] == "alice"
            except NotLoggedIn:
                pass
            assert (await sidecar.status())["version"]
            assert not sidecar._pending.entries and sidecar._in_flight == 0

    run(main())


def test_100_parallel_tasks(binary, state_dir):
    async def main():
        async with make_async(binary, state_dir) as sidecar:
            await sidecar.register(username="alice", password=PASSWORD)
            await sidecar.login(account="alice", password=PASSWORD)

            async def one(i):
                if i % 3 == 0:
                    return (await sidecar.validate(username=f"user_{i}"))["fields"]["username"]["value"]
                if i % 3 == 1:
                    return (await sidecar.get_user())["user"]["username"]
                return (await sidecar.status())["profiles"][0]["username"]

            results = await asyncio.gather(*(one(i) for i in range(100)))
            assert results == [f"user_{i}" if i % 3 == 0 else "alice" for i in range(100)]
            assert sidecar._pending.entries == {} and sidecar._in_flight == 0

    run(main())


def test_in_flight_limit_is_queued(binary, state_dir):
    async def main():
        async with make_async(binary, state_dir, fast=False, args=["--max-in-flight", "2"],
                              max_in_flight=2) as sidecar:
            calls = [sidecar.register(username="alice", password=PASSWORD)]
            calls += [sidecar.get_user() for _ in range(6)]
            outcomes = await asyncio.gather(*calls, return_exceptions=True)
            assert all(isinstance(o, NotLoggedIn) for o in outcomes[1:]), outcomes

    run(main())


def test_killed_mid_call(binary, state_dir):
    async def main():
        sidecar = make_async(binary, state_dir, fast=False)
        async with sidecar:
            await sidecar.register(username="alice", password=PASSWORD)
            calls = [asyncio.ensure_future(sidecar.login(account="alice", password=PASSWORD)) for _ in range(3)]
            calls += [asyncio.ensure_future(sidecar.get_user()) for _ in range(5)]
            await asyncio.sleep(0.05)
            started = time.monotonic()
            os.kill(sidecar.pid, signal.SIGKILL)
            outcomes = await asyncio.gather(*calls, return_exceptions=True)
            assert time.monotonic() - started < 3
            assert all(isinstance(o, SidecarExited) and o.returncode == -signal.SIGKILL for o in outcomes), outcomes
            with pytest.raises(SidecarExited):
                await sidecar.validate(username="alice")

    run(main())


def test_clean_shutdown_and_later_calls(binary, state_dir):
    async def main():
        sidecar = make_async(binary, state_dir, fast=False)
        async with sidecar:
            slow = asyncio.ensure_future(sidecar.register(username="alice", password=PASSWORD))
            await asyncio.sleep(0)  # sent
        assert (await slow)["user"]["username"] == "alice"  # answered before the sidecar exited
        assert sidecar.returncode == 0
        with pytest.raises(ClientClosed):
            await sidecar.validate(username="alice")
        await sidecar.close()

    run(main())


def test_exit_at_start(binary, state_dir, tmp_path):
    config = tmp_path / "bad.json"
    config.write_text("{not json")

    async def main():
        sidecar = make_async(binary, state_dir, config=config)
        with pytest.raises(SidecarExited) as raised:
            async with sidecar:
                pytest.fail("the with block must not run")
        assert raised.value.returncode == 78 and raised.value.stderr_tail
        with pytest.raises(SidecarExited) as later:  # and so does every later call
            await sidecar.status()
        assert later.value.returncode == 78

    run(main())


def test_stderr_is_drained(binary, state_dir, tmp_path):
    wrapper = write_script(tmp_path / "noisy", f"""#!/bin/sh
head -c 1000000 /dev/zero | tr '\\0' 'y' | fold -w 100 >&2
exec "{binary}" "$@"
""")

    async def main():
        async with AsyncAuthSidecar(wrapper, state_dir=state_dir, env=TEST_ENV, timeout=20) as sidecar:
            assert (await sidecar.validate(username="alice"))["valid"]

    run(main())


def test_unaddressable_error_is_attributed_while_other_calls_are_pending(binary, state_dir):
    async def main():
        async with make_async(binary, state_dir, fast=False) as sidecar:
            await sidecar.register(username="alice", password=PASSWORD)
            slow = asyncio.ensure_future(sidecar.login(account="alice", password=PASSWORD))
            await asyncio.sleep(0)
            with pytest.raises(ParseError):
                await sidecar.call("validate", {"username": "\udfff"})
            assert (await slow)["user"]["username"] == "alice"

    run(main())
