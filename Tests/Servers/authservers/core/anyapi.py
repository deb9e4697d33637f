"""An "any API" style login API with its own response shape (/auth/*).

  POST /auth/login    {username|email, password} (JSON or form)
                      200 {"success": true, "data": {"token", "refreshToken", "expiresIn", "user"}}
                      200 {"success": false, "error": {"code": "BAD_LOGIN", ...}} on bad credentials
                      400 {"success": false, "error": {"code": "VALIDATION_ERROR", "fields": [...]}}
  POST /auth/refresh  {refreshToken} → 200 same data shape (rotated), or
                      401 {"success": false, "error": {"code": "INVALID_REFRESH_TOKEN"}}
  POST /auth/logout   Bearer access token and/or {refreshToken} → 200 {"success": true}
  GET  /auth/me       Bearer → 200 {"success": true, "data": {"user": {...}}},
                      401 {"success": false, "error": {"code": "TOKEN_EXPIRED" | "UNAUTHORIZED"}}
"""
import json
import secrets
from datetime import timedelta
from urllib.parse import parse_qs

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.db import transaction
from django.http import JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from .models import ApiToken, new_token, token_hash


def user_json(user):
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email,
        "firstName": user.first_name,
        "lastName": user.last_name,
        "displayName": (user.get_full_name() or user.get_username()),
    }


def _failure(status, code, message, **extra):
    error = {"code": code, "message": message}
    error.update(extra)
    return JsonResponse({"success": False, "error": error}, status=status,
                        json_dumps_params={"ensure_ascii": False})


def _body(request):
    """JSON object or form fields, as a dict of strings; None when unparseable."""
    content_type = request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    raw = request.body
    if content_type == "application/json" or (not content_type and raw.lstrip()[:1] == b"{"):
        try:
            value = json.loads(raw.decode("utf-8") or "{}")
        except (UnicodeDecodeError, ValueError):
            return None
        return value if isinstance(value, dict) else None
    try:
        fields = parse_qs(raw.decode("utf-8"), keep_blank_values=True)
    except UnicodeDecodeError:
        return None
    return {key: values[-1] for key, values in fields.items()}


def _bearer(request):
    header = request.META.get("HTTP_AUTHORIZATION", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _issue(user, family):
    now = timezone.now()
    access = new_token("at_")
    refresh = new_token("rt_")
    ApiToken.objects.create(kind=ApiToken.ACCESS, token_hash=token_hash(access), family=family,
                            user=user, expires=now + timedelta(seconds=settings.ACCESS_TOKEN_SECONDS))
    ApiToken.objects.create(kind=ApiToken.REFRESH, token_hash=token_hash(refresh), family=family,
                            user=user, expires=now + timedelta(seconds=settings.REFRESH_TOKEN_SECONDS))
    return {
        "token": access,
        "refreshToken": refresh,
        "expiresIn": settings.ACCESS_TOKEN_SECONDS,
        "tokenType": "Bearer",
        "user": user_json(user),
    }


def _revoke_family(family):
    ApiToken.objects.filter(family=family, revoked__isnull=True).update(revoked=timezone.now())


@csrf_exempt
@require_POST
def login(request):
    body = _body(request)
    if body is None:
        return _failure(400, "VALIDATION_ERROR", "Body must be a JSON object or form fields.",
                        fields=["username", "password"])
    identifier = body.get("username") or body.get("email")
    password = body.get("password")
    missing = [name for name, value in (("username", identifier), ("password", password))
               if not isinstance(value, str) or not value]
    if missing:
        return _failure(400, "VALIDATION_ERROR", "Missing fields.", fields=missing)
    username = identifier
    if "@" in identifier and not get_user_model().objects.filter(username=identifier).exists():
        match = get_user_model().objects.filter(email__iexact=identifier).first()
        if match is not None:
            username = match.get_username()
    user = authenticate(request, username=username, password=password)
    if user is None or not user.is_active:
        # Deliberately a 200: some APIs report a failed login only in the body.
        return _failure(200, "BAD_LOGIN", "Invalid username or password.")
    with transaction.atomic():
        data = _issue(user, secrets.token_hex(16))
    return JsonResponse({"success": True, "data": data}, json_dumps_params={"ensure_ascii": False})


@csrf_exempt
@require_POST
def refresh(request):
    body = _body(request)
    presented = body.get("refreshToken") if body else None
    if not isinstance(presented, str) or not presented:
        return _failure(400, "VALIDATION_ERROR", "Missing fields.", fields=["refreshToken"])
    now = timezone.now()
    with transaction.atomic():
        row = ApiToken.objects.filter(kind=ApiToken.REFRESH, token_hash=token_hash(presented)).first()
        if row is None:
            return _failure(401, "INVALID_REFRESH_TOKEN", "Unknown refresh token.")
        if row.used is not None or row.revoked is not None:
            if row.used is not None:
                _revoke_family(row.family)  # reuse of a rotated token: kill the family
            return _failure(401, "INVALID_REFRESH_TOKEN", "Refresh token is no longer valid.")
        if row.expires <= now:
            return _failure(401, "INVALID_REFRESH_TOKEN", "Refresh token expired.")
        row.used = now
        row.save(update_fields=["used"])
        data = _issue(row.user, row.family)
    return JsonResponse({"success": True, "data": data}, json_dumps_params={"ensure_ascii": False})


@csrf_exempt
@require_POST
def logout(request):
    body = _body(request) or {}
    access = _bearer(request)
    presented = body.get("refreshToken") if isinstance(body.get("refreshToken"), str) else None
    if not access and not presented:
        return _failure(400, "VALIDATION_ERROR", "Send the access token or the refresh token.",
                        fields=["refreshToken"])
    families = set()
    for kind, value in ((ApiToken.ACCESS, access), (ApiToken.REFRESH, presented)):
        if value:
            row = ApiToken.objects.filter(kind=kind, token_hash=token_hash(value)).first()
            if row is not None:
                families.add(row.family)
    with transaction.atomic():
        for family in families:
            _revoke_family(family)
    return JsonResponse({"success": True})


def _authenticated_user(request):
    token = _bearer(request)
    if token is None:
        return None, _failure(401, "UNAUTHORIZED", "Missing bearer token.")
    row = ApiToken.objects.select_related("user").filter(
        kind=ApiToken.ACCESS, token_hash=token_hash(token)).first()
    if row is None or row.revoked is not None or not row.user.is_active:
        return None, _failure(401, "UNAUTHORIZED", "Invalid token.")
    if row.expires <= timezone.now():
        response = _failure(401, "TOKEN_EXPIRED", "Access token expired.")
        response["WWW-Authenticate"] = 'Bearer error="invalid_token"'
        return None, response
    return row.user, None


@csrf_exempt
@require_GET
def me(request):
    user, failure = _authenticated_user(request)
    if failure is not None:
        return failure
    return JsonResponse({"success": True, "data": {"user": user_json(user)}},
                        json_dumps_params={"ensure_ascii": False})
