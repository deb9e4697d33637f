"""A phone-first login API with SMS codes (/sms/*), shaped like the mobile backends that demand a
code after repeated wrong passwords.

Accounts are phone numbers as typed (digits). Codes are 6 digits, live 300 s, allow 5 attempts and
are single use; a code is "sent" by appending it to an outbox the tests read. The server keeps its
own clock offset so a test can move past the 120 s resend cooldown without waiting.

  POST /sms/login        JSON {phone, password}
                         → 200 {"ok": true, "token", "refreshToken", "expiresIn", "user"}
                         → 401 {"ok": false, "error": "BAD_CREDENTIALS"} (unknown phone too)
                         → 403 {"ok": false, "error": "SMS_REQUIRED", "challenge", "methods": ["sms"]}
                           once the account has 3 consecutive failures: from then on a password
                           alone never logs in until a code does (or the password is reset)
  POST /sms/send         JSON {phone, purpose: "login"|"reset"} or {challenge}
                         → 200 {"ok": true, "cooldown": 120, "expiresIn": 300}
                         → 429 + Retry-After {"ok": false, "error": "TOO_SOON", "retryAfter"}
                           within 120 s of the last code for that phone and purpose
                         Unknown phones get the same 200 (nothing is sent): no enumeration.
  POST /sms/verify       JSON {challenge, code} → 200 tokens (the step-up), or
                         400 {"ok": false, "error": "BAD_CODE" | "CODE_EXPIRED"}
  POST /sms/login_code   JSON {phone, code} → 200 tokens | 400 as above
  POST /sms/reset        JSON {phone, code, newPassword} → 200 {"ok": true} | 400 as above;
                         ends every token of the account and clears its failures
  POST /sms/refresh      JSON {refreshToken} → 200 tokens (rotated) | 401 {"error": "INVALID_REFRESH"}
  GET  /sms/me           Bearer → 200 {"ok": true, "user"} | 401

Test controls (this test server only):
  GET  /_test/sms/outbox   every code "sent": [{"phone", "code", "purpose", "t"}]
  POST /_test/sms/clock    {"advance": seconds} moves this API's clock forward
  POST /_test/sms/users    {"phone", "password", "name"} create or replace an account
"""
import json
import secrets
import threading
import time

from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

FAILURES_BEFORE_CODE = 3
COOLDOWN_SECONDS = 120
CODE_SECONDS = 300
CODE_ATTEMPTS = 5
TOKEN_SECONDS = 900

_lock = threading.Lock()
_offset = 0.0
_accounts = {"13800138000": {"password": "correct horse battery staple", "name": "王芳", "failures": 0}}
_codes = {}  # (phone, purpose) → {"code", "expires", "attempts"}
_last_sent = {}  # (phone, purpose) → time
_challenges = {}  # challenge → phone
_tokens = {}  # access token → (phone, expires)
_refresh = {}  # refresh token → phone
_outbox = []


def _now():
    return time.time() + _offset


