"""Test controls of this test server only: injected faults, counters, run-time users.

The middleware (outermost in settings.MIDDLEWARE) does four things for every request outside
/_test/:
  1. fires the first pending fault whose path prefix (and method, if given) matches;
  2. serialises refresh requests (OAuth2 refresh_token grants, SimpleJWT and /auth/ refreshes)
     so two concurrent uses of one refresh token can never both succeed: the second one sees
     the token already rotated and is rejected (invalid_grant / blacklisted / 401);
  3. counts logins, refreshes, rejections, logouts, user fetches, per server;
  4. writes one access-log line to stderr.

The /_test/ views (see urls.py):
  POST   /_test/faults           install faults: one object or a list of objects
                                 {"path": "/o/token/", "method": "POST" (optional),
                                  "mode": "status"|"stall"|"redirect", "status": 503,
                                  "retry_after": 3, "count": 1, "stall_seconds": 5,
                                  "location": "http://127.0.0.2:1/x", "body": "...",
                                  "content_type": "text/html"}
  GET    /_test/faults           pending faults;  DELETE /_test/faults clears them
  GET    /_test/counters         the counters (see snapshot())
  POST   /_test/reset            clear counters, events and faults (users and tokens stay)
  POST   /_test/users            {"username", "password", "email", "first_name", "last_name",
                                  "is_active"} create or update a user
  POST   /_test/device/approve   {"user_code", "username", "action": "accept"|"deny"}
  POST   /_test/session          {"username"} → a logged-in Django session (cookie + JSON)
  POST   /_test/expire           {"username" (optional), "server": "oauth2"|"anyapi"|"all"}
                                 expire live access tokens now (SimpleJWT's are stateless JWTs:
                                 use a short ACCESS_TOKEN_SECONDS instead)
  GET    /_test/info             base URL, lifetimes, clients, users
"""
import json
import logging
import threading
import time
from collections import defaultdict
from datetime import timedelta
from urllib.parse import parse_qs

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

access_log = logging.getLogger("authservers.access")

# Set on shutdown so stalled requests return at once.
SHUTDOWN = threading.Event()

SERVERS = ("oauth2", "simplejwt", "anyapi", "form")
COUNTERS = ("login", "login_failed", "refresh", "refresh_rejected", "refresh_failed", "logout",
            "revoke", "user", "user_unauthorized", "csrf_rejected")
MAX_EVENTS = 10000

_state_lock = threading.Lock()
_refresh_lock = threading.Lock()
_faults = []
_counts = {}
_requests = defaultdict(int)
_events = []
_faults_fired = 0
_started = time.time()


def _reset_counts():
    global _faults_fired
    _counts.clear()
    for name in COUNTERS:
        _counts[name] = {server: 0 for server in SERVERS}
    _counts["invalid_grant"] = 0
    _requests.clear()
    _events.clear()
    _faults_fired = 0


_reset_counts()


def snapshot():
    with _state_lock:
        data = {name: dict(_counts[name]) for name in COUNTERS}
        data["invalid_grant"] = _counts["invalid_grant"]
        data["faults_fired"] = _faults_fired
        data["faults_pending"] = sum(fault["remaining"] for fault in _faults)
        data["requests"] = dict(_requests)
        data["events"] = list(_events)
        data["uptime_seconds"] = round(time.time() - _started, 3)
    return data


# --- request classification ---------------------------------------------------------------------

_POST_KINDS = {
    "/api/token/": ("simplejwt", "login"),
    "/api/token/refresh/": ("simplejwt", "refresh"),
    "/api/token/blacklist/": ("simplejwt", "logout"),
    "/auth/login": ("anyapi", "login"),
    "/auth/refresh": ("anyapi", "refresh"),
    "/auth/logout": ("anyapi", "logout"),
    "/o/revoke_token/": ("oauth2", "revoke"),
    "/accounts/login/": ("form", "login"),
    "/accounts/login-elsewhere/": ("form", "login"),
    "/accounts/logout/": ("form", "logout"),
}
_GET_KINDS = {
    "/api/me/": ("simplejwt", "user"),
    "/auth/me": ("anyapi", "user"),
    "/o/userinfo/": ("oauth2", "user"),
    "/accounts/profile/": ("form", "user"),
    "/accounts/profile.json": ("form", "user"),
}


