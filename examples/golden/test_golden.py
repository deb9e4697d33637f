"""Golden tests of a login UI's answers, for pytest: each `<name>.in.jsonl` here is sent to the sidecar one request
at a time (each after the previous answer, as a host awaiting it would), on the simulated provider in test mode, and
every line the sidecar writes must equal `<name>.out.jsonl`.

Copy this file and `config.json` into your tests, point AUTH_SIDECAR_BIN at the binary you ship, and add one
`.in.jsonl` per screen or scenario. `GOLDEN_RECORD=1 pytest` (re)writes the `.out.jsonl` files: review the diff
before committing it.
"""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import threading

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ARGUMENTS = ["--config", str(HERE / "config.json"), "--test-clock", "2027-01-01T00:00:00Z"]
TRANSCRIPTS = sorted(HERE.glob("*.in.jsonl"))
HANG_GUARD_SECONDS = 60


def sidecar_binary():
    binary = os.environ.get("AUTH_SIDECAR_BIN") or shutil.which("auth-sidecar")
    if not binary:
        pytest.fail("set AUTH_SIDECAR_BIN to the auth-sidecar binary (or put it on PATH)")
    return binary


def run_transcript(requests):
    """The sidecar's stdout lines for `requests` (JSON-RPC lines), sent in lockstep to a fresh state directory."""
    with tempfile.TemporaryDirectory() as home:
        environment = {key: value for key, value in os.environ.items() if not key.startswith("AUTH_SIDECAR_")}
        environment.update(AUTH_SIDECAR_TEST_MODE="1", AUTH_SIDECAR_STATE_DIR=home + "/state")
        sidecar = subprocess.Popen(
            [sidecar_binary(), *ARGUMENTS], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=environment, text=True, encoding="utf-8")
        guard = threading.Timer(HANG_GUARD_SECONDS, sidecar.kill)
        guard.start()
        try:
            lines = []
            for request in requests:
                sidecar.stdin.write(request + "\n")
                sidecar.stdin.flush()
                request_id = json.loads(request).get("id")
                while request_id is not None:
                    line = sidecar.stdout.readline()
                    assert line, f"the sidecar stopped before answering {request_id}"
                    lines.append(line.rstrip("\n"))
                    if json.loads(line).get("id") == request_id:
                        break
            sidecar.stdin.close()
            lines += [line.rstrip("\n") for line in sidecar.stdout]
            assert sidecar.wait() == 0, "the sidecar's exit status"
            return lines
        finally:
            guard.cancel()
            sidecar.kill()


def requests_in(transcript):
    return [line for line in transcript.read_text(encoding="utf-8").splitlines() if line.strip()]


def expected_path(transcript):
    return transcript.with_name(transcript.name.replace(".in.", ".out."))


def check(transcript, expected_file):
    """Fails, naming the first differing line, unless the transcript's answers equal `expected_file`."""
    actual = run_transcript(requests_in(transcript))
    if os.environ.get("GOLDEN_RECORD") == "1":
        expected_file.write_text("\n".join(actual) + "\n", encoding="utf-8")
        pytest.fail(f"recorded {expected_file.name}; review it and run again")
    expected = expected_file.read_text(encoding="utf-8").splitlines()
    for number, (got, want) in enumerate(zip(actual, expected), start=1):
        assert got == want, f"{transcript.name} line {number}:\n  got      {got}\n  expected {want}"
    assert len(actual) == len(expected), f"{transcript.name}: {len(actual)} lines, expected {len(expected)}"


def test_there_are_transcripts():
    assert TRANSCRIPTS, "no *.in.jsonl next to this file"


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=lambda path: path.name)
def test_transcript(transcript):
    check(transcript, expected_path(transcript))


def test_a_changed_expected_line_fails(tmp_path):
    """The comparison is not vacuous: one recorded line changed (even to JSON meaning the same, one space added),
    and the same check fails."""
    if os.environ.get("GOLDEN_RECORD") == "1":
        pytest.skip("recording")
    transcript = TRANSCRIPTS[0]
    expected = expected_path(transcript).read_text(encoding="utf-8").splitlines()
    expected[len(expected) // 2] = expected[len(expected) // 2].replace(":", ": ", 1)
    mutated = tmp_path / "mutated.out.jsonl"
    mutated.write_text("\n".join(expected) + "\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="line"):
        check(transcript, mutated)
