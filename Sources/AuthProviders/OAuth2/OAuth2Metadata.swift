import AuthCrypto
import AuthJSON
import AuthSupport
import Synchronization

/// Where the server's endpoints are and which ID-token algorithms it signs with: from the discovery document
/// (OIDC Discovery 1.0 §3) or from the profile's explicit endpoints.
struct OAuth2Metadata: Sendable, Equatable {
  /// The only algorithms an ID token may use: asymmetric, verified with the issuer's JWKS. `none` and `HS*` are
  /// never accepted, whatever the server announces or the token's header says (RFC 8725 §3.1–3.2): `none` would
  /// skip the check, and `HS*` would let a token signed with the public key pass as a key-confusion forgery.
  static let verifiableAlgorithms: [JWSAlgorithm] = [.rs256, .es256]

  var tokenEndpoint: String
  var revocationEndpoint: String?
  var userinfoEndpoint: String?
  var jwksURI: String?
  /// RFC 8628 §4 `device_authorization_endpoint`.
  var deviceAuthorizationEndpoint: String?
  /// RFC 8414 §2 `authorization_endpoint`.
  var authorizationEndpoint: String?
  /// `verifiableAlgorithms` that the issuer announces in `id_token_signing_alg_values_supported`.
  var idTokenAlgorithms: [JWSAlgorithm]

  /// Explicit endpoints: no document announces algorithms, so both verifiable ones are allowed.
  init(_ endpoints: OAuth2Settings.Endpoints) {
    tokenEndpoint = endpoints.token
    revocationEndpoint = endpoints.revocation
    userinfoEndpoint = endpoints.userinfo
    jwksURI = endpoints.jwks
    deviceAuthorizationEndpoint = endpoints.deviceAuthorization
    authorizationEndpoint = endpoints.authorization
    idTokenAlgorithms = Self.verifiableAlgorithms
  }

  init(
    tokenEndpoint: String, revocationEndpoint: String? = nil, userinfoEndpoint: String? = nil, jwksURI: String? = nil,
    deviceAuthorizationEndpoint: String? = nil, authorizationEndpoint: String? = nil,
    idTokenAlgorithms: [JWSAlgorithm] = verifiableAlgorithms
  ) {
    self.tokenEndpoint = tokenEndpoint
    self.revocationEndpoint = revocationEndpoint
    self.userinfoEndpoint = userinfoEndpoint
    self.jwksURI = jwksURI
    self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
    self.authorizationEndpoint = authorizationEndpoint
    self.idTokenAlgorithms = idTokenAlgorithms
  }

  /// Reads a discovery document strictly: its `issuer` must equal the configured one exactly (OIDC Discovery
  /// §4.3, against a document served for another issuer), and every endpoint must pass the transport rule.
  /// - Throws: `ProviderError.badResponse`.
  static func parse(discovery body: [UInt8], issuer: String) throws(ProviderError) -> OAuth2Metadata {
    guard case .object(let document)? = try? JSONParser.parse(body) else {
      throw ProviderError(.badResponse, "discovery document is not a JSON object")
    }
    guard document["issuer"]?.stringValue == issuer else {
      throw ProviderError(.badResponse, "discovery document names another issuer")
    }
    guard let token = try endpoint("token_endpoint", in: document) else {
      throw ProviderError(.badResponse, "discovery document has no token_endpoint")
    }
    // OIDC Discovery §3: REQUIRED; an issuer that leaves it out signs with RS256, the OIDC default.
    var announced: [JWSAlgorithm] = [.rs256]
    if let values = document["id_token_signing_alg_values_supported"] {
      guard let list = values.arrayValue else {
        throw ProviderError(.badResponse, "id_token_signing_alg_values_supported is not an array")
      }
      announced = list.compactMap { $0.stringValue.flatMap(JWSAlgorithm.init(rawValue:)) }
    }
    return OAuth2Metadata(
      tokenEndpoint: token,
      revocationEndpoint: try endpoint("revocation_endpoint", in: document),
      userinfoEndpoint: try endpoint("userinfo_endpoint", in: document),
      jwksURI: try endpoint("jwks_uri", in: document),
      deviceAuthorizationEndpoint: try endpoint("device_authorization_endpoint", in: document),
      authorizationEndpoint: try endpoint("authorization_endpoint", in: document),
      idTokenAlgorithms: verifiableAlgorithms.filter(announced.contains))
  }

