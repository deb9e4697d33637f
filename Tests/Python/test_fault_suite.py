"""Faults around the real binary: a full disk (a small tmpfs), a read-only directory, a corrupt and a truncated
database, a wrong key, a symlinked ancestor, kill -9 during writes, SIGTERM while the host does not read. In
every case: no crash, no hang, no acknowledged write lost, every request answered once."""
import os
import pathlib
import signal
import subprocess
import time

import pytest
from sidecar_process import workdir, BIN, CHEAP, HANG_GUARD, answers, call, environment, kind, request, run

KEY_A = "a1" * 32
KEY_B = "b2" * 32


def register(id_, name):
    return request(id_, "register", username=name, password="correct horse battery staple")


def usernames(state, key=None):
    done = subprocess.run([BIN, "users", "list", *CHEAP], capture_output=True, env=environment(state, key),
                          timeout=HANG_GUARD, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return {line.split('"username":"')[1].split('"')[0] for line in done.stdout.decode().splitlines() if line}


@pytest.fixture
def tmpfs(workdir):
    """A 1 MiB tmpfs (needs root; skipped otherwise), unmounted afterwards."""
    mount = workdir / "tmpfs"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_full_disk_loses_no_acknowledged_write(tmpfs):
    state = tmpfs / "state"
    assert call(state, register(1, "first"))[1].get("result")
    filler = tmpfs / "filler"
    try:  # fill what is left
        with open(filler, "wb") as out:
            while True:
                out.write(b"\0" * 4096)
                out.flush()
    except OSError:
        pass
    names = [f"user{n}" for n in range(40)]
    got = call(state, *[register(n + 2, name) for n, name in enumerate(names)])
    assert set(got) == set(range(2, 42)), "every request answered"
    acknowledged = {names[i - 2] for i, a in got.items() if a.get("result")}
    assert all(kind(a) in (None, "storage_unavailable") for a in got.values())
    assert any(kind(a) == "storage_unavailable" for a in got.values()), "the disk never filled"
    filler.unlink()
    assert acknowledged | {"first"} <= usernames(state)
    assert call(state, register(99, "afterfree"))[99].get("result")


def test_read_only_directory_is_unavailable_and_keeps_serving(workdir, tmpfs):
    state = tmpfs / "state"
    assert call(state, register(1, "before"))[1].get("result")
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    got = call(state, register(2, "during"), request(3, "validate", username="alice"))
    assert kind(got[2]) == "storage_unavailable" and got[3].get("result")
    subprocess.run(["mount", "-o", "remount,rw", str(tmpfs)], check=True)
    assert "before" in usernames(state)


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_corrupt_or_truncated_database_is_moved_aside(workdir, damage):
    state = workdir / "state"
    assert call(state, *[register(n, f"user{n}") for n in range(1, 30)])[1].get("result")
    database = state / "store.sqlite3"
    run(state, b"")  # a clean close checkpoints the WAL into the database
    data = database.read_bytes()
    for suffix in ("-wal", "-shm"):
        (state / ("store.sqlite3" + suffix)).unlink(missing_ok=True)
    database.write_bytes(os.urandom(len(data)) if damage == "garbage" else data[: len(data) // 2])
    got = call(state, register(1, "xxx1"), register(2, "yyy2"))
    assert set(got) == {1, 2} and all(a.get("result") or kind(a) == "storage_corrupt" for a in got.values())
    if damage == "garbage":  # not a database at all: the first request finds out (a truncated one may not)
        assert kind(got[1]) == "storage_corrupt"
        assert any(p.name.startswith("store.sqlite3.corrupt-") for p in state.iterdir()), "moved aside, not wiped"
    assert call(state, register(3, "fresh1"))[3].get("result")


def test_wrong_key_is_refused_and_writes_nothing(workdir):
    state = workdir / "state"
    assert call(state, register(1, "alice"), key=KEY_A)[1].get("result")
    before = {p.name: p.read_bytes() for p in state.iterdir() if p.is_file()}
    got = call(state, register(2, "bob"), request(3, "status"), key=KEY_B)
    assert kind(got[2]) == "storage_corrupt" and kind(got[3]) == "storage_corrupt"
    assert got[2]["error"]["data"]["reason"] == "wrong_key"
    got = call(state, register(4, "carol"))
    assert kind(got[4]) == "config_error" and got[4]["error"]["data"]["reason"] == "key_source_changed"
    assert not (state / "store.key").exists()
    assert usernames(state, key=KEY_A) == {"alice"}
    assert set(before) <= {p.name for p in state.iterdir()}


def test_symlinked_ancestor(workdir):
    (workdir / "var" / "home").mkdir(parents=True)
    (workdir / "home").symlink_to("var/home")
    state = workdir / "home" / "alice" / "state"
    assert call(state, register(1, "alice"))[1].get("result")
    assert (workdir / "var" / "home" / "alice" / "state" / "store.sqlite3").stat().st_size > 0
    assert usernames(state) == {"alice"}


def test_kill9_during_writes_loses_no_acknowledged_write(workdir):
    state = workdir / "state"
    for round_ in range(3):
        process = subprocess.Popen([BIN, *CHEAP], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, env=environment(state))
        names = [f"r{round_}n{n}" for n in range(60)]
        process.stdin.write(("\n".join(register(n, name) for n, name in enumerate(names)) + "\n").encode())
        process.stdin.flush()
        acknowledged = set()
        for _ in range(10 + round_ * 15):  # read some answers, then kill in the middle of the rest
            answer = answers(process.stdout.readline())[0]
            if answer.get("result"):
                acknowledged.add(names[answer["id"]])
        process.kill()
        process.wait(timeout=HANG_GUARD)
        assert acknowledged <= usernames(state)
    integrity = call(state, request(1, "status"))[1]
    assert integrity.get("result")


def test_sigterm_with_a_host_that_does_not_read(workdir):
    process = subprocess.Popen([BIN, *CHEAP], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, env=environment(workdir / "state"))
    process.stdin.write(("\n".join(request(n, "rpc.discover") for n in range(40)) + "\n").encode())
    process.stdin.flush()
    time.sleep(1)  # let the answers fill the pipe; the outcome does not depend on it
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 0  # the guard: the drain bound is 10 s
    process.stdout.close()
    process.stdin.close()
