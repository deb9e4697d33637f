"""The code flows through the blocking client and the real binary: send_code, login with a code, a step-up
raising VerificationRequired, reset_password. Codes reach Tests/Delivery/record_delivery.py, which the tests
read them back from, as a user reads an SMS."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable, List

import pytest

from _support import PASSWORD, REPO_ROOT
from auth_sidecar import AuthSidecar, InvalidCredentials, RateLimited, ValidationFailed, VerificationRequired

DELIVERY = REPO_ROOT / "Tests" / "Delivery" / "record_delivery.py"


@pytest.fixture
def codes(make_sync: Callable[..., AuthSidecar], tmp_path: Path) -> Any:
    sent = tmp_path / "sent.jsonl"
    config = tmp_path / "config.json"
    command = [sys.executable, str(DELIVERY), str(sent)]
    config.write_text(json.dumps({"profiles": {"default": {
        "provider": "local", "codes": {"requireAfterFailures": 3},
        "local": {"codeDelivery": {"command": command}}}}}))
    sidecar = make_sync(clock=True, args=["--config", str(config)])

    def last_code() -> str:
        lines: List[str] = sent.read_text().splitlines()
        return str(json.loads(lines[-1])["message"]["code"])

    return sidecar, last_code


def test_send_code_then_log_in_with_it(codes: Any) -> None:
    sidecar, last_code = codes
    sidecar.register(username="alice", password=PASSWORD, phone="13812345678")
    sent = sidecar.send_code(account="13812345678", purpose="login")
    assert sent["sentTo"] == "+86 138****5678" and sent["channel"] == "sms"
    with pytest.raises(RateLimited) as limited:
        sidecar.send_code(phone="13812345678", purpose="login")
    assert limited.value.resend_at == sent["resendAt"] and limited.value.retry_after == 60
    with pytest.raises(InvalidCredentials) as wrong:
        sidecar.login(account="13812345678", code="000000" if last_code() != "000000" else "111111")
    assert wrong.value.reason == "invalid_code"
    assert sidecar.login(account="13812345678", code=last_code())["user"]["username"] == "alice"


def test_a_step_up_raises_verification_required_with_its_challenge(codes: Any) -> None:
    sidecar, last_code = codes
    sidecar.register(username="alice", password=PASSWORD, email="alice@example.com")
    for attempt in range(3):
        with pytest.raises(InvalidCredentials):
            sidecar.login(account="alice@example.com", password=f"wrong {attempt}")
    with pytest.raises(VerificationRequired) as required:
        sidecar.login(account="alice@example.com", password=PASSWORD)
    error = required.value
    assert error.methods == ["email"] and error.sent_to == "a***@example.com"
    assert error.expires_at == "2027-01-01T00:05:00Z" and error.resend_at == "2027-01-01T00:01:00Z"
    assert error.challenge and error.challenge not in repr(error.message)
    with pytest.raises(RateLimited):
        sidecar.send_code(challenge=error.challenge)
    assert sidecar.login(challenge=error.challenge, code=last_code())["session"]["tokenType"] == "Bearer"


def test_reset_password_checks_the_new_one_and_ends_the_session(codes: Any) -> None:
    sidecar, last_code = codes
    sidecar.register(username="alice", password=PASSWORD, email="alice@example.com")
    sidecar.login(username="alice", password=PASSWORD)
    sidecar.send_code(email="alice@example.com", purpose="resetPassword")
    with pytest.raises(ValidationFailed) as weak:
        sidecar.reset_password(email="alice@example.com", code=last_code(), new_password="short")
    assert "newPassword" in weak.value.fields
    assert sidecar.reset_password(email="alice@example.com", code=last_code(), new_password="a new horse staple") \
        == {"reset": True}
    with pytest.raises(InvalidCredentials):
        sidecar.login(username="alice", password=PASSWORD)
    sidecar.login(username="alice", password="a new horse staple")


def test_argument_mistakes_are_caught_before_sending(sidecar: AuthSidecar) -> None:
    with pytest.raises(TypeError):
        sidecar.send_code(account="a@b.co")  # no purpose
    with pytest.raises(TypeError):
        sidecar.send_code(challenge="c", account="a@b.co")
    with pytest.raises(TypeError):
        sidecar.login(account="a@b.co", password="x", code="123456")
    with pytest.raises(TypeError):
        sidecar.login(challenge="c", account="a@b.co", code="123456")
