"""URL map of the test auth servers (one Django project, one port)."""
from django.urls import include, path, re_path
from rest_framework_simplejwt.views import (
    TokenBlacklistView,
    TokenObtainPairView,
    TokenRefreshView,
    TokenVerifyView,
)

from authservers.core import anyapi, codeapi, forms_views, legacyapis, oauth, restapi, testctl

urlpatterns = [
    # rest: Django REST framework + SimpleJWT (rotation + blacklist)
    path("api/token/", TokenObtainPairView.as_view()),
    path("api/token/refresh/", TokenRefreshView.as_view()),
    path("api/token/blacklist/", TokenBlacklistView.as_view()),
    path("api/token/verify/", TokenVerifyView.as_view()),
    path("api/me/", restapi.MeView.as_view()),
    # rest: an "any API" style login API with another response shape
    path("auth/login", anyapi.login),
    path("auth/refresh", anyapi.refresh),
    path("auth/logout", anyapi.logout),
    path("auth/me", anyapi.me),
    # oauth2: django-oauth-toolkit; discovery extended with revocation/device endpoints
    re_path(r"^o/\.well-known/openid-configuration/?$", oauth.DiscoveryView.as_view()),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    # form: Django's own login form, a profile page, logout
    path("accounts/login/", forms_views.LoginView.as_view(), name="login"),
    path("accounts/login-elsewhere/", forms_views.LoginElsewhereView.as_view()),
    path("accounts/login-offsite/", forms_views.LoginOffsiteView.as_view()),
    path("accounts/logout/", forms_views.auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/profile/", forms_views.profile),
    path("accounts/profile.json", forms_views.profile_json),
    # rest: older backends' shapes (flag answers, never-expiring tokens, e-mail in any script)
    path("php/login.php", legacyapis.php_login),
    path("php/login_rsa.php", legacyapis.php_login_rsa),
    path("php/login_oaep.php", legacyapis.php_login_oaep),
    path("php/public_key.pem", legacyapis.php_public_key),
    path("simple/login", legacyapis.simple_login),
    path("simple/me", legacyapis.simple_me),
    path("simple/logout", legacyapis.simple_logout),
    path("mail/session", legacyapis.mail_session),
    path("mail/me", legacyapis.mail_me),
    # rest: a phone-first API that demands SMS codes after repeated wrong passwords
    path("sms/login", codeapi.login),
    path("sms/send", codeapi.send),
    path("sms/verify", codeapi.verify),
    path("sms/login_code", codeapi.login_code),
    path("sms/reset", codeapi.reset),
    path("sms/refresh", codeapi.refresh),
    path("sms/me", codeapi.me),
    # test controls
    path("_test/faults", testctl.faults),
    path("_test/counters", testctl.counters),
    path("_test/reset", testctl.reset),
    path("_test/users", testctl.users),
    path("_test/device/approve", testctl.device_approve),
    path("_test/session", testctl.session),
    path("_test/expire", testctl.expire),
    path("_test/info", testctl.info),
    path("_test/legacy/received", legacyapis.received),
    path("_test/legacy/revoke", legacyapis.revoke),
    path("_test/sms/outbox", codeapi.outbox),
    path("_test/sms/clock", codeapi.clock),
    path("_test/sms/users", codeapi.users),
]
