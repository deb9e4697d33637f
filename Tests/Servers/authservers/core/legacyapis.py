"""Login APIs shaped like the older backends many apps still talk to (/php/*, /simple/*, /mail/*).

Each keeps its accounts in memory for the server's lifetime and compares identities exactly as
they were typed at sign-up, as these servers do: a phone number is its digits, an e-mail address
keeps its case and script.

PHP-style flag API (form-encoded request, JSON answered as text/html, no token at all):
  POST /php/login.php     User_Account, User_Password, Account_Type (Telephone | EmailAddress |
                          NormalName), any other fields (Device_Id, App_Version, …) recorded
                          → 200 {"accountBeingOrNotFlag": "1"|"0", "loginOKOrNotFlag": "1"|"0",
                                 "userId", "nickName"} (userId/nickName only on success)
  POST /php/login_rsa.php the same, User_Password = base64(RSA-encrypt(password)) with PKCS#1 v1.5
  POST /php/login_oaep.php the same with OAEP (SHA-256, MGF1-SHA-256)
  GET  /php/public_key.pem the server's RSA public key (SubjectPublicKeyInfo PEM)

Token API whose database tokens never expire ({success, token, user, message}):
  POST /simple/login      JSON {email, password} → 200 {"success": true, "token", "user", "message"}
                          or 401 {"success": false, "token": null, "user": null, "message"}
  GET  /simple/me         Authorization: Token <t> (or Bearer) → 200 {"success": true, "user"} | 401
  POST /simple/logout     the token → 200 {"success": true}; the token is gone

E-mail-as-username API, addresses in any script (RFC 6531), compared exactly as typed:
  POST /mail/session      form email, password → 200 {"access_token", "token_type": "bearer",
                          "expires_in", "user": {"email", "name"}} | 401 {"error": "invalid_login"}
  GET  /mail/me           Bearer → 200 {"email", "name"} | 401

Test controls (this test server only):
  GET  /_test/legacy/received   the last 50 requests' fields, passwords left out
  POST /_test/legacy/revoke     {"email"}: the server ends every /simple/ token of that user now
"""
import base64
import json
import secrets
import threading
from urllib.parse import parse_qs

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

# Account_Type → {account as typed: (password, user id, nick name)}
FLAG_ACCOUNTS = {
    "Telephone": {"13542138562": ("correct horse battery staple", "1001", "小明")},
    "EmailAddress": {"Li.Na@Example.COM": ("correct horse battery staple", "1002", "Li Na")},
    "NormalName": {"xiaoming": ("correct horse battery staple", "1003", "小明")},
}
# E-mail address as typed → (password, display name): the /simple/ and /mail/ APIs.
MAIL_ACCOUNTS = {
    "alice@example.com": ("correct horse battery staple", "Alice"),
    "张伟@example.com": ("correct horse battery staple", "张伟"),
    "josé@exämple.org": ("correct horse battery staple", "José"),
}
PASSWORD_FIELDS = {"User_Password", "password"}

_lock = threading.Lock()
_received = []
_simple_tokens = {}  # token → email
_mail_tokens = {}  # token → email
_private_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _record(path, fields):
    with _lock:
        _received.append({"path": path, "fields": {k: v for k, v in fields.items() if k not in PASSWORD_FIELDS}})
        del _received[:-50]


def _form(request):
    try:
        fields = parse_qs(request.body.decode("utf-8"), keep_blank_values=True)
    except UnicodeDecodeError:
        return {}
    return {key: values[-1] for key, values in fields.items()}


