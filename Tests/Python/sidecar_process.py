"""The real binary for the process-level suites: spawned with a private state directory, fed bytes, its answers
parsed. AUTH_SIDECAR_BIN names it (scripts/test sets it); hang guards only, no timed assertions."""
import json
import os
import pathlib
import subprocess
import tempfile

import pytest

BIN = os.environ.get("AUTH_SIDECAR_BIN") or str(
    pathlib.Path(__file__).resolve().parents[2] / ".build" / "debug" / "auth-sidecar")
HANG_GUARD = 120
CHEAP = ["--test-kdf-iterations", "1000"]


def environment(state, key=None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AUTH_SIDECAR_")}
    env.update(AUTH_SIDECAR_TEST_MODE="1", AUTH_SIDECAR_STATE_DIR=str(state),
               XDG_CONFIG_HOME=str(pathlib.Path(state).parent / "config"))
    if key:
        env["AUTH_SIDECAR_KEY"] = key
    return env


def run(state, data: bytes, *args, key=None):
    """Feeds `data`, closes stdin, returns (exit status, stdout bytes, stderr text)."""
    done = subprocess.run([BIN, *CHEAP, *args], input=data, capture_output=True, env=environment(state, key),
                          timeout=HANG_GUARD)
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace")


def request(id_, method, **params):
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})


def answers(stdout: bytes):
    """Every answer object on stdout (batches flattened); fails on a line that is not JSON."""
    out = []
    for line in stdout.split(b"\n"):
        if line.strip():
            value = json.loads(line)
            out.extend(value if isinstance(value, list) else [value])
    return out


def call(state, *requests, key=None):
    """Answers to `requests` (JSON lines), by id."""
    status, stdout, stderr = run(state, ("\n".join(requests) + "\n").encode(), key=key)
    assert status == 0, stderr
    return {a.get("id"): a for a in answers(stdout)}


def kind(answer):
    return answer.get("error", {}).get("data", {}).get("kind")


@pytest.fixture
def workdir():
    """A private temporary directory, removed afterwards (pytest's tmp_path keeps old ones in /tmp)."""
    with tempfile.TemporaryDirectory(prefix="auth-sidecar-faults-") as path:
        yield pathlib.Path(path)
