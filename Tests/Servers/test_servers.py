"""Proves the integration-test auth servers behave as the sidecar's providers expect.

Run from the repository root with the venv:  .venv/bin/python -m pytest -q Tests/Servers
Plain http.client only (plus `cryptography`, already pinned as a dependency, to verify RS256).
"""
import base64
import concurrent.futures
import hashlib
import html.parser
import http.client
import http.cookies
import json
import os
import re
import secrets
import socket
import sys
import time
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import start_server  # noqa: E402

ALICE = ("alice", "correct horse battery staple")
BOB = ("bob", "hunter2-but-longer")
NON_ASCII = ("名字用户", "correct horse battery staple")
MALLORY = ("mallory", "correct horse battery staple")  # inactive


# --- tiny HTTP client ---------------------------------------------------------------------------

class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers  # list of (name, value)
        self.body = body

    def header(self, name):
        values = self.header_all(name)
        return values[0] if values else None

    def header_all(self, name):
        return [value for key, value in self.headers if key.lower() == name.lower()]

    def json(self):
        return json.loads(self.body.decode("utf-8"))

    @property
    def text(self):
        return self.body.decode("utf-8")

    def cookies(self):
        jar = {}
        for line in self.header_all("Set-Cookie"):
            parsed = http.cookies.SimpleCookie()
            parsed.load(line)
            for name, morsel in parsed.items():
                jar[name] = morsel.value
        return jar

    def __repr__(self):
        return f"<Response {self.status} {self.body[:300]!r}>"


class Client:
    def __init__(self, url):
        parts = urlsplit(url)
        self.host, self.port = parts.hostname, parts.port
        self.cookies = {}

    def request(self, method, path, *, json_body=None, form=None, body=None, headers=None,
                bearer=None, use_cookies=False, timeout=10.0):
        headers = dict(headers or {})
        if json_body is not None:
            body = json.dumps(json_body).encode("utf-8")
            headers.setdefault("Content-Type", "application/json")
        elif form is not None:
            body = urlencode(form).encode("utf-8")
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        if bearer:
            headers["Authorization"] = f"Bearer {bearer}"
        if use_cookies and self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers)
            raw = connection.getresponse()
            response = Response(raw.status, raw.getheaders(), raw.read())
        finally:
            connection.close()
        if use_cookies:
            for name, value in response.cookies().items():
                if value:
                    self.cookies[name] = value
                else:
                    self.cookies.pop(name, None)
        return response

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, **kwargs):
        return self.request("POST", path, **kwargs)


class FormsParser(html.parser.HTMLParser):
    """Forms with their inputs, and the text of <dd class=…> inside <dl id="profile">."""

    def __init__(self):
        super().__init__()
        self.forms = []
        self.profile = {}
        self._in_profile = False
        self._dd = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"id": attrs.get("id"), "action": attrs.get("action"),
                               "method": (attrs.get("method") or "get").lower(), "inputs": []})
        elif tag == "input" and self.forms:
            self.forms[-1]["inputs"].append(
                {"name": attrs.get("name"), "type": attrs.get("type", "text"),
                 "value": attrs.get("value", "")})
        elif tag == "dl" and attrs.get("id") == "profile":
            self._in_profile = True
        elif tag == "dd" and self._in_profile:
            self._dd = attrs.get("class")
            self.profile[self._dd] = ""

    def handle_endtag(self, tag):
        if tag == "dl":
            self._in_profile = False
        elif tag == "dd":
            self._dd = None

    def handle_data(self, data):
        if self._dd is not None:
            self.profile[self._dd] += data


def parse_html(text):
    parser = FormsParser()
    parser.feed(text)
    parser.close()
    return parser


def hidden_fields(form):
    return {i["name"]: i["value"] for i in form["inputs"] if i["type"] == "hidden"}


# --- JWT helpers --------------------------------------------------------------------------------

def b64url(data):
    return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))


def jwt_parts(token):
    header, payload, signature = token.split(".")
    return json.loads(b64url(header)), json.loads(b64url(payload)), signature


def verify_rs256(token, jwks):
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    header_b64, payload_b64, signature_b64 = token.split(".")
    header = json.loads(b64url(header_b64))
    assert header["alg"] == "RS256"
    (key,) = [k for k in jwks["keys"] if k["kid"] == header["kid"]]
    public = rsa.RSAPublicNumbers(int.from_bytes(b64url(key["e"]), "big"),
                                  int.from_bytes(b64url(key["n"]), "big")).public_key()
    public.verify(b64url(signature_b64), f"{header_b64}.{payload_b64}".encode("ascii"),
                  padding.PKCS1v15(), hashes.SHA256())  # raises InvalidSignature
    return json.loads(b64url(payload_b64))


# --- fixtures -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def server():
    with start_server(access_token_seconds=300) as running:
        yield running


@pytest.fixture(scope="module")
def short_server():
    with start_server(access_token_seconds=2) as running:
        yield running


@pytest.fixture()
def client(server):
    return Client(server.url)


def counters(client):
    return client.get("/_test/counters").json()