  private static func endpoint(_ key: String, in document: JSONObject) throws(ProviderError) -> String? {
    guard let value = document[key] else { return nil }
    guard let url = value.stringValue, OAuth2URL.isAcceptable(url) else {
      throw ProviderError(.badResponse, "discovery \(key) is not an https:// (or loopback http://) URL")
    }
    return url
  }
}

/// A value fetched on first use and kept for the life of the process, with one fetch in flight at a time:
/// concurrent callers share it, and a failed fetch is not cached (the next caller tries again).
actor FetchOnce<Value: Sendable> {
  private let fetch: @Sendable () async throws -> Value
  private var cached: (value: Value, version: Int)?
  private var inFlight: Task<Value, any Error>?
  private var version = 0
  /// With `cooldown`: when the cached value was fetched, by `clock`.
  private let clock: (any Clock)?
  private let cooldown: Int64
  private var fetchedAt: Int64 = .min

  /// - Parameter cooldown: seconds after a fetch during which `refetch` answers from the cache: a refetch
  ///   triggered by what a server sends (an ID token naming an unknown key) must not become one request per token.
  init(cooldown: Int64 = 0, clock: (any Clock)? = nil, _ fetch: @escaping @Sendable () async throws -> Value) {
    self.fetch = fetch
    self.clock = clock
    self.cooldown = cooldown
  }

  /// The cached value and its version, fetching it if there is none yet.
  func get() async throws -> (value: Value, version: Int) {
    if let cached { return cached }
    return try await load()
  }

  /// The value if it was fetched already; never fetches.
  var fetched: Value? { cached?.value }

  /// Fetches again, unless a fetch newer than `seen` (a version `get` returned) already happened.
  /// Within the cooldown of the last fetch, the cached value is the answer.
  func refetch(after seen: Int) async throws -> (value: Value, version: Int) {
    if let cached, cached.version > seen { return cached }
    if let cached, let clock, clock.now() - fetchedAt < cooldown { return cached }
    return try await load()
  }

  private func load() async throws -> (value: Value, version: Int) {
    let task: Task<Value, any Error>
    if let inFlight {
      task = inFlight
    } else {
      task = Task { [fetch] in try await fetch() }
      inFlight = task
    }
    do {
      let value = try await task.value
      if inFlight == task {
        inFlight = nil
        version += 1
        cached = (value, version)
        fetchedAt = clock?.now() ?? .min
      }
      return cached ?? (value, version)
    } catch {
      if inFlight == task { inFlight = nil }
      throw error
    }
  }
}

/// Discovery documents and key sets shared by every `oauth2` profile of the process, keyed by issuer and by
/// JWKS URL: profiles on one server fetch each once.
package final class OAuth2Directory: Sendable {
  private let documents = Mutex<[String: FetchOnce<OAuth2Metadata>]>([:])
  private let keySets = Mutex<[String: FetchOnce<JSONWebKeySet>]>([:])

  package init() {}

  func metadata(issuer: String, _ fetch: @escaping @Sendable () async throws -> OAuth2Metadata)
    -> FetchOnce<OAuth2Metadata>
  {
    documents.withLock { documents in
      if let known = documents[issuer] { return known }
      let created = FetchOnce(fetch)
      documents[issuer] = created
      return created
    }
  }

  /// A key set is fetched again for an unknown key at most once a minute: enough for a real key rotation, and an
  /// issuer (or whoever feeds us tokens) naming made-up keys cannot turn each token into a JWKS request.
  static let keySetCooldown: Int64 = 60

  func keys(at url: String, clock: any Clock, _ fetch: @escaping @Sendable () async throws -> JSONWebKeySet)
    -> FetchOnce<JSONWebKeySet>
  {
    keySets.withLock { keySets in
      if let known = keySets[url] { return known }
      let created = FetchOnce(cooldown: Self.keySetCooldown, clock: clock, fetch)
      keySets[url] = created
      return created
    }
  }
}
