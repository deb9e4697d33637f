"""Authenticator codes made by pyotp (an independent RFC 6238 implementation) against the real binary: accepted,
a reused one refused, a recovery code accepted once. The sidecar runs on a fixed test clock and pyotp computes
the code for that same instant, so no test depends on where a 30 s step boundary falls."""
import json
import subprocess
import urllib.parse

import pyotp

from sidecar_process import BIN, CHEAP, HANG_GUARD, environment, kind, request, workdir  # noqa: F401 (fixture)

START = 1798761600  # 2027-01-01T00:00:00Z, the sidecar's --test-clock
PASSWORD = "correct horse battery staple"


def users(state, *words, stdin=b""):
    done = subprocess.run([BIN, *CHEAP, "users", *words], input=stdin, capture_output=True,
                          env=environment(state), timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


class Lockstep:
    """One sidecar process; each request is answered before the next is sent."""

    def __init__(self, state):
        self.process = subprocess.Popen([BIN, *CHEAP, "--test-clock", "2027-01-01T00:00:00Z"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(state))
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.process.stdin.write((request(self.next_id, method, **params) + "\n").encode())
        self.process.stdin.flush()
        while True:
            answer = json.loads(self.process.stdout.readline())
            if answer.get("id") == self.next_id:
                return answer

    def close(self):
        self.process.stdin.close()
        stderr = self.process.stderr.read().decode()
        assert self.process.wait(timeout=HANG_GUARD) == 0, stderr
        return stderr


def enroll(workdir):
    state = workdir / "state"
    users(state, "add", "alice", stdin=(PASSWORD + "\n").encode())
    lines = users(state, "totp", "enable", "alice").split("\n")
    uri, recovery = lines[0], [line for line in lines[1:] if line]
    parsed = urllib.parse.urlparse(uri)
    query = urllib.parse.parse_qs(parsed.query)
    assert parsed.scheme == "otpauth" and parsed.netloc == "totp"
    assert query["algorithm"] == ["SHA1"] and query["digits"] == ["6"] and query["period"] == ["30"]
    assert len(recovery) == 10 and len(set(recovery)) == 10
    return state, pyotp.parse_uri(uri), recovery


def challenge(sidecar):
    answer = sidecar.call("login", account="alice", password=PASSWORD)
    assert kind(answer) == "verification_required", answer
    data = answer["error"]["data"]
    assert data["methods"] == ["totp", "recovery"]
    assert "sentTo" not in data
    return data["challenge"]


def test_a_pyotp_code_is_accepted_once(workdir):
    state, totp, _ = enroll(workdir)
    sidecar = Lockstep(state)
    code = totp.at(START)
    assert "session" in sidecar.call("login", challenge=challenge(sidecar), code=code)["result"]
    reused = sidecar.call("login", challenge=challenge(sidecar), code=code)
    assert reused["error"]["data"]["reason"] == "invalid_code"
    assert sidecar.call("test.advanceClock", seconds=30)["result"]
    assert "session" in sidecar.call("login", challenge=challenge(sidecar), code=totp.at(START + 30))["result"]
    stderr = sidecar.close()
    assert code not in stderr


def test_a_recovery_code_works_once_and_disable_ends_the_second_step(workdir):
    state, _, recovery = enroll(workdir)
    sidecar = Lockstep(state)
    assert "session" in sidecar.call("login", challenge=challenge(sidecar), code=recovery[0].upper())["result"]
    again = sidecar.call("login", challenge=challenge(sidecar), code=recovery[0])
    assert again["error"]["data"]["reason"] == "invalid_code"
    sidecar.close()
    users(state, "totp", "disable", "alice")
    sidecar = Lockstep(state)
    assert "session" in sidecar.call("login", account="alice", password=PASSWORD)["result"]
    sidecar.close()