def oauth_password(client, user=ALICE, scope="openid profile email", client_id="sidecar-public",
                   **extra):
    form = {"grant_type": "password", "client_id": client_id, "username": user[0],
            "password": user[1], "scope": scope}
    form.update(extra)
    return client.post("/o/token/", form={k: v for k, v in form.items() if v is not None})


def oauth_refresh(client, refresh_token, client_id="sidecar-public"):
    return client.post("/o/token/", form={"grant_type": "refresh_token", "client_id": client_id,
                                          "refresh_token": refresh_token})


# --- start / stop -------------------------------------------------------------------------------

def test_startup_stop_sigterm_during_stall_and_server_down():
    running = start_server(access_token_seconds=60)
    try:
        assert running.startup_seconds < 5, running.log()
        log = running.log()
        workdir = re.search(r"workdir (\S+)\)", log).group(1)
        assert os.path.isdir(workdir)
        client = Client(running.url)
        assert client.get("/_test/info").json()["access_token_seconds"] == 60
        # A request stalled for a minute must not hold up the shutdown.
        client.post("/_test/faults", json_body={"path": "/auth/me", "mode": "stall", "stall_seconds": 60})
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            stalled = pool.submit(client.get, "/auth/me", timeout=30)
            time.sleep(0.3)
            assert running.stop() == 0
            assert stalled.result(timeout=10).status == 401  # it resumed and was answered
    finally:
        running.stop()
        log = running.log()
        running.remove_log()
    assert running.stop_seconds < 5, log
    assert not os.path.exists(workdir)
    assert "authservers: stopped" in log
    # Server down: nothing listens on that port any more.
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((running.host, running.port), timeout=2).close()


# --- rest: SimpleJWT ----------------------------------------------------------------------------

def test_simplejwt_login_me_and_failures(client):
    response = client.post("/api/token/", json_body={"username": ALICE[0], "password": ALICE[1]})
    assert response.status == 200, response
    tokens = response.json()
    assert set(tokens) == {"access", "refresh"}
    _, claims, _ = jwt_parts(tokens["access"])
    # SimpleJWT reads the clock once for exp and once for iat, so a second boundary between them gives 299.
    assert claims["token_type"] == "access" and claims["exp"] - claims["iat"] in (299, 300)
    me = client.get("/api/me/", bearer=tokens["access"])
    assert me.status == 200
    assert me.json() == {"id": 1, "username": "alice", "email": "alice@example.com",
                         "first_name": "Alice", "last_name": "Liddell"}
    # form encoding is accepted too
    assert client.post("/api/token/", form={"username": BOB[0], "password": BOB[1]}).status == 200

    wrong = client.post("/api/token/", json_body={"username": ALICE[0], "password": "nope"})
    assert wrong.status == 401
    assert wrong.json() == {"detail": "No active account found with the given credentials"}
    inactive = client.post("/api/token/", json_body={"username": MALLORY[0], "password": MALLORY[1]})
    assert inactive.status == 401
    missing = client.post("/api/token/", json_body={"username": ALICE[0]})
    assert missing.status == 400 and missing.json() == {"password": ["This field is required."]}
    unauthenticated = client.get("/api/me/")
    assert unauthenticated.status == 401
    assert unauthenticated.header("WWW-Authenticate") == 'Bearer realm="api"'
    garbage = client.get("/api/me/", bearer="not-a-jwt")
    assert garbage.status == 401 and garbage.json()["code"] == "token_not_valid"


def test_simplejwt_non_ascii_user(client):
    response = client.post("/api/token/", json_body={"username": NON_ASCII[0], "password": NON_ASCII[1]})
    assert response.status == 200, response
    me = client.get("/api/me/", bearer=response.json()["access"]).json()
    assert me["username"] == "名字用户" and me["first_name"] == "名字"


def test_simplejwt_refresh_rotates_and_old_refresh_is_rejected(client):
    before = counters(client)
    tokens = client.post("/api/token/", json_body={"username": ALICE[0], "password": ALICE[1]}).json()
    refreshed = client.post("/api/token/refresh/", json_body={"refresh": tokens["refresh"]})
    assert refreshed.status == 200
    new = refreshed.json()
    assert set(new) == {"access", "refresh"} and new["refresh"] != tokens["refresh"]
    assert client.get("/api/me/", bearer=new["access"]).status == 200
    reused = client.post("/api/token/refresh/", json_body={"refresh": tokens["refresh"]})
    assert reused.status == 401
    assert reused.json() == {"detail": "Token is blacklisted", "code": "token_not_valid"}
    # the rotated one still works
    assert client.post("/api/token/refresh/", json_body={"refresh": new["refresh"]}).status == 200
    after = counters(client)
    assert after["refresh"]["simplejwt"] - before["refresh"]["simplejwt"] == 2
    assert after["refresh_rejected"]["simplejwt"] - before["refresh_rejected"]["simplejwt"] == 1


