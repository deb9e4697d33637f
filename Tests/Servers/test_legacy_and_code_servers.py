"""Proves the older-backend shapes (/php/, /simple/, /mail/) and the SMS-code API (/sms/) behave as
their docstrings (authservers/core/legacyapis.py, codeapi.py) say, so the sidecar's tests against
them test the sidecar.

Run from the repository root with the venv:  .venv/bin/python -m pytest -q Tests/Servers
"""
import base64
import os
import sys

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import start_server  # noqa: E402
from test_servers import Client  # noqa: E402

PASSWORD = "correct horse battery staple"
PHONE = "13800138000"


@pytest.fixture(scope="module")
def client():
    with start_server(access_token_seconds=300) as running:
        yield Client(running.url)


def flag_login(client, account, password, kind, path="/php/login.php", **extra):
    form = {"User_Account": account, "User_Password": password, "Account_Type": kind, **extra}
    return client.post(path, form=form)


# --- the PHP-style flag API ---------------------------------------------------------------------

def test_flag_api_answers_flags_as_text_html(client):
    ok = flag_login(client, "13542138562", PASSWORD, "Telephone", Device_Id="dev-1")
    assert ok.status == 200 and ok.header("Content-Type").startswith("text/html")
    assert ok.json() == {"accountBeingOrNotFlag": "1", "loginOKOrNotFlag": "1", "userId": "1001",
                         "nickName": "小明"}
    wrong = flag_login(client, "13542138562", "wrong password", "Telephone").json()
    assert wrong == {"accountBeingOrNotFlag": "1", "loginOKOrNotFlag": "0"}
    unknown = flag_login(client, "13999999999", PASSWORD, "Telephone").json()
    assert unknown == {"accountBeingOrNotFlag": "0", "loginOKOrNotFlag": "0"}


def test_flag_api_compares_identities_as_typed(client):
    assert flag_login(client, "+8613542138562", PASSWORD, "Telephone").json()["accountBeingOrNotFlag"] == "0"
    assert flag_login(client, "Li.Na@Example.COM", PASSWORD, "EmailAddress").json()["loginOKOrNotFlag"] == "1"
    assert flag_login(client, "li.na@example.com", PASSWORD, "EmailAddress").json()["accountBeingOrNotFlag"] == "0"
    # The account type picks the table: a phone number sent as a user name is unknown.
    assert flag_login(client, "13542138562", PASSWORD, "NormalName").json()["accountBeingOrNotFlag"] == "0"


def test_flag_api_records_fields_without_the_password(client):
    flag_login(client, "xiaoming", PASSWORD, "NormalName", Device_Id="dev-42", App_Version="3.1")
    last = client.get("/_test/legacy/received").json()["received"][-1]
    assert last == {"path": "/php/login.php", "fields": {"User_Account": "xiaoming", "Account_Type": "NormalName",
                                                         "Device_Id": "dev-42", "App_Version": "3.1"}}


@pytest.mark.parametrize("path,pad", [
    ("/php/login_rsa.php", padding.PKCS1v15()),
    ("/php/login_oaep.php", padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)),
])
def test_rsa_encrypted_password(client, path, pad):
    pem = client.get("/php/public_key.pem").body
    key = serialization.load_pem_public_key(pem)
    encrypted = base64.b64encode(key.encrypt(PASSWORD.encode(), pad)).decode()
    assert flag_login(client, "13542138562", encrypted, "Telephone", path=path).json()["loginOKOrNotFlag"] == "1"
    # The clear password, or one encrypted with the other padding, is refused.
    assert flag_login(client, "13542138562", PASSWORD, "Telephone", path=path).json()["loginOKOrNotFlag"] == "0"


# --- never-expiring database tokens -------------------------------------------------------------

def test_simple_api_tokens_live_until_logout_or_revocation(client):
    bad = client.post("/simple/login", json_body={"email": "alice@example.com", "password": "nope"})
    assert bad.status == 401 and bad.json() == {"success": False, "token": None, "user": None,
                                                 "message": "Invalid email or password"}
    answer = client.post("/simple/login", json_body={"email": "alice@example.com", "password": PASSWORD}).json()
    assert answer["success"] is True and answer["message"] == "Login successful"
    assert set(answer) == {"success", "token", "user", "message"}  # no expiry anywhere
    token = answer["token"]
    me = client.get("/simple/me", headers={"Authorization": f"Token {token}"})
    assert me.status == 200 and me.json()["user"]["email"] == "alice@example.com"
    assert client.post("/_test/legacy/revoke", json_body={"email": "alice@example.com"}).json() == {"revoked": 1}
    assert client.get("/simple/me", bearer=token).status == 401


def test_simple_api_logout_ends_the_token(client):
    token = client.post("/simple/login", json_body={"email": "张伟@example.com", "password": PASSWORD}).json()["token"]
    assert client.post("/simple/logout", bearer=token).json() == {"success": True}
    assert client.get("/simple/me", bearer=token).status == 401


