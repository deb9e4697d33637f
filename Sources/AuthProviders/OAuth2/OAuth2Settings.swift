import AuthConfig
import AuthCrypto

/// What `OAuth2Provider` needs to know about its server and client, built by the executable from the
/// profile's `oauth2` config: the client secret in wiped storage, durations as the provider uses them.
package struct OAuth2Settings: Sendable {
  /// Endpoints named in the config instead of discovered: the config's own type, nothing to translate.
  package typealias Endpoints = OAuth2ProviderConfig.Endpoints

  /// Compared exactly with the discovery document's and the ID tokens' `iss`.
  package var issuer: String
  package var clientID: String
  /// A confidential client's secret (sent with HTTP Basic); nil for a public client.
  package var clientSecret: SecretBytes?
  package var scopes: [String]
  /// RFC 9700 §2.4 forbids the password grant unless the profile opts in.
  package var allowPasswordGrant: Bool
  /// nil: discover them from `<issuer>/.well-known/openid-configuration`.
  package var endpoints: Endpoints?
  /// Clock skew accepted on an ID token's `exp` and `iat`, in seconds.
  package var idTokenLeeway: Int64
  /// The longest one request may take, retries included.
  package var timeout: Duration
  /// The interactive flows the profile allows.
  package var flows: [LoginFlow]
  /// How long an interactive login waits for the user, in seconds (a device code's own lifetime may be
  /// shorter).
  package var interactiveTimeout: Int64

  package init(
    issuer: String, clientID: String, clientSecret: SecretBytes? = nil, scopes: [String] = ["openid"],
    allowPasswordGrant: Bool = false, endpoints: Endpoints? = nil, idTokenLeeway: Int64 = 60,
    timeout: Duration = .seconds(30), flows: [LoginFlow] = LoginFlow.interactive,
    interactiveTimeout: Int64 = 300
  ) {
    self.issuer = issuer
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.scopes = scopes
    self.allowPasswordGrant = allowPasswordGrant
    self.endpoints = endpoints
    self.idTokenLeeway = idTokenLeeway
    self.timeout = timeout
    self.flows = flows
    self.interactiveTimeout = interactiveTimeout
  }
}