def _body(request):
    try:
        value = json.loads(request.body.decode("utf-8") or "{}")
    except (UnicodeDecodeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _fail(status, error, **extra):
    response = JsonResponse({"ok": False, "error": error, **extra}, status=status)
    if "retryAfter" in extra:
        response["Retry-After"] = str(extra["retryAfter"])
    return response


def _user(phone):
    return {"id": "u" + phone[-4:], "phone": phone, "name": _accounts[phone]["name"]}


def _issue(phone):
    """Caller holds _lock."""
    access, refresh = "sms_at_" + secrets.token_urlsafe(24), "sms_rt_" + secrets.token_urlsafe(24)
    _tokens[access] = (phone, _now() + TOKEN_SECONDS)
    _refresh[refresh] = phone
    _accounts[phone]["failures"] = 0
    return JsonResponse({"ok": True, "token": access, "refreshToken": refresh, "expiresIn": TOKEN_SECONDS,
                         "user": _user(phone)}, json_dumps_params={"ensure_ascii": False})


def _send(phone, purpose):
    """Caller holds _lock. None when sent, else the 429 answer."""
    key = (phone, purpose)
    wait = COOLDOWN_SECONDS - (_now() - _last_sent.get(key, -1e9))
    if wait > 0:
        return _fail(429, "TOO_SOON", retryAfter=int(wait + 0.999))
    _last_sent[key] = _now()
    if phone in _accounts:
        code = f"{secrets.randbelow(10**6):06d}"
        _codes[key] = {"code": code, "expires": _now() + CODE_SECONDS, "attempts": 0}
        _outbox.append({"phone": phone, "code": code, "purpose": purpose, "t": round(_now(), 3)})
    return None


def _spend_code(phone, purpose, presented):
    """Caller holds _lock. None when the code is right (and now spent), else the 400 answer."""
    entry = _codes.get((phone, purpose))
    if entry is None or entry["attempts"] >= CODE_ATTEMPTS:
        return _fail(400, "BAD_CODE")
    if entry["expires"] <= _now():
        return _fail(400, "CODE_EXPIRED")
    entry["attempts"] += 1
    if not isinstance(presented, str) or not secrets.compare_digest(entry["code"], presented):
        return _fail(400, "BAD_CODE")
    del _codes[(phone, purpose)]
    return None


def _sent_answer():
    return JsonResponse({"ok": True, "cooldown": COOLDOWN_SECONDS, "expiresIn": CODE_SECONDS})


@csrf_exempt
@require_POST
def login(request):
    body = _body(request)
    phone, password = body.get("phone"), body.get("password")
    with _lock:
        account = _accounts.get(phone if isinstance(phone, str) else "")
        if account is None:
            return _fail(401, "BAD_CREDENTIALS")
        if account["failures"] >= FAILURES_BEFORE_CODE:
            challenge = "ch_" + secrets.token_urlsafe(16)
            _challenges[challenge] = phone
            return _fail(403, "SMS_REQUIRED", challenge=challenge, methods=["sms"])
        if not isinstance(password, str) or not secrets.compare_digest(account["password"].encode(), password.encode()):
            account["failures"] += 1
            return _fail(401, "BAD_CREDENTIALS")
        return _issue(phone)


@csrf_exempt
@require_POST
def send(request):
    body = _body(request)
    with _lock:
        if "challenge" in body:
            phone, purpose = _challenges.get(body["challenge"]), "login"
            if phone is None:
                return _fail(400, "BAD_CHALLENGE")
        else:
            phone, purpose = body.get("phone"), body.get("purpose", "login")
            if not isinstance(phone, str) or purpose not in ("login", "reset"):
                return _fail(400, "BAD_REQUEST")
        refused = _send(phone, purpose)
    return refused or _sent_answer()


@csrf_exempt
@require_POST
def verify(request):
    body = _body(request)
    with _lock:
        phone = _challenges.get(body.get("challenge"))
        if phone is None:
            return _fail(400, "BAD_CHALLENGE")
        refused = _spend_code(phone, "login", body.get("code"))
        if refused:
            return refused
        del _challenges[body["challenge"]]
        return _issue(phone)


@csrf_exempt
@require_POST
def login_code(request):
    body = _body(request)
    phone = body.get("phone")
    with _lock:
        if not isinstance(phone, str) or phone not in _accounts:
            return _fail(400, "BAD_CODE")
        return _spend_code(phone, "login", body.get("code")) or _issue(phone)


@csrf_exempt
@require_POST
def reset(request):
    body = _body(request)
    phone, new_password = body.get("phone"), body.get("newPassword")
    with _lock:
        if not isinstance(phone, str) or phone not in _accounts:
            return _fail(400, "BAD_CODE")
        if not isinstance(new_password, str) or len(new_password) < 8:
            return _fail(400, "WEAK_PASSWORD")
        refused = _spend_code(phone, "reset", body.get("code"))
        if refused:
            return refused
        _accounts[phone].update(password=new_password, failures=0)
        for table in (_tokens, _refresh):
            for token in [t for t, owner in table.items() if (owner[0] if isinstance(owner, tuple) else owner) == phone]:
                del table[token]
    return JsonResponse({"ok": True})


@csrf_exempt
@require_POST
def refresh(request):
    presented = _body(request).get("refreshToken")
    with _lock:
        phone = _refresh.pop(presented, None) if isinstance(presented, str) else None
        if phone is None:
            return _fail(401, "INVALID_REFRESH")
        return _issue(phone)


@csrf_exempt
@require_GET
def me(request):
    scheme, _, token = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    with _lock:
        entry = _tokens.get(token.strip()) if scheme.lower() == "bearer" else None
        if entry is None or entry[1] <= _now():
            return _fail(401, "UNAUTHORIZED")
        return JsonResponse({"ok": True, "user": _user(entry[0])}, json_dumps_params={"ensure_ascii": False})


@csrf_exempt
def outbox(request):
    with _lock:
        return JsonResponse({"outbox": list(_outbox)})


@csrf_exempt
@require_POST
def clock(request):
    global _offset
    advance = _body(request).get("advance", 0)
    if not isinstance(advance, (int, float)) or advance < 0:
        return JsonResponse({"error": "advance must be a non-negative number"}, status=400)
    with _lock:
        _offset += advance
    return JsonResponse({"offset": _offset})


@csrf_exempt
@require_POST
def users(request):
    body = _body(request)
    if not isinstance(body.get("phone"), str) or not isinstance(body.get("password"), str):
        return JsonResponse({"error": "phone and password are required"}, status=400)
    with _lock:
        _accounts[body["phone"]] = {"password": body["password"], "name": body.get("name", ""), "failures": 0}
    return JsonResponse({"phone": body["phone"]}, status=201)
