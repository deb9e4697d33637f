"""The store key in a real Secret Service (gnome-keyring-daemon on a private D-Bus session, see secret_service.py),
through the real binary: first use creates the item, a restart reads it, a locked keyring and a hanging service
answer storage_unavailable instead of hanging, a removed item is storage_corrupt with the database untouched, no
key material in the state directory or any process environment, and `store rekey` both ways survives kill -9 at
every step and at random moments, and refuses while a sidecar has the store open."""
import base64
import hashlib
import json
import os
import pathlib
import random
import signal
import subprocess
import time

import pytest
from secret_service import SessionBus, SilentService
from sidecar_process import workdir, BIN, CHEAP, HANG_GUARD, answers, environment, kind, request

PASSWORD = "correct horse battery staple"


@pytest.fixture
def bus(workdir):
    session = SessionBus(workdir / "keyring")
    yield session
    session.close()


def sidecar_env(workdir, bus_address, key_source, timeout=5):
    state = workdir / "state"
    config = workdir / "config" / "auth-sidecar" / "config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    storage = {"keySource": key_source, "keyringTimeoutSeconds": timeout}
    config.write_text(json.dumps({"profiles": {"default": {"provider": "local"}}, "storage": storage}))
    env = {k: v for k, v in environment(state).items() if not k.startswith("DBUS_")}
    env["XDG_CONFIG_HOME"] = str(workdir / "config")
    if bus_address:
        env["DBUS_SESSION_BUS_ADDRESS"] = bus_address
    return state, env


