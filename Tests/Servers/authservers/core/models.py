"""Tokens of the "any API" style login endpoints (/auth/*): opaque, stored hashed."""
import hashlib
import secrets

from django.conf import settings
from django.db import models


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(32)


class ApiToken(models.Model):
    ACCESS = "access"
    REFRESH = "refresh"
    KINDS = ((ACCESS, "access"), (REFRESH, "refresh"))

    kind = models.CharField(max_length=8, choices=KINDS)
    token_hash = models.CharField(max_length=64, unique=True)
    # Every token minted from one login shares a family; replaying a used refresh token
    # revokes the whole family (reuse detection).
    family = models.CharField(max_length=64, db_index=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    created = models.DateTimeField(auto_now_add=True)
    expires = models.DateTimeField()
    used = models.DateTimeField(null=True, blank=True)  # refresh tokens: when rotated
    revoked = models.DateTimeField(null=True, blank=True)