# --- e-mail addresses in any script -------------------------------------------------------------

def test_mail_api_accepts_non_ascii_addresses_as_typed(client):
    answer = client.post("/mail/session", form={"email": "张伟@example.com", "password": PASSWORD})
    assert answer.status == 200
    body = answer.json()
    assert body["user"] == {"email": "张伟@example.com", "name": "张伟"} and body["expires_in"] == 300
    assert client.get("/mail/me", bearer=body["access_token"]).json()["email"] == "张伟@example.com"
    assert client.post("/mail/session", form={"email": "josé@exämple.org", "password": PASSWORD}).status == 200
    assert client.post("/mail/session", form={"email": "张伟@EXAMPLE.com", "password": PASSWORD}).status == 401


# --- SMS codes ----------------------------------------------------------------------------------

def sms_codes(client, phone=PHONE, purpose="login"):
    return [entry["code"] for entry in client.get("/_test/sms/outbox").json()["outbox"]
            if entry["phone"] == phone and entry["purpose"] == purpose]


def test_sms_flow_failures_code_cooldown_login_and_reset(client):
    phone = "13900139000"
    assert client.post("/_test/sms/users", json_body={"phone": phone, "password": PASSWORD, "name": "李雷"}).status == 201
    for _ in range(3):
        assert client.post("/sms/login", json_body={"phone": phone, "password": "wrong one"}).status == 401
    demanded = client.post("/sms/login", json_body={"phone": phone, "password": PASSWORD})
    assert demanded.status == 403 and demanded.json()["error"] == "SMS_REQUIRED"
    challenge = demanded.json()["challenge"]
    assert demanded.json()["methods"] == ["sms"]

    assert client.post("/sms/send", json_body={"challenge": challenge}).json()["cooldown"] == 120
    too_soon = client.post("/sms/send", json_body={"challenge": challenge})
    assert too_soon.status == 429 and 0 < int(too_soon.header("Retry-After")) <= 120
    code = sms_codes(client, phone)[-1]
    wrong = "000000" if code != "000000" else "111111"
    assert client.post("/sms/verify", json_body={"challenge": challenge, "code": wrong}).json()["error"] == "BAD_CODE"
    tokens = client.post("/sms/verify", json_body={"challenge": challenge, "code": code}).json()
    assert tokens["ok"] is True and tokens["user"]["phone"] == phone
    assert client.get("/sms/me", bearer=tokens["token"]).status == 200
    # Single use: the code and the challenge are spent.
    assert client.post("/sms/verify", json_body={"challenge": challenge, "code": code}).status == 400

    client.post("/_test/sms/clock", json_body={"advance": 121})
    assert client.post("/sms/send", json_body={"phone": phone, "purpose": "reset"}).status == 200
    reset_code = sms_codes(client, phone, "reset")[-1]
    assert client.post("/sms/reset", json_body={"phone": phone, "code": reset_code,
                                                 "newPassword": "a brand new passphrase"}).json() == {"ok": True}
    assert client.get("/sms/me", bearer=tokens["token"]).status == 401  # every token ended
    assert client.post("/sms/login", json_body={"phone": phone, "password": "a brand new passphrase"}).status == 200


def test_sms_code_login_attempts_and_unknown_phones(client):
    client.post("/_test/sms/clock", json_body={"advance": 121})
    assert client.post("/sms/send", json_body={"phone": PHONE, "purpose": "login"}).status == 200
    code = sms_codes(client)[-1]
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(5):
        assert client.post("/sms/login_code", json_body={"phone": PHONE, "code": wrong}).status == 400
    # Five wrong tries spend the code: the right one no longer works.
    assert client.post("/sms/login_code", json_body={"phone": PHONE, "code": code}).status == 400
    # An unknown phone gets the same answer as a known one, and nothing is sent.
    before = len(client.get("/_test/sms/outbox").json()["outbox"])
    unknown = client.post("/sms/send", json_body={"phone": "13700000000", "purpose": "login"})
    assert unknown.status == 200 and unknown.json() == {"ok": True, "cooldown": 120, "expiresIn": 300}
    assert len(client.get("/_test/sms/outbox").json()["outbox"]) == before


def test_sms_refresh_rotates(client):
    client.post("/_test/sms/clock", json_body={"advance": 121})
    client.post("/sms/send", json_body={"phone": PHONE, "purpose": "login"})
    tokens = client.post("/sms/login_code", json_body={"phone": PHONE, "code": sms_codes(client)[-1]}).json()
    rotated = client.post("/sms/refresh", json_body={"refreshToken": tokens["refreshToken"]})
    assert rotated.status == 200 and rotated.json()["refreshToken"] != tokens["refreshToken"]
    assert client.post("/sms/refresh", json_body={"refreshToken": tokens["refreshToken"]}).status == 401