def _json_body(request):
    try:
        value = json.loads(request.body.decode("utf-8") or "{}")
    except (UnicodeDecodeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _text_html_json(value):
    """The JSON answer as these backends send it: labelled text/html."""
    return HttpResponse(json.dumps(value, ensure_ascii=False), content_type="text/html; charset=utf-8")


def _flag_answer(fields, password):
    accounts = FLAG_ACCOUNTS.get(fields.get("Account_Type", ""), {})
    entry = accounts.get(fields.get("User_Account", ""))
    if entry is None:
        return _text_html_json({"accountBeingOrNotFlag": "0", "loginOKOrNotFlag": "0"})
    if password is None or not secrets.compare_digest(entry[0].encode(), password.encode()):
        return _text_html_json({"accountBeingOrNotFlag": "1", "loginOKOrNotFlag": "0"})
    return _text_html_json({"accountBeingOrNotFlag": "1", "loginOKOrNotFlag": "1",
                            "userId": entry[1], "nickName": entry[2]})


@csrf_exempt
@require_POST
def php_login(request):
    fields = _form(request)
    _record(request.path, fields)
    return _flag_answer(fields, fields.get("User_Password"))


def _decrypt(encoded, scheme):
    try:
        ciphertext = base64.b64decode(encoded, validate=True)
        if scheme == "oaep":
            pad = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
        else:
            pad = padding.PKCS1v15()
        return _private_key.decrypt(ciphertext, pad).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def _encrypted_login(scheme):
    @csrf_exempt
    @require_POST
    def view(request):
        fields = _form(request)
        _record(request.path, fields)
        return _flag_answer(fields, _decrypt(fields.get("User_Password", ""), scheme))

    return view


php_login_rsa = _encrypted_login("pkcs1")
php_login_oaep = _encrypted_login("oaep")


@require_GET
def php_public_key(request):
    pem = _private_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return HttpResponse(pem, content_type="application/x-pem-file")


def _mail_user(email):
    return {"email": email, "name": MAIL_ACCOUNTS[email][1]}


def _check_mail_password(email, password):
    entry = MAIL_ACCOUNTS.get(email if isinstance(email, str) else "")
    return entry is not None and isinstance(password, str) and secrets.compare_digest(
        entry[0].encode(), password.encode())


def _presented_token(request, schemes):
    scheme, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    return token.strip() if scheme.lower() in schemes and token.strip() else None


@csrf_exempt
@require_POST
def simple_login(request):
    body = _json_body(request)
    _record(request.path, body)
    email = body.get("email")
    if not _check_mail_password(email, body.get("password")):
        return JsonResponse({"success": False, "token": None, "user": None,
                             "message": "Invalid email or password"}, status=401)
    token = secrets.token_hex(20)
    with _lock:
        _simple_tokens[token] = email
    return JsonResponse({"success": True, "token": token, "user": _mail_user(email),
                         "message": "Login successful"}, json_dumps_params={"ensure_ascii": False})


@csrf_exempt
@require_GET
def simple_me(request):
    token = _presented_token(request, ("token", "bearer"))
    with _lock:
        email = _simple_tokens.get(token)
    if email is None:
        return JsonResponse({"success": False, "message": "Invalid token"}, status=401)
    return JsonResponse({"success": True, "user": _mail_user(email)}, json_dumps_params={"ensure_ascii": False})


@csrf_exempt
@require_POST
def simple_logout(request):
    token = _presented_token(request, ("token", "bearer"))
    with _lock:
        _simple_tokens.pop(token, None)
    return JsonResponse({"success": True})


@csrf_exempt
@require_POST
def mail_session(request):
    fields = _form(request)
    _record(request.path, fields)
    email = fields.get("email")
    if not _check_mail_password(email, fields.get("password")):
        return JsonResponse({"error": "invalid_login"}, status=401)
    token = secrets.token_urlsafe(32)
    with _lock:
        _mail_tokens[token] = email
    return JsonResponse({"access_token": token, "token_type": "bearer",
                         "expires_in": settings.ACCESS_TOKEN_SECONDS, "user": _mail_user(email)},
                        json_dumps_params={"ensure_ascii": False})


@csrf_exempt
@require_GET
def mail_me(request):
    token = _presented_token(request, ("bearer",))
    with _lock:
        email = _mail_tokens.get(token)
    if email is None:
        return JsonResponse({"error": "invalid_token"}, status=401)
    return JsonResponse(_mail_user(email), json_dumps_params={"ensure_ascii": False})


@csrf_exempt
def received(request):
    with _lock:
        return JsonResponse({"received": list(_received)}, json_dumps_params={"ensure_ascii": False})


@csrf_exempt
@require_POST
def revoke(request):
    email = _json_body(request).get("email")
    with _lock:
        ended = [token for token, owner in _simple_tokens.items() if owner == email]
        for token in ended:
            del _simple_tokens[token]
    return JsonResponse({"revoked": len(ended)})