def serve(env, *requests):
    done = subprocess.run([BIN, *CHEAP], input=("\n".join(requests) + "\n").encode(), capture_output=True, env=env,
                          timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    return {a["id"]: a for a in answers(done.stdout) if "id" in a}


def protection(env):
    return serve(env, request(1, "status"))[1]["result"]["storage"]["protection"]


def logged_in_user(env):
    got = serve(env, request(1, "getUser"))[1]
    assert "result" in got, got
    return got["result"]["user"]["username"]


def rekey(env, target, **extra):
    return subprocess.run([BIN, "store", "rekey", "--to", target, *CHEAP], capture_output=True,
                          env={**env, **extra}, timeout=HANG_GUARD, stdin=subprocess.DEVNULL)


def key_bytes(bus, state):
    return bytes.fromhex(bus.secret(state).decode())


def spellings(key):
    return [key, key.hex().encode(), key.hex().upper().encode(), base64.b64encode(key),
            base64.urlsafe_b64encode(key).rstrip(b"=")]


def test_first_use_creates_the_item_and_a_restart_reads_it(bus, workdir):
    state, env = sidecar_env(workdir, bus.address, "keyring")
    got = serve(env, request(1, "register", username="alice", password=PASSWORD),
                request(2, "login", username="alice", password=PASSWORD))
    assert "result" in got[2], got
    unlocked, locked = bus.items(state)
    assert len(unlocked) == 1 and not locked
    assert not (state / "store.key").exists()
    assert logged_in_user(env) == "alice" and protection(env) == "keyring"
    # auto picks the keyring for a new store when a Secret Service answers, and follows the recorded source after.
    other = workdir / "auto"
    auto_state, auto_env = sidecar_env(other, bus.address, "auto")
    assert protection(auto_env) == "keyring" and len(bus.items(auto_state)[0]) == 1


def test_no_key_material_in_the_state_directory_or_any_environment(bus, workdir):
    state, env = sidecar_env(workdir, bus.address, "keyring")
    serve(env, request(1, "register", username="alice", password=PASSWORD),
          request(2, "login", username="alice", password=PASSWORD))
    key = key_bytes(bus, state)
    files = [path for path in state.rglob("*") if path.is_file()]
    assert any(path.name == "store.sqlite3" for path in files)
    for path in files:
        data = path.read_bytes()
        assert not any(spelling in data for spelling in spellings(key)), path
    # A sidecar that has opened the store, and every other process we can read.
    process = subprocess.Popen([BIN, *CHEAP], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    try:
        process.stdin.write((request(1, "getUser") + "\n").encode())
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["result"]["user"]["username"] == "alice"
        environs = 0
        for entry in pathlib.Path("/proc").iterdir():
            try:
                data = (entry / "environ").read_bytes()
            except OSError:
                continue
            environs += 1
            assert not any(spelling in data for spelling in spellings(key)[1:]), entry
        assert environs > 1
        assert b"DBUS_SESSION_BUS_ADDRESS" in pathlib.Path(f"/proc/{process.pid}/environ").read_bytes()
        # libsecret is opened when the store key is read from the keyring ...
        assert "libsecret-1.so" in pathlib.Path(f"/proc/{process.pid}/maps").read_text()
    finally:
        process.stdin.close()
        process.wait(timeout=HANG_GUARD)


def test_a_sidecar_that_only_validates_never_loads_libsecret(bus, workdir):
    """... and never at start: a host that only validates does not pay for libsecret, GLib or GIO."""
    _, env = sidecar_env(workdir, bus.address, "keyring")
    process = subprocess.Popen([BIN, *CHEAP], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    try:
        process.stdin.write((request(1, "validate", username="alice") + "\n").encode())
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["result"]["valid"] is True
        maps = pathlib.Path(f"/proc/{process.pid}/maps").read_text()
        assert "libsecret" not in maps and "libglib-2.0" not in maps and "libgio-2.0" not in maps
    finally:
        process.stdin.close()
        process.wait(timeout=HANG_GUARD)


def test_a_locked_keyring_is_storage_unavailable_and_nothing_falls_back(bus, workdir):
    state, env = sidecar_env(workdir, bus.address, "keyring")
    serve(env, request(1, "register", username="alice", password=PASSWORD))
    bus.lock()
    got = serve(env, request(1, "getUser"), request(2, "validate", username="still-served"))
    assert kind(got[1]) == "storage_unavailable" and got[1]["error"]["data"]["retryable"] is True
    assert got[1]["error"]["data"]["reason"] in ("keyring_locked", "keyring_timeout")
    assert "result" in got[2]
    assert not (state / "store.key").exists()
    # A new store under auto refuses too rather than quietly taking a key file.
    auto_state, auto_env = sidecar_env(workdir / "auto", bus.address, "auto")
    assert kind(serve(auto_env, request(1, "status"))[1]) == "storage_unavailable"
    assert not (auto_state / "store.key").exists()


def test_a_hanging_service_times_out_cleanly(workdir):
    silent_bus = SessionBus(workdir / "silent", keyring=False)
    try:
        silent = SilentService(silent_bus.address)
        try:
            state, env = sidecar_env(workdir, silent_bus.address, "keyring", timeout=1)
            got = serve(env, request(1, "getUser"), request(2, "validate", username="still-served"))
            assert kind(got[1]) == "storage_unavailable"
            assert got[1]["error"]["data"]["reason"] == "keyring_timeout"
            assert "result" in got[2]
            assert not (state / "store.key").exists()
        finally:
            silent.close()
    finally:
        silent_bus.close()


def test_no_session_bus_is_a_clear_error_for_keyring_and_the_key_file_for_auto(workdir):
    state, env = sidecar_env(workdir, None, "keyring")
    env.pop("XDG_RUNTIME_DIR", None)
    got = serve(env, request(1, "status"))[1]
    assert kind(got) == "storage_unavailable" and got["error"]["data"]["reason"] == "keyring_no_session"
    assert not (state / "store.key").exists()
    auto_state, auto_env = sidecar_env(workdir / "auto", None, "auto")
    auto_env.pop("XDG_RUNTIME_DIR", None)
    assert protection(auto_env) == "key-file" and (auto_state / "store.key").exists()


def test_a_removed_item_is_storage_corrupt_and_the_database_is_untouched(bus, workdir):
    state, env = sidecar_env(workdir, bus.address, "keyring")
    serve(env, request(1, "register", username="alice", password=PASSWORD),
          request(2, "login", username="alice", password=PASSWORD))
    bus.delete(state)
    # The database and its WAL, byte for byte (the -shm index is SQLite's shared memory, rewritten by any reader).
    def digests():
        return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in state.iterdir()
                if path.is_file() and not path.name.endswith("-shm")}
    before = digests()
    assert "store.sqlite3" in before
    got = serve(env, request(1, "getUser"))[1]
    assert kind(got) == "storage_corrupt" and got["error"]["data"]["reason"] == "key_missing"
    assert digests() == before
    assert bus.items(state) == ([], [])


def kill_at_step(env, target, step):
    """Runs the rekey with the test-only pause at `step`, and kills it there with SIGKILL."""
    process = subprocess.Popen([BIN, "store", "rekey", "--to", target, *CHEAP], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**env, "AUTH_SIDECAR_TEST_REKEY_PAUSE": step})
    line = process.stderr.readline().decode()
    assert f"test pause at {step}" in line, line
    process.kill()
    process.wait(timeout=HANG_GUARD)
    process.stderr.close()


def kill_at_random(env, target, rng):
    process = subprocess.Popen([BIN, "store", "rekey", "--to", target, *CHEAP], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    time.sleep(rng.uniform(0, 0.2))
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=HANG_GUARD)


def assert_opens_and_finishes(bus, state, env, target):
    """The store opens with one of the two keys and the session reads back; the same rekey again finishes it."""
    assert protection(env) in ("key-file", "keyring") and logged_in_user(env) == "alice"
    done = rekey(env, target)
    assert done.returncode == 0, done.stderr
    assert protection(env) == ("keyring" if target == "keyring" else "key-file")
    assert logged_in_user(env) == "alice"
    assert (state / "store.key").exists() == (target == "file")
    assert len(bus.items(state)[0]) == (1 if target == "keyring" else 0)


def test_rekey_both_ways_survives_kill_9_at_every_step_and_at_random(bus, workdir):
    state, env = sidecar_env(workdir, bus.address, "auto")
    serve(env, request(1, "register", username="alice", password=PASSWORD),
          request(2, "login", username="alice", password=PASSWORD))
    assert protection(env) == "keyring"
    target = "file"
    for step in ("new-key-kept", "resealed", "committed"):
        for _ in range(2):
            kill_at_step(env, target, step)
            assert_opens_and_finishes(bus, state, env, target)
            target = "keyring" if target == "file" else "file"
    rng = random.Random(17)
    for _ in range(10):
        kill_at_random(env, target, rng)
        assert_opens_and_finishes(bus, state, env, target)
        target = "keyring" if target == "file" else "file"


def test_rekey_refuses_while_a_sidecar_has_the_store_open(bus, workdir):
    state, env = sidecar_env(workdir, bus.address, "auto")
    serve(env, request(1, "register", username="alice", password=PASSWORD),
          request(2, "login", username="alice", password=PASSWORD))
    process = subprocess.Popen([BIN, *CHEAP], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    try:
        process.stdin.write((request(1, "getUser") + "\n").encode())
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["result"]["user"]["username"] == "alice"
        refused = rekey(env, "file")
        assert refused.returncode == 1 and b"open in another auth-sidecar process" in refused.stderr
        assert not (state / "store.key").exists() and len(bus.items(state)[0]) == 1
    finally:
        process.stdin.close()
        process.wait(timeout=HANG_GUARD)
    assert rekey(env, "file").returncode == 0 and logged_in_user(env) == "alice"
    usage = rekey(env, "plaintext")
    assert usage.returncode == 64 and b"rekey --to keyring|file|env" in usage.stderr
