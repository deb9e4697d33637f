"""Finding the binary and building the command line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from auth_sidecar import AsyncAuthSidecar, AuthSidecar, BinaryNotFound, resolve_binary
from auth_sidecar._common import build_command, build_env

from _support import write_script


def test_explicit_binary_wins(tmp_path, monkeypatch):
    explicit = write_script(tmp_path / "mine", "#!/bin/sh\n")
    other = write_script(tmp_path / "env", "#!/bin/sh\n")
    monkeypatch.setenv("AUTH_SIDECAR_BIN", str(other))
    assert resolve_binary(explicit) == str(explicit)


def test_env_then_path(tmp_path, monkeypatch):
    from_env = write_script(tmp_path / "from-env", "#!/bin/sh\n")
    monkeypatch.setenv("AUTH_SIDECAR_BIN", str(from_env))
    assert resolve_binary() == str(from_env)
    monkeypatch.delenv("AUTH_SIDECAR_BIN")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    on_path = write_script(bindir / "auth-sidecar", "#!/bin/sh\n")
    monkeypatch.setenv("PATH", str(bindir))
    assert resolve_binary() == str(on_path)


def test_bundled_binary_comes_after_explicit_and_env_before_path(tmp_path, monkeypatch):
    import auth_sidecar._common as common

    # A release wheel carries the binary at auth_sidecar/bin/auth-sidecar; a source install has none.
    assert common.BUNDLED_BINARY == os.path.join(os.path.dirname(common.__file__), "bin", "auth-sidecar")
    bundled = write_script(tmp_path / "bundled", "#!/bin/sh\n")
    monkeypatch.setattr(common, "BUNDLED_BINARY", str(bundled))
    bindir = tmp_path / "bin"
    bindir.mkdir()
    on_path = write_script(bindir / "auth-sidecar", "#!/bin/sh\n")
    monkeypatch.setenv("PATH", str(bindir))
    monkeypatch.delenv("AUTH_SIDECAR_BIN", raising=False)
    assert resolve_binary() == str(bundled)
    from_env = write_script(tmp_path / "from-env", "#!/bin/sh\n")
    monkeypatch.setenv("AUTH_SIDECAR_BIN", str(from_env))
    assert resolve_binary() == str(from_env)
    assert resolve_binary(on_path) == str(on_path)
    monkeypatch.delenv("AUTH_SIDECAR_BIN")
    bundled.chmod(0o644)  # not executable: skipped, PATH next
    assert resolve_binary() == str(on_path)


def test_none_found_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.delenv("AUTH_SIDECAR_BIN", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BinaryNotFound, match="AUTH_SIDECAR_BIN"):
        resolve_binary()
    with pytest.raises(BinaryNotFound):
        AuthSidecar().start()
    import asyncio

    async def start_async():
        await AsyncAuthSidecar().start()

    with pytest.raises(BinaryNotFound):
        asyncio.run(start_async())


def test_bad_env_path_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTH_SIDECAR_BIN", str(tmp_path / "missing"))
    with pytest.raises(BinaryNotFound, match="AUTH_SIDECAR_BIN.*not a file"):
        resolve_binary()
    not_exec = tmp_path / "plain"
    not_exec.write_text("")
    with pytest.raises(BinaryNotFound, match="not executable"):
        resolve_binary(not_exec)


def test_command_and_env():
    command = build_command("/bin/sc", Path("/s"), "/c.json", "debug", ["--max-in-flight", "8"])
    assert command == ["/bin/sc", "--framing", "ndjson", "--state-dir", "/s", "--config", "/c.json",
                       "--log-level", "debug", "--max-in-flight", "8"]
    os.environ["AUTH_SIDECAR_PY_TEST"] = "1"
    try:
        env = build_env({"AUTH_SIDECAR_PY_TEST": None, "EXTRA": "x"})
    finally:
        del os.environ["AUTH_SIDECAR_PY_TEST"]
    assert "AUTH_SIDECAR_PY_TEST" not in env and env["EXTRA"] == "x" and env["PATH"] == os.environ["PATH"]
