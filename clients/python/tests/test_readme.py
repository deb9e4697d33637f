"""The README's Python examples run as written, against the real binary."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from _support import FAST_KDF, TEST_ENV

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_readme_has_the_examples():
    blocks = python_blocks()
    assert len(blocks) == 4
    assert "AuthSidecar()" in blocks[0] and "AsyncAuthSidecar()" in blocks[1]


@pytest.mark.parametrize("index", [0, 1], ids=["sync", "async"])
def test_example_runs(binary, tmp_path, index):
    env = dict(os.environ, AUTH_SIDECAR_BIN=binary, AUTH_SIDECAR_STATE_DIR=str(tmp_path / "state"))
    env.pop("AUTH_SIDECAR_CONFIG", None)
    env.pop("AUTH_SIDECAR_KEY", None)
    run = subprocess.run([sys.executable, "-c", python_blocks()[index]], env=env, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "hello, alice" in run.stdout
    # Both clients run the sessionChanged callbacks before the call that follows them returns.
    assert lines[0].startswith("session loggedIn"), lines
    assert lines[-1].startswith("session loggedOut"), lines


def test_error_handling_and_test_mode_blocks(binary, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AUTH_SIDECAR_BIN", binary)
    from auth_sidecar import AuthSidecar

    namespace = {}
    exec(python_blocks()[2], namespace)  # definitions; exercised below
    sign_in, current_user = namespace["sign_in"], namespace["current_user"]
    with AuthSidecar(binary, state_dir=tmp_path / "errors", env=TEST_ENV, args=FAST_KDF) as sidecar:
        assert sign_in(sidecar, "", "") is None  # ValidationFailed, printed
        assert sign_in(sidecar, "alice", "not the password") is None  # InvalidCredentials
        assert current_user(sidecar) is None  # NotLoggedIn
    out = capsys.readouterr().out
    assert "account: " in out and "(required)" in out and "incorrect" in out

    namespace = {"AuthSidecar": AuthSidecar, "tmp_path": tmp_path}
    exec(python_blocks()[3], namespace)
    sidecar = namespace["sidecar"]
    try:
        assert sidecar.call("test.advanceClock", {"seconds": 0})["now"] == "2027-01-01T01:00:00Z"
    finally:
        sidecar.close()