def _classify(request):
    """(server, action, details) for the requests we count, else None."""
    path = request.path
    if request.method == "POST" and path == "/o/token/":
        try:
            fields = parse_qs(request.body.decode("utf-8"), keep_blank_values=True)
        except UnicodeDecodeError:
            fields = {}
        grant_type = (fields.get("grant_type") or [""])[-1]
        details = {"grant_type": grant_type, "client_id": (fields.get("client_id") or [None])[-1]}
        return ("oauth2", "refresh" if grant_type == "refresh_token" else "login", details)
    if request.method == "POST" and path in _POST_KINDS:
        return _POST_KINDS[path] + ({},)
    if request.method in ("GET", "POST") and path in _GET_KINDS:
        return _GET_KINDS[path] + ({},)
    return None


def _json(response):
    try:
        value = json.loads(response.content)
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, dict) else None


def _outcome(server, action, response):
    """The counter this response increments."""
    status = response.status_code
    body = _json(response) if response.get("Content-Type", "").startswith("application/json") else None
    if action == "login":
        if server == "form":
            if status == 302:
                return "login"
            return "csrf_rejected" if status == 403 else "login_failed"
        if server == "anyapi":
            ok = status == 200 and body is not None and body.get("success") is True
            return "login" if ok else "login_failed"
        return "login" if status == 200 else "login_failed"
    if action == "refresh":
        if status == 200 and (server != "anyapi" or (body or {}).get("success") is True):
            return "refresh"
        if server == "oauth2":
            return "refresh_rejected" if (body or {}).get("error") == "invalid_grant" else "refresh_failed"
        return "refresh_rejected" if status == 401 else "refresh_failed"
    if action in ("logout", "revoke"):
        if server == "form":
            return action if status == 302 else ("csrf_rejected" if status == 403 else None)
        return action if status == 200 else None
    if action == "user":
        if status == 200:
            return "user"
        return "user_unauthorized" if status in (401, 403, 302) else None
    return None


def _record(server, action, details, response):
    outcome = _outcome(server, action, response)
    with _state_lock:
        if outcome is not None:
            _counts[outcome][server] += 1
            if server == "oauth2" and outcome == "refresh_rejected":
                _counts["invalid_grant"] += 1
        if action != "user" and len(_events) < MAX_EVENTS:
            event = {"t": round(time.time(), 4), "server": server, "action": action,
                     "outcome": outcome, "status": response.status_code}
            event.update({key: value for key, value in details.items() if value is not None})
            _events.append(event)


# --- faults -------------------------------------------------------------------------------------

def _take_fault(request):
    global _faults_fired
    with _state_lock:
        for fault in _faults:
            if not request.path.startswith(fault["path"]):
                continue
            if fault.get("method") and fault["method"].upper() != request.method:
                continue
            fault["remaining"] -= 1
            if fault["remaining"] <= 0:
                _faults.remove(fault)
            _faults_fired += 1
            return dict(fault)
    return None


def _fault_response(fault):
    mode = fault.get("mode", "status")
    if mode == "redirect":
        response = HttpResponse(status=int(fault.get("status") or 302))
        response["Location"] = fault.get("location") or (settings.OFFSITE_ORIGIN + "/")
        return response
    status = int(fault.get("status") or 503)
    if fault.get("body") is not None:
        response = HttpResponse(fault["body"], status=status,
                                content_type=fault.get("content_type") or "text/plain; charset=utf-8")
    else:
        response = JsonResponse({"error": "injected_fault", "status": status}, status=status)
    if fault.get("retry_after") is not None:
        response["Retry-After"] = str(fault["retry_after"])
    return response


class TestControlMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self._with_length(self._answer(request))

    @staticmethod
    def _with_length(response):
        """Content-Length on every complete answer, as Django's CommonMiddleware (left out here, see
        settings.py) would set it: without one waitress must send chunked *and* close the connection, and a
        server that closes after every answer is not what clients meet in production, where connections
        are kept alive."""
        if not response.streaming and not response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))
        return response

    def _answer(self, request):
        started = time.monotonic()
        if request.path.startswith("/_test/"):
            response = self.get_response(request)
            self._log(request, response, started, "")
            return response

        with _state_lock:
            _requests[f"{request.method} {request.path}"] += 1
        kind = _classify(request)
        fault = _take_fault(request)
        response = None
        note = ""
        if fault is not None:
            note = f" fault={fault.get('mode', 'status')}"
            if fault.get("mode") == "stall":
                SHUTDOWN.wait(float(fault.get("stall_seconds") or 30))
                if fault.get("status"):
                    response = _fault_response(fault)
            else:
                response = _fault_response(fault)
        if response is None:
            if kind is not None and kind[1] == "refresh":
                with _refresh_lock:
                    response = self.get_response(request)
            else:
                response = self.get_response(request)
            if kind is not None:
                _record(kind[0], kind[1], kind[2], response)
        self._log(request, response, started, note)
        return response

    @staticmethod
    def _log(request, response, started, note):
        if settings.ACCESS_LOG:
            elapsed = (time.monotonic() - started) * 1000
            access_log.info("%s %s %d %.1fms%s", request.method, request.get_full_path(),
                            response.status_code, elapsed, note)


# --- /_test/ views ------------------------------------------------------------------------------

def _body(request):
    try:
        value = json.loads(request.body.decode("utf-8") or "{}")
    except (UnicodeDecodeError, ValueError):
        return None
    return value


def _bad(message):
    return JsonResponse({"error": message}, status=400)


_FAULT_MODES = ("status", "stall", "redirect")


@csrf_exempt
def faults(request):
    if request.method == "GET":
        with _state_lock:
            return JsonResponse({"pending": [dict(fault) for fault in _faults]})
    if request.method == "DELETE":
        with _state_lock:
            _faults.clear()
        return JsonResponse({"pending": []})
    if request.method != "POST":
        return JsonResponse({"error": "method not allowed"}, status=405)
    body = _body(request)
    items = body if isinstance(body, list) else [body]
    installed = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("path"), str) or not item["path"].startswith("/"):
            return _bad("each fault needs a 'path' prefix starting with '/'")
        mode = item.get("mode", "status")
        if mode not in _FAULT_MODES:
            return _bad(f"mode must be one of {', '.join(_FAULT_MODES)}")
        count = int(item.get("count", 1))
        if count < 1:
            return _bad("count must be at least 1")
        fault = {
            "path": item["path"], "method": item.get("method"), "mode": mode,
            "status": item.get("status"), "retry_after": item.get("retry_after"),
            "stall_seconds": item.get("stall_seconds"), "location": item.get("location"),
            "body": item.get("body"), "content_type": item.get("content_type"),
            "remaining": count,
        }
        if mode == "status" and not fault["status"]:
            fault["status"] = 503
        installed.append(fault)
    with _state_lock:
        _faults.extend(installed)
        pending = [dict(fault) for fault in _faults]
    return JsonResponse({"installed": len(installed), "pending": pending}, status=201)


@csrf_exempt
def counters(request):
    return JsonResponse(snapshot(), json_dumps_params={"ensure_ascii": False})


@csrf_exempt
def reset(request):
    if request.method != "POST":
        return JsonResponse({"error": "method not allowed"}, status=405)
    with _state_lock:
        _faults.clear()
        _reset_counts()
    return JsonResponse({"reset": True})


