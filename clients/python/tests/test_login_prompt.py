"""Interactive logins (``login(flow=...)``): the ``loginPrompt`` notification reaches the call's
``on_prompt`` and every ``on_login_prompt`` listener, sync and asyncio.

The Python suite starts no auth server, so the prompt plumbing runs against a scripted sidecar that
speaks the real wire format (the shapes of schema/openrpc.json); the real binary checks what it can
without a server: a local profile answers ``Unsupported``. The flows themselves, against the real
django-oauth-toolkit server, are the Swift end-to-end tests (OAuth2InteractiveEndToEndTests)."""

from __future__ import annotations

import asyncio
import sys
import threading

import pytest

from _support import TEST_ENV, write_script
from auth_sidecar import AsyncAuthSidecar, AuthSidecar, Unsupported

PROMPT_SIDECAR = f"""#!{sys.executable}
import json, sys
for line in sys.stdin:
    request = json.loads(line)
    if request.get("method") != "login":  # e.g. the client's handshake
        answer = {{"jsonrpc": "2.0", "id": request["id"], "result": {{"valid": True, "fields": {{}}}}}}
        sys.stdout.write(json.dumps(answer) + "\\n")
        sys.stdout.flush()
        continue
    params = request["params"]
    prompt = {{"profile": params.get("profile", "default"), "id": request["id"], "flow": params["flow"],
              "expiresAt": "2027-01-01T00:05:00Z"}}
    if params["flow"] == "device":
        prompt.update(userCode="WDJB-MJHT", verificationUri="https://id.example.com/device")
    else:
        prompt.update(authorizationUrl="https://id.example.com/authorize?state=s",
                      redirectUri="http://127.0.0.1:49407/callback")
    out = [{{"jsonrpc": "2.0", "method": "loginPrompt", "params": prompt}},
           {{"jsonrpc": "2.0", "method": "sessionChanged", "params": {{"profile": prompt["profile"], "state": "loggedIn"}}}},
           {{"jsonrpc": "2.0", "id": request["id"], "result": {{
               "user": {{"id": "1", "username": "alice"}},
               "session": {{"accessToken": "at", "tokenType": "Bearer", "expiresAt": "2027-01-01T01:00:00Z"}}}}}}]
    for message in out:
        sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()
"""


@pytest.fixture
def scripted(tmp_path):
    return write_script(tmp_path / "prompting-sidecar", PROMPT_SIDECAR)


def test_sync_prompt_reaches_the_call_and_the_listeners(scripted):
    # Callbacks run on the client's notification thread: the test waits for them, not for login().
    seen = []
    both = threading.Semaphore(0)
    own = []
    done = threading.Event()

    def listener(prompt):
        seen.append((prompt["flow"], prompt["id"]))
        both.release()

    with AuthSidecar(scripted, timeout=20) as sidecar:
        sidecar.on_login_prompt(listener)
        result = sidecar.login(flow="device", on_prompt=lambda prompt: (own.append(prompt), done.set()))
        assert result["user"]["username"] == "alice"
        code = sidecar.login(flow="authorizationCode", profile="work")
        assert code["session"]["accessToken"] == "at"
        assert done.wait(10) and both.acquire(timeout=10) and both.acquire(timeout=10)
    assert own[0]["userCode"] == "WDJB-MJHT" and own[0]["verificationUri"].startswith("https://")
    assert seen == [("device", own[0]["id"]), ("authorizationCode", own[0]["id"] + 1)]


def test_async_prompt_reaches_the_call_and_coroutine_listeners(scripted):
    async def main():
        seen = []

        async def listener(prompt):
            seen.append(prompt["flow"])

        async with AsyncAuthSidecar(scripted, timeout=20) as sidecar:
            sidecar.on_login_prompt(listener)
            own = []
            result = await sidecar.login(flow="authorizationCode", on_prompt=own.append)
            assert result["user"]["id"] == "1"
            assert own and own[0]["redirectUri"] == "http://127.0.0.1:49407/callback"
            await asyncio.sleep(0)
        assert seen == ["authorizationCode"]

    asyncio.run(main())


def test_interactive_flows_take_no_account_or_password(scripted):
    with AuthSidecar(scripted, timeout=20) as sidecar:
        with pytest.raises(TypeError):
            sidecar.login(flow="device", password="hunter2")
        with pytest.raises(TypeError):
            sidecar.login(flow="authorizationCode", account="alice")
        with pytest.raises(ValueError):
            sidecar.login(flow="magic")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            sidecar.login(flow="password")  # a password login still needs its fields


def test_a_local_profile_has_no_interactive_flow(binary, state_dir):
    with AuthSidecar(binary, state_dir=state_dir, env=TEST_ENV, timeout=20) as sidecar:
        with pytest.raises(Unsupported):
            sidecar.login(flow="device")
