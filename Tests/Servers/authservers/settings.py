"""Settings for the integration-test auth servers, read from the environment.

Everything that differs between runs comes from environment variables so each run is isolated
(serve.py sets them before Django starts):

  AUTHSERVERS_DB               SQLite database path (in the run's temp dir). Required.
  AUTHSERVERS_BASE_URL         http://127.0.0.1:<port>, the URL the server is reachable at. Required.
  AUTHSERVERS_SECRET_KEY       Django SECRET_KEY (and SimpleJWT's HS256 key); random when unset.
  AUTHSERVERS_RSA_KEY_FILE     PEM file with the OIDC RS256 private key (generated per run).
  ACCESS_TOKEN_SECONDS         access-token lifetime of all three token APIs (SimpleJWT,
                               /auth/* and OAuth2); default 300.
  REFRESH_TOKEN_SECONDS        refresh-token lifetime (SimpleJWT, /auth/*; OAuth2: measured from
                               the paired access token's expiry); default 86400.
  SESSION_SECONDS              form-login session lifetime; default 1209600 (Django's).
  OAUTH2_REUSE_PROTECTION      1 (default): replaying a rotated OAuth2 refresh token revokes
                               its whole family; 0: only the replayed token is rejected.
  OFFSITE_ORIGIN               where /accounts/login-elsewhere/ redirects; default
                               http://127.0.0.2:1 (nothing listens there).
  AUTHSERVERS_ACCESS_LOG       1 (default): one line per request on stderr.
  AUTHSERVERS_MIGRATIONS       0 (default): create the tables straight from the models
                               (`migrate --run-syncdb`, ~0.1 s); 1: run every app's migrations
                               (~1.7 s). The schema is the same; the empty DB needs no data
                               migration.
"""
import os
import secrets


def _env_int(name, default):
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


BASE_URL = os.environ.get("AUTHSERVERS_BASE_URL", "http://127.0.0.1:8000").rstrip("/")
ACCESS_TOKEN_SECONDS = _env_int("ACCESS_TOKEN_SECONDS", 300)
REFRESH_TOKEN_SECONDS = _env_int("REFRESH_TOKEN_SECONDS", 86400)
SESSION_SECONDS = _env_int("SESSION_SECONDS", 1209600)
OFFSITE_ORIGIN = os.environ.get("OFFSITE_ORIGIN", "http://127.0.0.2:1").rstrip("/")
ACCESS_LOG = os.environ.get("AUTHSERVERS_ACCESS_LOG", "1") != "0"

SECRET_KEY = os.environ.get("AUTHSERVERS_SECRET_KEY") or secrets.token_urlsafe(50)
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.sessions",
    "rest_framework",
    "rest_framework_simplejwt.token_blacklist",
    "oauth2_provider",
    "authservers.core",
]

MIDDLEWARE = [
    # Outermost: /_test/* controls, injected faults, counters, serialised refresh grants.
    "authservers.core.testctl.TestControlMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
# No CommonMiddleware: a POST to a URL without its trailing slash is a plain 404, never a
# redirect that would drop the body.
APPEND_SLASH = False

ROOT_URLCONF = "authservers.urls"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
            ],
        },
    },
]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("AUTHSERVERS_DB", ":memory:"),
        # Many server threads, one file: WAL, a long busy timeout and IMMEDIATE transactions
        # (writers queue for the lock up front instead of failing with "database is locked").
        "OPTIONS": {
            "timeout": 30,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
        "CONN_MAX_AGE": None,
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_MIGRATIONS = os.environ.get("AUTHSERVERS_MIGRATIONS", "0") == "1"
if not USE_MIGRATIONS:
    MIGRATION_MODULES = {label: None for label in (
        "contenttypes", "auth", "sessions", "token_blacklist", "oauth2_provider", "core")}

# Real Django PBKDF2-SHA256, with fewer iterations than production so seeding and the many
# logins of a test run stay fast. The protocol behaviour is identical.
PASSWORD_HASHERS = [
    "authservers.core.hashers.TestPBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = []

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "/static/"

# --- form login -------------------------------------------------------------------------------
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/accounts/profile/"
LOGOUT_REDIRECT_URL = "/accounts/login/"
SESSION_COOKIE_AGE = SESSION_SECONDS
SESSION_COOKIE_SECURE = False  # plain http on loopback
CSRF_COOKIE_SECURE = False
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# --- Django REST framework + SimpleJWT --------------------------------------------------------
from datetime import timedelta  # noqa: E402

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework_simplejwt.authentication.JWTAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "rest_framework.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
    ],
    "UNAUTHENTICATED_USER": None,
}
SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(seconds=ACCESS_TOKEN_SECONDS),
    "REFRESH_TOKEN_LIFETIME": timedelta(seconds=REFRESH_TOKEN_SECONDS),
    "ROTATE_REFRESH_TOKENS": True,
    "BLACKLIST_AFTER_ROTATION": True,
    "UPDATE_LAST_LOGIN": True,
    "ALGORITHM": "HS256",
    "SIGNING_KEY": SECRET_KEY,
    "AUTH_HEADER_TYPES": ("Bearer",),
}

# --- django-oauth-toolkit (OAuth 2 + OpenID Connect) ------------------------------------------
_rsa_key_file = os.environ.get("AUTHSERVERS_RSA_KEY_FILE", "")
if _rsa_key_file:
    with open(_rsa_key_file, encoding="ascii") as handle:
        OIDC_RSA_PRIVATE_KEY = handle.read()
else:
    from authservers.keys import generate_rsa_pem  # noqa: E402

    OIDC_RSA_PRIVATE_KEY = generate_rsa_pem()

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": OIDC_RSA_PRIVATE_KEY,
    "OIDC_ISS_ENDPOINT": BASE_URL + "/o",
    "SCOPES": {
        "openid": "OpenID Connect",
        "profile": "Your name and username",
        "email": "Your email address",
        "read": "Read access",
        "write": "Write access",
    },
    "DEFAULT_SCOPES": ["read"],
    "ACCESS_TOKEN_EXPIRE_SECONDS": ACCESS_TOKEN_SECONDS,
    "ID_TOKEN_EXPIRE_SECONDS": max(ACCESS_TOKEN_SECONDS, 60),
    "REFRESH_TOKEN_EXPIRE_SECONDS": REFRESH_TOKEN_SECONDS,
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "REFRESH_TOKEN_REUSE_PROTECTION": os.environ.get("OAUTH2_REUSE_PROTECTION", "1") != "0",
    "PKCE_REQUIRED": True,
    "OIDC_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["client_secret_basic", "client_secret_post", "none"],
    "OAUTH_DEVICE_VERIFICATION_URI": BASE_URL + "/o/device/",
    "DEVICE_FLOW_INTERVAL": 1,
    "OAUTH2_VALIDATOR_CLASS": "authservers.core.oauth.Validator",
    "OIDC_SERVER_CLASS": "authservers.core.oauth.OpenIDServer",
}

# --- logging: everything to stderr ------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "authservers": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        "django.request": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        # django-oauth-toolkit warns on every password grant (RFC 9700); that's expected here.
        "oauth2_provider": {"handlers": ["stderr"], "level": "ERROR", "propagate": False},
        "waitress": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
    },
}