@csrf_exempt
def users(request):
    if request.method != "POST":
        return JsonResponse({"error": "method not allowed"}, status=405)
    body = _body(request)
    if not isinstance(body, dict) or not body.get("username") or not body.get("password"):
        return _bad("username and password are required")
    from .seed import upsert_user

    user, created = upsert_user(
        body["username"], body["password"], email=body.get("email", ""),
        first_name=body.get("first_name", ""), last_name=body.get("last_name", ""),
        is_active=bool(body.get("is_active", True)))
    return JsonResponse({"id": user.pk, "username": user.get_username(), "created": created},
                        status=201 if created else 200, json_dumps_params={"ensure_ascii": False})


@csrf_exempt
def device_approve(request):
    if request.method != "POST":
        return JsonResponse({"error": "method not allowed"}, status=405)
    from oauth2_provider.models import get_device_grant_model

    body = _body(request)
    if not isinstance(body, dict) or not body.get("user_code") or not body.get("username"):
        return _bad("user_code and username are required")
    user = get_user_model().objects.filter(username=body["username"]).first()
    if user is None:
        return _bad("no such user")
    model = get_device_grant_model()
    grant = model.objects.filter(user_code=body["user_code"], status=model.AUTHORIZATION_PENDING).first()
    if grant is None:
        return JsonResponse({"error": "no pending device grant with that user_code"}, status=404)
    grant.user = user
    grant.status = model.DENIED if body.get("action") == "deny" else model.AUTHORIZED
    grant.save(update_fields=["user", "status"])
    return JsonResponse({"client_id": grant.client_id, "status": grant.status})


@csrf_exempt
def session(request):
    if request.method != "POST":
        return JsonResponse({"error": "method not allowed"}, status=405)
    from importlib import import_module

    body = _body(request)
    user = get_user_model().objects.filter(username=(body or {}).get("username")).first()
    if user is None:
        return _bad("no such user")
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    response = JsonResponse({"cookie": f"{settings.SESSION_COOKIE_NAME}={store.session_key}",
                             "name": settings.SESSION_COOKIE_NAME, "value": store.session_key})
    response.set_cookie(settings.SESSION_COOKIE_NAME, store.session_key, httponly=True, samesite="Lax")
    return response


@csrf_exempt
def expire(request):
    if request.method != "POST":
        return JsonResponse({"error": "method not allowed"}, status=405)
    from oauth2_provider.models import get_access_token_model

    from .models import ApiToken

    body = _body(request) or {}
    server = body.get("server", "all")
    past = timezone.now() - timedelta(seconds=1)
    expired = {}
    user_filter = {}
    if body.get("username"):
        user = get_user_model().objects.filter(username=body["username"]).first()
        if user is None:
            return _bad("no such user")
        user_filter = {"user": user}
    if server in ("oauth2", "all"):
        expired["oauth2"] = get_access_token_model().objects.filter(
            expires__gt=past, **user_filter).update(expires=past)
    if server in ("anyapi", "all"):
        expired["anyapi"] = ApiToken.objects.filter(
            kind=ApiToken.ACCESS, expires__gt=past, **user_filter).update(expires=past)
    return JsonResponse({"expired": expired})


@csrf_exempt
def info(request):
    from .seed import CLIENTS, SEED_USERS

    return JsonResponse({
        "base_url": settings.BASE_URL,
        "issuer": settings.OAUTH2_PROVIDER["OIDC_ISS_ENDPOINT"],
        "access_token_seconds": settings.ACCESS_TOKEN_SECONDS,
        "refresh_token_seconds": settings.REFRESH_TOKEN_SECONDS,
        "session_seconds": settings.SESSION_SECONDS,
        "offsite_origin": settings.OFFSITE_ORIGIN,
        "clients": CLIENTS,
        "users": [{key: value for key, value in user.items()} for user in SEED_USERS],
    }, json_dumps_params={"ensure_ascii": False})
