"""django-oauth-toolkit customisations: standard claims, id_tokens for every grant, fuller discovery.

* `Validator` adds the standard profile/email claims (to the id_token and /o/userinfo/, each
  gated by its scope as usual).
* `OpenIDServer` is oauthlib's OpenID Connect server with the password and device-code grants
  wrapped like its authorization-code grant, so they too return an `id_token` when the scope
  contains `openid` (stock oauthlib only does that for the code/implicit/hybrid/refresh grants).
* `DiscoveryView` is the toolkit's /o/.well-known/openid-configuration plus the endpoints that
  document does not list but the toolkit serves: revocation (RFC 7009), introspection (RFC 7662),
  device authorization (RFC 8628), and `grant_types_supported`.
"""
import json

from django.urls import reverse
from oauthlib.oauth2.rfc6749.grant_types import ResourceOwnerPasswordCredentialsGrant
from oauthlib.oauth2.rfc8628.grant_types import DeviceCodeGrant
from oauthlib.openid import Server as _OIDCServer
from oauthlib.openid.connect.core.grant_types.base import GrantTypeBase
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.views.oidc import ConnectDiscoveryInfoView

DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code"


class Validator(OAuth2Validator):
    # Request-agnostic form (a single `self` parameter): the toolkit then also lists these
    # claims in discovery's `claims_supported`.
    def get_additional_claims(self):
        return {
            "preferred_username": lambda request: request.user.get_username(),
            "name": lambda request: request.user.get_full_name() or request.user.get_username(),
            "given_name": lambda request: request.user.first_name,
            "family_name": lambda request: request.user.last_name,
            "email": lambda request: request.user.email,
            "email_verified": lambda request: bool(request.user.email),
        }


class _IDTokenMinter(GrantTypeBase):
    """oauthlib's OpenID Connect id_token logic (at_hash, signing via the validator)."""

    def __init__(self, proxy_target):
        self.proxy_target = proxy_target


class _TokenHandlerWithIDToken:
    """Wraps a token handler: every token it creates gets an id_token when scope has openid."""

    def __init__(self, handler, minter):
        self._handler = handler
        self._minter = minter

    def create_token(self, request, refresh_token=False, **kwargs):
        token = self._handler.create_token(request, refresh_token, **kwargs)
        return self._minter.add_id_token(token, self._handler, request)

    def __getattr__(self, name):
        return getattr(self._handler, name)


class _OpenIDPasswordGrant(ResourceOwnerPasswordCredentialsGrant):
    def create_token_response(self, request, token_handler):
        handler = _TokenHandlerWithIDToken(token_handler, _IDTokenMinter(self))
        return super().create_token_response(request, handler)


class _OpenIDDeviceCodeGrant(DeviceCodeGrant):
    def create_token_response(self, request, token_handler):
        handler = _TokenHandlerWithIDToken(token_handler, _IDTokenMinter(self))
        return super().create_token_response(request, handler)


class OpenIDServer(_OIDCServer):
    def __init__(self, request_validator, *args, **kwargs):
        super().__init__(request_validator, *args, **kwargs)
        self.password_grant = _OpenIDPasswordGrant(request_validator)
        # kwargs carry the toolkit's pre_token hook that binds the approving user to the grant
        self.device_code_grant = _OpenIDDeviceCodeGrant(request_validator, **kwargs)
        self.grant_types["password"] = self.password_grant
        self.grant_types[DEVICE_CODE] = self.device_code_grant


class DiscoveryView(ConnectDiscoveryInfoView):
    def get(self, request, *args, **kwargs):
        response = super().get(request, *args, **kwargs)
        data = json.loads(response.content)
        base = data["issuer"]  # OIDC_ISS_ENDPOINT, e.g. http://127.0.0.1:PORT/o
        origin = base[: -len("/o")] if base.endswith("/o") else base
        data["revocation_endpoint"] = origin + reverse("oauth2_provider:revoke-token")
        data["introspection_endpoint"] = origin + reverse("oauth2_provider:introspect")
        data["device_authorization_endpoint"] = origin + reverse("oauth2_provider:device-authorization")
        data["grant_types_supported"] = [
            "authorization_code", "password", "refresh_token", "client_credentials", DEVICE_CODE,
        ]
        data["revocation_endpoint_auth_methods_supported"] = data["token_endpoint_auth_methods_supported"]
        response.content = json.dumps(data).encode("utf-8")
        response["Content-Length"] = str(len(response.content))
        return response