def test_simplejwt_blacklist_is_logout(client):
    tokens = client.post("/api/token/", json_body={"username": BOB[0], "password": BOB[1]}).json()
    out = client.post("/api/token/blacklist/", json_body={"refresh": tokens["refresh"]})
    assert out.status == 200 and out.json() == {}
    after = client.post("/api/token/refresh/", json_body={"refresh": tokens["refresh"]})
    assert after.status == 401 and after.json()["code"] == "token_not_valid"
    again = client.post("/api/token/blacklist/", json_body={"refresh": tokens["refresh"]})
    assert again.status == 401


# --- rest: "any API" shape ----------------------------------------------------------------------

def test_anyapi_login_shapes_and_failures(client):
    response = client.post("/auth/login", json_body={"username": ALICE[0], "password": ALICE[1]})
    assert response.status == 200
    body = response.json()
    assert body["success"] is True
    data = body["data"]
    assert data["token"].startswith("at_") and data["refreshToken"].startswith("rt_")
    assert data["expiresIn"] == 300 and data["tokenType"] == "Bearer"
    assert data["user"] == {"id": 1, "username": "alice", "email": "alice@example.com",
                            "firstName": "Alice", "lastName": "Liddell", "displayName": "Alice Liddell"}
    me = client.get("/auth/me", bearer=data["token"])
    assert me.status == 200 and me.json() == {"success": True, "data": {"user": data["user"]}}

    by_form = client.post("/auth/login", form={"username": NON_ASCII[0], "password": NON_ASCII[1]})
    assert by_form.status == 200 and by_form.json()["data"]["user"]["username"] == "名字用户"
    by_email = client.post("/auth/login", json_body={"email": "bob@example.com", "password": BOB[1]})
    assert by_email.json()["data"]["user"]["username"] == "bob"

    wrong = client.post("/auth/login", json_body={"username": ALICE[0], "password": "nope"})
    assert wrong.status == 200  # failure reported in the body only
    assert wrong.json() == {"success": False, "error": {"code": "BAD_LOGIN",
                                                        "message": "Invalid username or password."}}
    inactive = client.post("/auth/login", json_body={"username": MALLORY[0], "password": MALLORY[1]})
    assert inactive.status == 200 and inactive.json()["error"]["code"] == "BAD_LOGIN"
    missing = client.post("/auth/login", json_body={"username": ALICE[0]})
    assert missing.status == 400
    assert missing.json()["error"] == {"code": "VALIDATION_ERROR", "message": "Missing fields.",
                                       "fields": ["password"]}
    assert client.post("/auth/login", body=b"{not json", headers={"Content-Type": "application/json"}).status == 400
    assert client.get("/auth/me").json()["error"]["code"] == "UNAUTHORIZED"
    assert client.get("/auth/login").status == 405


def test_anyapi_refresh_rotation_reuse_and_logout(client):
    before = counters(client)
    data = client.post("/auth/login", json_body={"username": BOB[0], "password": BOB[1]}).json()["data"]
    refreshed = client.post("/auth/refresh", json_body={"refreshToken": data["refreshToken"]})
    assert refreshed.status == 200
    new = refreshed.json()["data"]
    assert new["refreshToken"] != data["refreshToken"] and new["token"] != data["token"]
    assert client.get("/auth/me", bearer=new["token"]).status == 200
    # replaying the rotated token is rejected and kills the whole family
    reused = client.post("/auth/refresh", form={"refreshToken": data["refreshToken"]})
    assert reused.status == 401
    assert reused.json()["error"]["code"] == "INVALID_REFRESH_TOKEN"
    assert client.post("/auth/refresh", json_body={"refreshToken": new["refreshToken"]}).status == 401
    assert client.get("/auth/me", bearer=new["token"]).status == 401

    # logout: the refresh token stops working, so does the access token
    data = client.post("/auth/login", json_body={"username": BOB[0], "password": BOB[1]}).json()["data"]
    out = client.post("/auth/logout", bearer=data["token"], json_body={"refreshToken": data["refreshToken"]})
    assert out.status == 200 and out.json() == {"success": True}
    assert client.post("/auth/refresh", json_body={"refreshToken": data["refreshToken"]}).status == 401
    assert client.get("/auth/me", bearer=data["token"]).json()["error"]["code"] == "UNAUTHORIZED"
    after = counters(client)
    assert after["refresh"]["anyapi"] - before["refresh"]["anyapi"] == 1
    assert after["refresh_rejected"]["anyapi"] - before["refresh_rejected"]["anyapi"] == 3
    assert after["logout"]["anyapi"] - before["logout"]["anyapi"] == 1


# --- oauth2: django-oauth-toolkit ---------------------------------------------------------------

