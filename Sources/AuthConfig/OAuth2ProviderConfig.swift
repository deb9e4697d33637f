/// Settings of the `oauth2` provider: an OAuth 2.0 / OpenID Connect authorization server, found through
/// discovery (`<issuer>/.well-known/openid-configuration`) or through explicit `endpoints`.
///
/// ```json
/// "oauth2": {"issuer": "https://id.example.com", "clientId": "my-app", "clientSecret": "…",
///            "scopes": ["openid", "profile", "email"], "allowPasswordGrant": false,
///            "endpoints": {"token": "…", "revocation": "…", "userinfo": "…", "jwks": "…"},
///            "idTokenLeewaySeconds": 60, "timeoutSeconds": 30}
/// ```
///
/// Every URL is `https://`, or `http://` to a loopback host. Logging in with a password uses the resource
/// owner password grant, which RFC 9700 §2.4 forbids by default: a profile must opt in with
/// `allowPasswordGrant`. The device authorization grant (RFC 8628) and the authorization code grant with
/// PKCE and a loopback redirect (RFC 8252) are a later step; until then a profile without the opt-in
/// cannot log in (`unsupported`).
package struct OAuth2ProviderConfig: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  package static let defaultScopes = ["openid", "profile", "email"]
  /// security.md P10: 60 s by default, at most 300 s (the .NET default, the most lenient one seen).
  package static let idTokenLeewaySecondsRange = 0...300
  package static let defaultIDTokenLeewaySeconds = 60
  package static let timeoutSecondsRange = 1...30
  /// PRODUCT §6: a whole request, retries included, takes at most 30 s.
  package static let defaultTimeoutSeconds = 30

  /// Endpoints named in the config instead of discovered.
  package struct Endpoints: Sendable, Equatable {
    package let token: String
    /// RFC 7009; without it, logout clears the session locally only.
    package let revocation: String?
    /// OIDC Core §5.3; without it, the user comes from the ID token only.
    package let userinfo: String?
    /// The issuer's keys; required when `scopes` has `openid`, since ID tokens are then verified.
    package let jwks: String?

    package init(token: String, revocation: String? = nil, userinfo: String? = nil, jwks: String? = nil) {
      self.token = token
      self.revocation = revocation
      self.userinfo = userinfo
      self.jwks = jwks
    }
  }

  /// Compared exactly with the discovery document's and the ID tokens' `iss`.
  package let issuer: String
  package let clientID: String
  /// Present for a confidential client (sent with HTTP Basic); absent for a public one.
  package let clientSecret: String?
  package let scopes: [String]
  /// Opt-in to the resource owner password grant (RFC 9700 §2.4 forbids it by default).
  package let allowPasswordGrant: Bool
  /// Explicit endpoints, used instead of discovery; nil discovers them from `issuer`.
  package let endpoints: Endpoints?
  package let idTokenLeewaySeconds: Int
  /// The longest one request to the server may take, retries included.
  package let timeoutSeconds: Int

  /// - Important: the numbers must lie in their ranges and the URLs pass the transport rules; the loader
  ///   checks all of them for files.
  package init(
    issuer: String, clientID: String, clientSecret: String? = nil, scopes: [String] = defaultScopes,
    allowPasswordGrant: Bool = false, endpoints: Endpoints? = nil,
    idTokenLeewaySeconds: Int = defaultIDTokenLeewaySeconds, timeoutSeconds: Int = defaultTimeoutSeconds
  ) {
    precondition(Self.idTokenLeewaySecondsRange.contains(idTokenLeewaySeconds), "idTokenLeewaySeconds out of range")
    precondition(Self.timeoutSecondsRange.contains(timeoutSeconds), "timeoutSeconds out of range")
    self.issuer = issuer
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.scopes = scopes
    self.allowPasswordGrant = allowPasswordGrant
    self.endpoints = endpoints
    self.idTokenLeewaySeconds = idTokenLeewaySeconds
    self.timeoutSeconds = timeoutSeconds
  }

  /// The client secret never appears: this may be printed or logged.
  package var description: String {
    "OAuth2ProviderConfig(issuer: \(issuer), clientID: \(clientID), clientSecret: "
      + (clientSecret == nil ? "nil" : "<redacted>") + ", scopes: \(scopes), allowPasswordGrant: \(allowPasswordGrant))"
  }

  /// Keeps `dump` and debuggers from walking into the client secret.
  package var customMirror: Mirror {
    Mirror(self, children: ["issuer": issuer, "clientID": clientID, "scopes": scopes], displayStyle: .struct)
  }
}
