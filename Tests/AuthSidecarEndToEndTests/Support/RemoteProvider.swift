import Testing

/// One remote provider (rest, oauth2, form) as the scenarios all of them share see it: its suite's harness, a
/// good login, a second profile, and where on its server each fault goes. What differs between providers is
/// here; the steps and checks are in RemoteProviderEndToEndTests.
struct RemoteProvider: Sendable, CustomTestStringConvertible {
  /// A request the sidecar sends to the server on a login of `profile`; faults are installed for it.
  struct Endpoint: Sendable {
    var profile = "default"
    let method: String
    let path: String
    /// The key of `/_test/counters`' `requests`.
    var requestKey: String { method + " " + path }
  }

  /// The lifetimes and timeout a scenario asks of the harness (a provider's config may fix some of them).
  struct Options: Sendable {
    var accessTokenSeconds = 300
    var refreshMarginSeconds = 60
    var timeoutSeconds = 10
  }

  let name: String
  /// A good login of alice on profile `default`.
  let credentials: [String: String]
  /// Another profile of the same server, logged in by the same credentials.
  let secondProfile: String
  /// Whether the session has an access token that runs out (so a getUser after its expiry goes to the server).
  /// The form provider's credential is a cookie of two weeks: its getUser goes to the server with `refresh: true`.
  let hasExpiringToken: Bool
  /// The first request of a login, where a 429 is met.
  let loginStart: Endpoint
  /// The request of a login that carries the password, where a 500 is met.
  let loginPost: Endpoint
  /// Where a stall is met, with the timeout configured for it; nil when the provider's config fixes its timeout.
  let stall: (endpoint: Endpoint, timeoutSeconds: Int)?
  /// A path the debug and trace logs show for a login.
  let loggedPath: String
  let makeHarness: @Sendable (_ name: String, _ options: Options) throws -> ServerHarness
  /// The secrets that stay inside the sidecar for both profiles (refresh tokens, cookies), read from the store.
  let storedSecrets: @Sendable (_ harness: ServerHarness, _ profiles: [String]) throws -> [String]

  var testDescription: String { name }

  func harness(_ scenario: String, _ options: Options = Options()) throws -> ServerHarness {
    try makeHarness(scenario, options)
  }

  /// The credentials on another profile, or with another password.
  func credentials(profile: String? = nil, password: String? = nil) -> [String: Any] {
    var params: [String: Any] = credentials
    if let profile { params["profile"] = profile }
    if let password { params["password"] = password }
    return params
  }

  static let all = [rest, oauth2, form]

  static let rest = RemoteProvider(
    name: "rest", credentials: RESTProviderEndToEndTests.alice, secondProfile: "anyapi", hasExpiringToken: true,
    loginStart: Endpoint(method: "POST", path: "/api/token/"),
    loginPost: Endpoint(profile: "anyapi", method: "POST", path: "/auth/login"),
    stall: (Endpoint(method: "POST", path: "/api/token/"), timeoutSeconds: 2), loggedPath: "/api/token/",
    makeHarness: { name, options in
      try RESTProviderEndToEndTests.Harness(
        name, accessTokenSeconds: options.accessTokenSeconds, refreshMarginSeconds: options.refreshMarginSeconds,
        timeoutSeconds: options.timeoutSeconds)
    },
    storedSecrets: refreshTokens)

  static let oauth2 = RemoteProvider(
    name: "oauth2", credentials: OAuth2ProviderEndToEndTests.alice, secondProfile: "confidential",
    hasExpiringToken: true, loginStart: Endpoint(method: "POST", path: "/o/token/"),
    loginPost: Endpoint(method: "POST", path: "/o/token/"), stall: nil, loggedPath: "/o/token/",
    makeHarness: { name, options in
      try OAuth2ProviderEndToEndTests.Harness(
        name, accessTokenSeconds: options.accessTokenSeconds, refreshMarginSeconds: options.refreshMarginSeconds)
    },
    storedSecrets: refreshTokens)

  static let form = RemoteProvider(
    name: "form", credentials: FormProviderEndToEndTests.alice, secondProfile: "json", hasExpiringToken: false,
    loginStart: Endpoint(method: "GET", path: "/accounts/login/"),
    loginPost: Endpoint(method: "POST", path: "/accounts/login/"),
    stall: (Endpoint(method: "GET", path: "/accounts/login/"), timeoutSeconds: 1), loggedPath: "/accounts/login/",
    makeHarness: { name, options in
      try FormProviderEndToEndTests.Harness(name, timeoutSeconds: options.timeoutSeconds)
    },
    storedSecrets: { harness, _ in
      // The `json` profile's jar holds both of Django's cookies (sessionid and csrftoken).
      let state = harness.fixture.stateDirectory
      return Array(try FormProviderEndToEndTests.cookieValues(stateDirectory: state, profile: "json").values)
    })

  private static func refreshTokens(_ harness: ServerHarness, _ profiles: [String]) throws -> [String] {
    try profiles.compactMap {
      try StoreInspector.refreshToken(stateDirectory: harness.fixture.stateDirectory, profile: $0)
    }
  }
}