def test_oauth2_discovery_and_jwks(client, server):
    discovery = client.get("/o/.well-known/openid-configuration")
    assert discovery.status == 200
    doc = discovery.json()
    base = server.url
    assert doc["issuer"] == base + "/o"
    assert doc["token_endpoint"] == base + "/o/token/"
    assert doc["userinfo_endpoint"] == base + "/o/userinfo/"
    assert doc["jwks_uri"] == base + "/o/.well-known/jwks.json"
    assert doc["revocation_endpoint"] == base + "/o/revoke_token/"
    assert doc["device_authorization_endpoint"] == base + "/o/device-authorization/"
    assert doc["authorization_endpoint"] == base + "/o/authorize/"
    assert "RS256" in doc["id_token_signing_alg_values_supported"]
    assert "S256" in doc["code_challenge_methods_supported"]
    assert {"password", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"} <= set(doc["grant_types_supported"])
    assert client.get("/o/.well-known/openid-configuration/").status == 200
    jwks = client.get("/o/.well-known/jwks.json").json()
    (key,) = jwks["keys"]
    assert key["kty"] == "RSA" and key["alg"] == "RS256" and key["use"] == "sig" and key["kid"]
    assert len(b64url(key["n"])) == 256  # 2048-bit


def test_oauth2_password_grant_id_token_and_userinfo(client, server):
    response = oauth_password(client)
    assert response.status == 200, response
    token = response.json()
    assert token["token_type"] == "Bearer" and token["expires_in"] == 300
    assert token["scope"] == "openid profile email"
    assert token["refresh_token"] and token["access_token"]
    jwks = client.get("/o/.well-known/jwks.json").json()
    claims = verify_rs256(token["id_token"], jwks)
    assert claims["iss"] == server.url + "/o" and claims["aud"] == "sidecar-public"
    assert claims["sub"] == "1" and claims["preferred_username"] == "alice"
    assert claims["email"] == "alice@example.com" and claims["given_name"] == "Alice"
    assert claims["exp"] > time.time()
    digest = hashlib.sha256(token["access_token"].encode("ascii")).digest()
    assert claims["at_hash"] == base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")

    userinfo = client.get("/o/userinfo/", bearer=token["access_token"])
    assert userinfo.status == 200
    assert userinfo.json() == {"sub": "1", "preferred_username": "alice", "name": "Alice Liddell",
                               "given_name": "Alice", "family_name": "Liddell",
                               "email": "alice@example.com", "email_verified": True}
    # no openid scope: no id_token, and userinfo refuses the token
    plain = oauth_password(client, scope="read").json()
    assert "id_token" not in plain and plain["scope"] == "read"
    refused = client.get("/o/userinfo/", bearer=plain["access_token"])
    assert refused.status == 401 and refused.json()["error"] == "invalid_token"
    default = oauth_password(client, scope=None)  # no scope parameter → the default scope, "read"
    assert default.json()["scope"] == "read" and "id_token" not in default.json()
    unicode_user = verify_rs256(oauth_password(client, user=NON_ASCII).json()["id_token"], jwks)
    assert unicode_user["preferred_username"] == "名字用户"
    assert client.get("/o/userinfo/").status == 401


def test_oauth2_wrong_password_and_client_errors(client):
    wrong = oauth_password(client, user=(ALICE[0], "nope"))
    assert wrong.status == 400
    assert wrong.json() == {"error": "invalid_grant", "error_description": "Invalid credentials given."}
    assert oauth_password(client, user=MALLORY).json()["error"] == "invalid_grant"
    unknown = oauth_password(client, client_id="no-such-client")
    assert unknown.status == 401 and unknown.json() == {"error": "invalid_client"}
    # the device-only client may not use the password grant
    device_client = oauth_password(client, client_id="sidecar-device")
    assert device_client.status == 400 and device_client.json()["error"] == "unauthorized_client"
    bad_grant = client.post("/o/token/", form={"grant_type": "nope", "client_id": "sidecar-public"})
    assert bad_grant.status == 400 and bad_grant.json()["error"] == "unsupported_grant_type"


def test_oauth2_confidential_client(client):
    basic = base64.b64encode(b"sidecar-confidential:sidecar-confidential-secret").decode()
    form = {"grant_type": "password", "username": ALICE[0], "password": ALICE[1], "scope": "openid"}
    ok = client.post("/o/token/", form=form, headers={"Authorization": f"Basic {basic}"})
    assert ok.status == 200 and "id_token" in ok.json()
    post_secret = client.post("/o/token/", form=dict(form, client_id="sidecar-confidential",
                                                     client_secret="sidecar-confidential-secret"))
    assert post_secret.status == 200
    no_secret = client.post("/o/token/", form=dict(form, client_id="sidecar-confidential"))
    assert no_secret.status == 401 and no_secret.json()["error"] == "invalid_client"
    wrong = base64.b64encode(b"sidecar-confidential:wrong").decode()
    assert client.post("/o/token/", form=form, headers={"Authorization": f"Basic {wrong}"}).status == 401


def test_oauth2_refresh_rotation_and_reuse_detection(client, server):
    before = counters(client)
    first = oauth_password(client, user=BOB).json()
    second = oauth_refresh(client, first["refresh_token"])
    assert second.status == 200, second
    rotated = second.json()
    assert rotated["refresh_token"] != first["refresh_token"]
    assert rotated["access_token"] != first["access_token"]
    assert rotated["scope"] == "openid profile email" and "id_token" in rotated
    # the old access token died with its refresh token
    assert client.get("/o/userinfo/", bearer=first["access_token"]).status == 401
    assert client.get("/o/userinfo/", bearer=rotated["access_token"]).status == 200
    # replaying the rotated refresh token: invalid_grant (grace period 0) ...
    reused = oauth_refresh(client, first["refresh_token"])
    assert reused.status == 400 and reused.json() == {"error": "invalid_grant"}
    # ... and reuse protection revoked the whole family, so the newest one is dead too
    assert oauth_refresh(client, rotated["refresh_token"]).json() == {"error": "invalid_grant"}
    assert client.get("/o/userinfo/", bearer=rotated["access_token"]).status == 401
    after = counters(client)
    assert after["refresh"]["oauth2"] - before["refresh"]["oauth2"] == 1
    assert after["invalid_grant"] - before["invalid_grant"] == 2
    assert after["refresh_rejected"]["oauth2"] - before["refresh_rejected"]["oauth2"] == 2
    refresh_events = [e for e in after["events"] if e["server"] == "oauth2" and e["action"] == "refresh"]
    assert refresh_events[-1]["outcome"] == "refresh_rejected"
    assert refresh_events[-1]["grant_type"] == "refresh_token"
    assert refresh_events[-1]["client_id"] == "sidecar-public"


def test_oauth2_concurrent_refreshes_only_one_wins(client):
    token = oauth_password(client, user=BOB).json()
    before = counters(client)
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: oauth_refresh(client, token["refresh_token"]), range(8)))
    statuses = sorted(r.status for r in results)
    assert statuses == [200] + [400] * 7, results
    assert all(r.json()["error"] == "invalid_grant" for r in results if r.status == 400)
    after = counters(client)
    assert after["refresh"]["oauth2"] - before["refresh"]["oauth2"] == 1
    assert after["invalid_grant"] - before["invalid_grant"] == 7


