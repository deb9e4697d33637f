"""Seed users and OAuth2 clients (run once per server start, after migrate)."""
from django.contrib.auth import get_user_model
from django.db import transaction

SEED_USERS = [
    {"username": "alice", "password": "correct horse battery staple", "email": "alice@example.com",
     "first_name": "Alice", "last_name": "Liddell", "is_active": True},
    {"username": "bob", "password": "hunter2-but-longer", "email": "bob@example.com",
     "first_name": "Bob", "last_name": "Builder", "is_active": True},
    {"username": "名字用户", "password": "correct horse battery staple", "email": "mingzi@example.com",
     "first_name": "名字", "last_name": "用户", "is_active": True},
    {"username": "mallory", "password": "correct horse battery staple", "email": "mallory@example.com",
     "first_name": "Mallory", "last_name": "Inactive", "is_active": False},
]

DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code"

# Each django-oauth-toolkit application allows exactly one grant type (plus refresh_token).
CLIENTS = [
    {"client_id": "sidecar-public", "client_secret": None, "client_type": "public",
     "grant_type": "password", "redirect_uris": []},
    {"client_id": "sidecar-confidential", "client_secret": "sidecar-confidential-secret",
     "client_type": "confidential", "grant_type": "password", "redirect_uris": []},
    {"client_id": "sidecar-device", "client_secret": None, "client_type": "public",
     "grant_type": DEVICE_CODE, "redirect_uris": []},
    # RFC 8252 loopback redirect: any port is accepted for 127.0.0.1 / [::1]; the path must match.
    {"client_id": "sidecar-native", "client_secret": None, "client_type": "public",
     "grant_type": "authorization_code",
     "redirect_uris": ["http://127.0.0.1/callback", "http://[::1]/callback", "http://127.0.0.1/"]},
]


def upsert_user(username, password, email="", first_name="", last_name="", is_active=True):
    model = get_user_model()
    user = model.objects.filter(username=username).first()
    created = user is None
    if created:
        user = model(username=username)
    user.email = email
    user.first_name = first_name
    user.last_name = last_name
    user.is_active = is_active
    user.set_password(password)
    user.save()
    return user, created


@transaction.atomic
def seed():
    from oauth2_provider.models import get_application_model

    for entry in SEED_USERS:
        upsert_user(**entry)

    application = get_application_model()
    grant_names = {
        "password": application.GRANT_PASSWORD,
        "authorization_code": application.GRANT_AUTHORIZATION_CODE,
        DEVICE_CODE: application.GRANT_DEVICE_CODE,
    }
    for client in CLIENTS:
        application.objects.create(
            client_id=client["client_id"],
            client_secret=client["client_secret"] or "",
            client_type=client["client_type"],
            authorization_grant_type=grant_names[client["grant_type"]],
            redirect_uris=" ".join(client["redirect_uris"]),
            name=client["client_id"],
            skip_authorization=True,
            algorithm=application.RS256_ALGORITHM,
        )
