/// Settings of the `oauth2` provider: an OAuth 2.0 / OpenID Connect authorization server, found through
/// discovery (`<issuer>/.well-known/openid-configuration`) or through explicit `endpoints`.
///
/// ```json
/// "oauth2": {"issuer": "https://id.example.com", "clientId": "my-app", "clientSecret": "…",
///            "scopes": ["openid", "profile", "email"], "allowPasswordGrant": false,
///            "endpoints": {"token": "…", "revocation": "…", "userinfo": "…", "jwks": "…",
///                          "deviceAuthorization": "…", "authorization": "…"},
///            "flows": ["device", "authorizationCode"], "interactiveTimeoutSeconds": 300,
///            "idTokenLeewaySeconds": 60, "timeoutSeconds": 30}
/// ```
///
/// Every URL is `https://`, or `http://` to a loopback host. Interactive hosts log in with `login {flow}`:
/// the device authorization grant (RFC 8628, `"device"`) or the authorization code grant with PKCE and a
/// loopback redirect (RFC 8252, `"authorizationCode"`); `flows` lists the ones the profile allows (both by
/// default). Logging in with a password uses the resource owner password grant, which RFC 9700 §2.4 forbids
/// by default: a profile must opt in with `allowPasswordGrant`.
package struct OAuth2ProviderConfig: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  package static let defaultScopes = ["openid", "profile", "email"]
  /// Clock skew accepted on an ID token's times: 60 s by default (auth0's libraries), at most 300 s (.NET's
  /// default, the most lenient one in common use); more would keep a stolen, expired token usable.
  package static let idTokenLeewaySecondsRange = 0...300
  package static let defaultIDTokenLeewaySeconds = 60
  package static let timeoutSecondsRange = 1...30
  /// A whole request, retries included, takes at most 30 s: a host waiting on a login must get an answer.
  package static let defaultTimeoutSeconds = 30
  /// How long an interactive login waits for the user: at least long enough to type a code, at most an hour.
  package static let interactiveTimeoutSecondsRange = 10...3600
  package static let defaultInteractiveTimeoutSeconds = 300

  /// Endpoints named in the config instead of discovered.
  package struct Endpoints: Sendable, Equatable {
    package let token: String
    /// RFC 7009; without it, logout clears the session locally only.
    package let revocation: String?
    /// OIDC Core §5.3; without it, the user comes from the ID token only.
    package let userinfo: String?
    /// The issuer's keys; required when `scopes` has `openid`, since ID tokens are then verified.
    package let jwks: String?
    /// RFC 8628 §3.1; the device flow needs it.
    package let deviceAuthorization: String?
    /// RFC 6749 §3.1; the authorization code flow needs it.
    package let authorization: String?

    package init(
      token: String, revocation: String? = nil, userinfo: String? = nil, jwks: String? = nil,
      deviceAuthorization: String? = nil, authorization: String? = nil
    ) {
      self.token = token
      self.revocation = revocation
      self.userinfo = userinfo
      self.jwks = jwks
      self.deviceAuthorization = deviceAuthorization
      self.authorization = authorization
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
  /// The interactive flows the profile allows (`LoginFlow.interactive` members), in config order.
  package let flows: [LoginFlow]
  /// How long an interactive login waits for the user.
  package let interactiveTimeoutSeconds: Int

  /// - Important: the numbers must lie in their ranges and the URLs pass the transport rules; the loader
  ///   checks all of them for files.
  package init(
    issuer: String, clientID: String, clientSecret: String? = nil, scopes: [String] = defaultScopes,
    allowPasswordGrant: Bool = false, endpoints: Endpoints? = nil,
    idTokenLeewaySeconds: Int = defaultIDTokenLeewaySeconds, timeoutSeconds: Int = defaultTimeoutSeconds,
    flows: [LoginFlow] = LoginFlow.interactive, interactiveTimeoutSeconds: Int = defaultInteractiveTimeoutSeconds
  ) {
    precondition(Self.idTokenLeewaySecondsRange.contains(idTokenLeewaySeconds), "idTokenLeewaySeconds out of range")
    precondition(Self.timeoutSecondsRange.contains(timeoutSeconds), "timeoutSeconds out of range")
    precondition(flows.allSatisfy(\.isInteractive), "flows are the interactive ones")
    precondition(
      Self.interactiveTimeoutSecondsRange.contains(interactiveTimeoutSeconds), "interactiveTimeoutSeconds out of range")
    self.issuer = issuer
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.scopes = scopes
    self.allowPasswordGrant = allowPasswordGrant
    self.endpoints = endpoints
    self.idTokenLeewaySeconds = idTokenLeewaySeconds
    self.timeoutSeconds = timeoutSeconds
    self.flows = flows
    self.interactiveTimeoutSeconds = interactiveTimeoutSeconds
  }

  /// The client secret never appears: this may be printed or logged.
  package var description: String {
    "OAuth2ProviderConfig(issuer: \(issuer), clientID: \(clientID), clientSecret: "
      + (clientSecret == nil ? "nil" : "<redacted>") + ", scopes: \(scopes), "
      + "allowPasswordGrant: \(allowPasswordGrant), flows: \(flows.map(\.rawValue)))"
  }

  /// Keeps `dump` and debuggers from walking into the client secret.
  package var customMirror: Mirror {
    Mirror(self, children: ["issuer": issuer, "clientID": clientID, "scopes": scopes], displayStyle: .struct)
  }
}