def test_oauth2_revocation_kills_refresh_token(client):
    token = oauth_password(client).json()
    revoked = client.post("/o/revoke_token/", form={"token": token["refresh_token"],
                                                    "token_type_hint": "refresh_token",
                                                    "client_id": "sidecar-public"})
    assert revoked.status == 200 and revoked.body == b""
    assert oauth_refresh(client, token["refresh_token"]).json() == {"error": "invalid_grant"}
    assert client.get("/o/userinfo/", bearer=token["access_token"]).status == 401
    # revoking an access token also revokes its refresh token (RFC 7009 §2.1 "MAY")
    token = oauth_password(client).json()
    assert client.post("/o/revoke_token/", form={"token": token["access_token"],
                                                 "client_id": "sidecar-public"}).status == 200
    assert oauth_refresh(client, token["refresh_token"]).json() == {"error": "invalid_grant"}
    # unknown tokens: still 200 (RFC 7009 §2.2); unknown client: 401
    assert client.post("/o/revoke_token/", form={"token": "nope", "client_id": "sidecar-public"}).status == 200
    assert client.post("/o/revoke_token/", form={"token": "nope", "client_id": "nobody"}).status == 401


def _device_start(client, scope="openid profile"):
    response = client.post("/o/device-authorization/", form={"client_id": "sidecar-device", "scope": scope})
    assert response.status == 200, response
    return response.json()


def _device_poll(client, device_code):
    return client.post("/o/token/", form={"grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                                          "client_id": "sidecar-device", "device_code": device_code})


def test_oauth2_device_flow_through_the_html_pages(server):
    client = Client(server.url)
    start = _device_start(client)
    assert set(start) >= {"device_code", "user_code", "verification_uri", "expires_in", "interval"}
    assert start["verification_uri"] == server.url + "/o/device/"
    pending = _device_poll(client, start["device_code"])
    assert pending.status == 400 and pending.json()["error"] == "authorization_pending"

    # the user logs in with the form and approves the code on the server's own pages
    browser = Client(server.url)
    page = browser.get("/accounts/login/", use_cookies=True)
    form = parse_html(page.text).forms[0]
    browser.post("/accounts/login/", use_cookies=True,
                 form=dict(hidden_fields(form), username=ALICE[0], password=ALICE[1]))
    assert "sessionid" in browser.cookies
    code_page = browser.get("/o/device/", use_cookies=True)
    assert code_page.status == 200
    csrf = hidden_fields(parse_html(code_page.text).forms[0])
    entered = browser.post("/o/device/", use_cookies=True, form=dict(csrf, user_code=start["user_code"]))
    assert entered.status == 302, entered
    confirm_path = entered.header("Location")
    confirm = browser.get(confirm_path, use_cookies=True)
    csrf = hidden_fields(parse_html(confirm.text).forms[0])
    approved = browser.post(confirm_path, use_cookies=True, form=dict(csrf, action="accept"))
    assert approved.status == 302

    token = _device_poll(client, start["device_code"])
    assert token.status == 200, token
    body = token.json()
    assert body["refresh_token"] and body["access_token"]
    assert jwt_parts(body["id_token"])[1]["preferred_username"] == "alice"
    userinfo = client.get("/o/userinfo/", bearer=body["access_token"]).json()
    assert userinfo["preferred_username"] == "alice"
    assert oauth_refresh(client, body["refresh_token"], client_id="sidecar-device").status == 200


def test_oauth2_device_flow_with_the_test_control(client):
    start = _device_start(client)
    approved = client.post("/_test/device/approve", json_body={"user_code": start["user_code"],
                                                               "username": NON_ASCII[0]})
    assert approved.status == 200 and approved.json()["status"] == "authorized"
    body = _device_poll(client, start["device_code"]).json()
    assert client.get("/o/userinfo/", bearer=body["access_token"]).json()["preferred_username"] == "名字用户"
    denied = _device_start(client)
    client.post("/_test/device/approve", json_body={"user_code": denied["user_code"],
                                                    "username": ALICE[0], "action": "deny"})
    refused = _device_poll(client, denied["device_code"])
    assert refused.status == 400 and refused.json()["error"] == "access_denied"


def test_oauth2_authorization_code_with_pkce_and_loopback_redirect(client, server):
    session = client.post("/_test/session", json_body={"username": ALICE[0]}).json()
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    redirect_uri = "http://127.0.0.1:49152/callback"  # any loopback port (RFC 8252 §7.3)
    query = urlencode({"response_type": "code", "client_id": "sidecar-native", "redirect_uri": redirect_uri,
                       "scope": "openid email", "state": "st-1", "nonce": "n-1",
                       "code_challenge": challenge, "code_challenge_method": "S256"})
    authorize = client.get(f"/o/authorize/?{query}", headers={"Cookie": session["cookie"]})
    assert authorize.status == 302, authorize
    location = urlsplit(authorize.header("Location"))
    assert f"{location.scheme}://{location.netloc}{location.path}" == redirect_uri
    params = parse_qs(location.query)
    assert params["state"] == ["st-1"]
    exchange = {"grant_type": "authorization_code", "client_id": "sidecar-native", "code": params["code"][0],
                "redirect_uri": redirect_uri}
    assert client.post("/o/token/", form=dict(exchange, code_verifier="wrong" * 10)).json()["error"] == "invalid_grant"
    # a failed exchange burns nothing; the right verifier still works ... once
    params_again = parse_qs(urlsplit(client.get(f"/o/authorize/?{query}",
                                                headers={"Cookie": session["cookie"]}).header("Location")).query)
    exchange["code"] = params_again["code"][0]
    token = client.post("/o/token/", form=dict(exchange, code_verifier=verifier))
    assert token.status == 200, token
    claims = verify_rs256(token.json()["id_token"], client.get("/o/.well-known/jwks.json").json())
    assert claims["nonce"] == "n-1" and claims["email"] == "alice@example.com"
    assert "preferred_username" not in claims  # profile scope not granted
    assert client.post("/o/token/", form=dict(exchange, code_verifier=verifier)).status == 400
    not_logged_in = client.get(f"/o/authorize/?{query}")
    assert not_logged_in.status == 302 and not_logged_in.header("Location").startswith("/accounts/login/?next=")


# --- form ---------------------------------------------------------------------------------------

def _login_page(browser, path="/accounts/login/"):
    page = browser.get(path, use_cookies=True)
    assert page.status == 200
    return page, parse_html(page.text).forms[0]


def test_form_login_page_structure(server):
    browser = Client(server.url)
    page, form = _login_page(browser)
    assert page.header("Content-Type") == "text/html; charset=utf-8"
    assert form["id"] == "login-form" and form["method"] == "post" and form["action"] == "/accounts/login/"
    hidden = hidden_fields(form)
    assert set(hidden) == {"csrfmiddlewaretoken", "next"}
    assert hidden["next"] == "/accounts/profile/" and hidden["csrfmiddlewaretoken"]
    types = {i["name"]: i["type"] for i in form["inputs"]}
    assert types["username"] == "text" and types["password"] == "password"
    assert "csrftoken" in browser.cookies and "sessionid" not in browser.cookies


def test_form_login_profile_and_logout(server):
    before = counters(Client(server.url))
    browser = Client(server.url)
    _, form = _login_page(browser)
    response = browser.post("/accounts/login/", use_cookies=True,
                            form=dict(hidden_fields(form), username=NON_ASCII[0], password=NON_ASCII[1]))
    assert response.status == 302 and response.header("Location") == "/accounts/profile/"
    assert "sessionid" in response.cookies()
    profile = browser.get("/accounts/profile/", use_cookies=True)
    assert profile.status == 200
    parsed = parse_html(profile.text)
    assert parsed.profile == {"id": "3", "username": "名字用户", "email": "mingzi@example.com",
                              "first_name": "名字", "last_name": "用户"}
    as_json = browser.get("/accounts/profile.json", use_cookies=True)
    assert as_json.status == 200 and as_json.json()["username"] == "名字用户"
    logout_form = [f for f in parsed.forms if f["id"] == "logout-form"][0]
    assert logout_form["action"] == "/accounts/logout/"
    out = browser.post("/accounts/logout/", use_cookies=True, form=hidden_fields(logout_form))
    assert out.status == 302 and out.header("Location") == "/accounts/login/"
    assert "sessionid" not in browser.cookies
    gone = browser.get("/accounts/profile/", use_cookies=True)
    assert gone.status == 302 and gone.header("Location") == "/accounts/login/?next=/accounts/profile/"
    assert browser.get("/accounts/profile.json", use_cookies=True).status == 401
    after = counters(Client(server.url))
    assert after["login"]["form"] - before["login"]["form"] == 1
    assert after["logout"]["form"] - before["logout"]["form"] == 1


def test_form_logout_with_the_csrf_cookie_as_header(server):
    """Logging out needs no page fetch: the csrftoken cookie's value works as X-CSRFToken."""
    browser = Client(server.url)
    _, form = _login_page(browser)
    browser.post("/accounts/login/", use_cookies=True,
                 form=dict(hidden_fields(form), username=BOB[0], password=BOB[1]))
    assert "sessionid" in browser.cookies
    out = browser.post("/accounts/logout/", use_cookies=True, body=b"",
                       headers={"X-CSRFToken": browser.cookies["csrftoken"]})
    assert out.status == 302 and "sessionid" not in browser.cookies


def test_form_wrong_password_and_missing_csrf(server):
    browser = Client(server.url)
    _, form = _login_page(browser)
    wrong = browser.post("/accounts/login/", use_cookies=True,
                         form=dict(hidden_fields(form), username=ALICE[0], password="nope"))
    assert wrong.status == 200  # the form again, with an error list; no session
    again = parse_html(wrong.text)
    assert again.forms[0]["id"] == "login-form" and 'class="errorlist nonfield"' in wrong.text
    assert "sessionid" not in browser.cookies
    inactive = browser.post("/accounts/login/", use_cookies=True,
                            form=dict(hidden_fields(form), username=MALLORY[0], password=MALLORY[1]))
    assert inactive.status == 200 and "sessionid" not in browser.cookies
    # no csrfmiddlewaretoken field (cookie present) → 403
    no_field = browser.post("/accounts/login/", use_cookies=True,
                            form={"username": ALICE[0], "password": ALICE[1], "next": "/accounts/profile/"})
    assert no_field.status == 403 and no_field.header("Content-Type").startswith("text/html")
    # token field but no cookie → 403
    no_cookie = Client(server.url).post("/accounts/login/", form=dict(hidden_fields(form),
                                                                      username=ALICE[0], password=ALICE[1]))
    assert no_cookie.status == 403
    # logout without the token → 403
    assert browser.post("/accounts/logout/", use_cookies=True, form={}).status == 403


def test_form_redirects_to_another_origin(server):
    browser = Client(server.url)
    _, form = _login_page(browser, "/accounts/login-elsewhere/")
    assert form["action"] == "/accounts/login-elsewhere/"
    response = browser.post("/accounts/login-elsewhere/", use_cookies=True,
                            form=dict(hidden_fields(form), username=ALICE[0], password=ALICE[1]))
    assert response.status == 302
    assert response.header("Location") == "http://127.0.0.2:1/accounts/profile/"
    _, offsite = _login_page(Client(server.url), "/accounts/login-offsite/")
    assert offsite["action"] == "http://127.0.0.2:1/accounts/login/"
    # a same-origin `next` is honoured, another origin's is not
    _, form = _login_page(browser)
    elsewhere = browser.post("/accounts/login/", use_cookies=True,
                             form=dict(hidden_fields(form), username=ALICE[0], password=ALICE[1],
                                       next="http://127.0.0.2:1/steal"))
    assert elsewhere.header("Location") == "/accounts/profile/"


# --- expiry -------------------------------------------------------------------------------------

def test_expired_access_tokens_then_refresh(short_server):
    client = Client(short_server.url)
    jwt = client.post("/api/token/", json_body={"username": ALICE[0], "password": ALICE[1]}).json()
    anyapi = client.post("/auth/login", json_body={"username": ALICE[0], "password": ALICE[1]}).json()["data"]
    oauth = oauth_password(client).json()
    assert anyapi["expiresIn"] == 2 and oauth["expires_in"] == 2
    assert client.get("/api/me/", bearer=jwt["access"]).status == 200
    time.sleep(2.6)
    expired = client.get("/api/me/", bearer=jwt["access"])
    assert expired.status == 401 and expired.json()["code"] == "token_not_valid"
    expired = client.get("/auth/me", bearer=anyapi["token"])
    assert expired.status == 401 and expired.json()["error"]["code"] == "TOKEN_EXPIRED"
    assert expired.header("WWW-Authenticate") == 'Bearer error="invalid_token"'
    expired = client.get("/o/userinfo/", bearer=oauth["access_token"])
    assert expired.status == 401 and 'error="invalid_token"' in expired.header("WWW-Authenticate")

    fresh = client.post("/api/token/refresh/", json_body={"refresh": jwt["refresh"]}).json()
    assert client.get("/api/me/", bearer=fresh["access"]).status == 200
    fresh = client.post("/auth/refresh", json_body={"refreshToken": anyapi["refreshToken"]}).json()["data"]
    assert client.get("/auth/me", bearer=fresh["token"]).status == 200
    fresh = oauth_refresh(client, oauth["refresh_token"]).json()
    assert client.get("/o/userinfo/", bearer=fresh["access_token"]).status == 200


def test_expire_control(client):
    oauth = oauth_password(client, user=BOB).json()
    anyapi = client.post("/auth/login", json_body={"username": BOB[0], "password": BOB[1]}).json()["data"]
    result = client.post("/_test/expire", json_body={"username": "bob"}).json()["expired"]
    assert result["oauth2"] >= 1 and result["anyapi"] >= 1
    assert client.get("/o/userinfo/", bearer=oauth["access_token"]).status == 401
    assert client.get("/auth/me", bearer=anyapi["token"]).json()["error"]["code"] == "TOKEN_EXPIRED"
    assert oauth_refresh(client, oauth["refresh_token"]).status == 200


# --- faults -------------------------------------------------------------------------------------

def test_fault_stall_times_out_the_client_and_others_proceed(client):
    client.post("/_test/faults", json_body={"path": "/auth/me", "mode": "stall", "stall_seconds": 2})
    started = time.monotonic()
    with pytest.raises(socket.timeout):
        client.get("/auth/me", timeout=0.5)
    assert time.monotonic() - started < 1.5
    # the stalled thread doesn't block anyone else, and the fault was one-shot
    assert client.get("/o/.well-known/jwks.json", timeout=2).status == 200
    assert client.get("/auth/me", timeout=2).status == 401
    # stall, then answer with a status
    client.post("/_test/faults", json_body={"path": "/auth/me", "mode": "stall", "stall_seconds": 0.3,
                                            "status": 504})
    assert client.get("/auth/me", timeout=5).status == 504


def test_fault_429_with_retry_after(client):
    before = counters(client)
    client.post("/_test/faults", json_body={"path": "/o/token/", "status": 429, "retry_after": 3})
    limited = oauth_password(client)
    assert limited.status == 429 and limited.header("Retry-After") == "3"
    assert limited.json() == {"error": "injected_fault", "status": 429}
    assert oauth_password(client).status == 200  # one-shot
    after = counters(client)
    assert after["faults_fired"] - before["faults_fired"] == 1
    assert after["login"]["oauth2"] - before["login"]["oauth2"] == 1  # the faulted call isn't a login


def test_fault_5xx_count_and_method(client):
    client.post("/_test/faults", json_body=[
        {"path": "/api/token/", "method": "POST", "status": 503, "count": 2, "retry_after": 1},
        {"path": "/auth/", "status": 502, "body": "<html>Bad Gateway</html>", "content_type": "text/html"},
        {"path": "/accounts/", "status": 500},
    ])
    assert [f["remaining"] for f in client.get("/_test/faults").json()["pending"]] == [2, 1, 1]
    assert client.get("/api/token/").status == 405  # GET doesn't match the POST-only fault
    login = {"username": ALICE[0], "password": ALICE[1]}
    assert [client.post("/api/token/", json_body=login).status for _ in range(3)] == [503, 503, 200]
    bad_gateway = client.post("/auth/login", json_body=login)
    assert bad_gateway.status == 502 and bad_gateway.text == "<html>Bad Gateway</html>"
    assert client.get("/accounts/login/").status == 500
    assert client.get("/accounts/login/").status == 200
    assert client.get("/_test/faults").json()["pending"] == []


def test_fault_redirect_to_another_origin(client):
    client.post("/_test/faults", json_body={"path": "/o/token/", "mode": "redirect", "status": 307,
                                            "location": "http://127.0.0.2:1/o/token/"})
    response = oauth_password(client)
    assert response.status == 307 and response.header("Location") == "http://127.0.0.2:1/o/token/"
    client.request("DELETE", "/_test/faults")


def test_fault_validation(client):
    assert client.post("/_test/faults", json_body={"mode": "status"}).status == 400
    assert client.post("/_test/faults", json_body={"path": "/x", "mode": "explode"}).status == 400


# --- test controls ------------------------------------------------------------------------------

def test_counters_reset_and_runtime_users(server):
    client = Client(server.url)
    created = client.post("/_test/users", json_body={"username": "carol", "password": "pw-carol-123",
                                                     "email": "carol@example.com"})
    assert created.status == 201 and created.json()["created"] is True
    assert client.post("/auth/login", json_body={"username": "carol", "password": "pw-carol-123"}).json()["success"]
    updated = client.post("/_test/users", json_body={"username": "carol", "password": "new-password"})
    assert updated.status == 200 and updated.json()["created"] is False
    assert oauth_password(client, user=("carol", "new-password")).status == 200
    snapshot = counters(client)
    assert snapshot["login"]["anyapi"] >= 1 and snapshot["requests"]["POST /o/token/"] >= 1
    assert set(snapshot["refresh"]) == {"oauth2", "simplejwt", "anyapi", "form"}
    assert client.post("/_test/reset").json() == {"reset": True}
    cleared = counters(client)
    assert cleared["invalid_grant"] == 0 and cleared["events"] == [] and cleared["requests"] == {}
    assert all(value == 0 for value in cleared["login"].values())
    info = client.get("/_test/info").json()
    assert info["base_url"] == server.url and info["access_token_seconds"] == 300
    assert [u["username"] for u in info["users"]] == ["alice", "bob", "名字用户", "mallory"]
