import AuthHTTP

/// The `rest` provider's settings object, required for that provider:
///
/// ```json
/// "rest": {
///   "baseURL": "https://api.example.com",
///   "login":    {"path": "/api/token/", "method": "POST", "encoding": "json",
///                "body": {"username": "{username}", "password": "{password}"}},
///   "refresh":  {"path": "/api/token/refresh/", "body": {"refresh": "{refreshToken}"}},
///   "logout":   {"path": "/api/token/blacklist/", "body": {"refresh": "{refreshToken}"}, "sendAccessToken": false},
///   "user":     {"path": "/api/me/", "method": "GET", "userPath": "data.user"},
///   "register": {"path": "/api/register/", "body": {"username": "{username}", "password": "{password}"}},
///   "response": {"accessToken": "access", "refreshToken": "refresh", "expiresIn": "expires_in",
///                "user": "user", "tokenType": "token_type", "success": "success",
///                "unknownAccount": {"path": "error.code", "equals": "NO_SUCH_USER"}},
///   "userFields": {"id": "id", "username": "username", "email": "email", "displayName": "first_name"},
///   "headers": {"X-Client": "sidecar"},
///   "authScheme": "Bearer",
///   "timeoutSeconds": 30,
///   "sessionLifetimeSeconds": 86400
/// }
/// ```
///
/// Checked as strictly as the rest of the file, and more: every URL, template and header is checked here, so a
/// login never fails later on something the config could have said at start-up.
enum RESTProviderDecoder {
  static let keys = [
    "baseURL", "login", "refresh", "logout", "user", "register", "response", "userFields", "headers", "authScheme",
    "timeoutSeconds", SessionLifetime.key,
  ] + RESTLoginRequestDecoder.keys + RESTCodesDecoder.endpointKeys
  static let userFieldKeys = ["id", "username", "email", "phone", "displayName"]
  static let methods: [HTTPMethod] = [.get, .post, .put, .patch, .delete]
  /// Headers the transport or this provider sets: one from the config would clash or leak.
  static let reservedHeaders = [
    "authorization", "content-type", "content-length", "host", "transfer-encoding", "cookie",
  ]

  /// What each endpoint may hold and which placeholders its body may use.
  enum Role: String {
    case login, refresh, logout, user, register
    case sendCode, loginWithCode, verify, resetPassword

    var keys: [String] {
      switch self {
      case .login, .refresh, .register, .loginWithCode, .verify, .resetPassword: ["path", "method", "encoding", "body"]
      case .sendCode: ["path", "method", "encoding", "body", "purposes"]
      case .logout: ["path", "method", "encoding", "body", "sendAccessToken"]
      case .user: ["path", "method", "userPath"]
      }
    }

    var placeholders: [RESTProviderConfig.Placeholder] {
      switch self {
      case .login:
        [.username, .password, .account, .email, .accountNormalized, .phoneE164, .phoneNational, .emailNormalized,
          .accountKind]
      case .register: [.username, .password, .account, .email]
      case .refresh, .logout: [.refreshToken]
      case .user: []
      case .sendCode, .loginWithCode, .verify, .resetPassword: RESTCodesDecoder.placeholders(self)
      }
    }

    var defaultMethod: HTTPMethod { self == .user ? .get : .post }

    var methods: [HTTPMethod] { self == .user ? [.get, .post] : RESTProviderDecoder.methods }
  }

  static func settings(in profile: ConfigObject) throws(SettingError) -> RESTProviderConfig {
    guard let object = try profile.object(ProviderKind.rest.rawValue, allowedKeys: keys) else {
      throw SettingError(
        profile.path.appending(ProviderKind.rest.rawValue),
        "is required for provider \"rest\": at least baseURL, login and response")
    }
    let baseURL = try baseURL(object)
    let loginRequest = try RESTLoginRequestDecoder.settings(object, baseURL: baseURL)
    guard let login = try endpoint(.login, in: object, context: loginRequest.contextNames) else {
      throw SettingError(object.path.appending("login"), "is required: the login endpoint")
    }
    let response = try RESTResponseDecoder.fields(object)
    let timeout = try object.integer("timeoutSeconds", in: RESTProviderConfig.timeoutSecondsRange)
    let authScheme = try object.string("authScheme") ?? RESTProviderConfig.defaultAuthScheme
    guard HTTPToken.isValid(authScheme) else {
      throw SettingError(object.path.appending("authScheme"), "must be an HTTP token such as Bearer or Token")
    }
    let refresh = try endpoint(.refresh, in: object)
    let logout = try endpoint(.logout, in: object)
    // Both endpoints name the session by a token; a tokenless session has none, so they could only fail.
    for (key, configured) in [("refresh", refresh != nil), ("logout", logout != nil)]
    where configured && response.accessToken == nil {
      throw SettingError(
        object.path.appending(key),
        "needs response.accessToken: a tokenless session has no token to send; leave it out")
    }
    return RESTProviderConfig(
      baseURL: baseURL,
      login: login,
      refresh: refresh,
      logout: logout,
      user: try endpoint(.user, in: object),
      register: try endpoint(.register, in: object),
      response: response,
      userFields: try userFields(object),
      headers: try headers(object),
      authScheme: authScheme,
      timeoutSeconds: timeout ?? RESTProviderConfig.defaultTimeoutSeconds,
      sessionLifetimeSeconds: try object.sessionLifetimeSeconds(),
      loginRequest: loginRequest,
      codes: try RESTCodesDecoder.settings(object)
    )
  }

  // MARK: - baseURL

  /// `https://host[:port][/prefix]`, or `http://` to a loopback host; no user info, query or fragment (the
  /// endpoints' paths are appended to it). Lower-cased up to the path, without trailing slashes.
  static func baseURL(_ object: ConfigObject) throws(SettingError) -> String {
    guard
      let target = try object.url(
        "baseURL", allowQuery: false,
        rule: "must be an absolute https:// URL (http:// only to a loopback host) without user info, query or fragment",
        insecure: "must use https://; http:// is allowed only to a loopback host (127.0.0.0/8, ::1, localhost)")
    else {
      throw SettingError(
        object.path.appending("baseURL"), "is required: the API's https:// URL (http:// only to a loopback host)")
    }
    var prefix = target.path
    while prefix.hasSuffix("/") { prefix.removeLast() }
    return target.origin.scheme + "://" + target.authority.lowercased() + prefix
  }

  // MARK: - Endpoints

  /// - Parameter context: the `{context.name}`s a login body may use.
  static func endpoint(_ role: Role, in object: ConfigObject, context: [String] = []) throws(SettingError)
    -> RESTProviderConfig.Endpoint?
  {
    guard let endpoint = try object.object(role.rawValue, allowedKeys: role.keys) else { return nil }
    guard let path = try endpoint.string("path") else {
      throw SettingError(endpoint.path.appending("path"), "is required: the path after baseURL, starting with /")
    }
    guard path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("#"),
      path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
    else {
      throw SettingError(
        endpoint.path.appending("path"), "must start with / and hold only visible ASCII characters, without a fragment")
    }
    let allowed = role.methods
    let rule = "must be one of \(allowed.map(\.rawValue).joined(separator: ", ")) (upper case)"
    let method = try endpoint.method("method", of: allowed, rule: rule) ?? role.defaultMethod
    let encoding = try Self.encoding(endpoint)
    let body = try Self.body(endpoint, role: role, context: context)
    if !body.isEmpty, method == .get {
      throw SettingError(endpoint.path.appending("body"), "cannot be sent with GET")
    }
    let sendAccessToken = try endpoint.bool("sendAccessToken") ?? false
    switch role {
    case .login:
      try require(.password, in: body, endpoint)
      try requireOneAccountKind(body, endpoint)
    case .register:
      try require(.password, in: body, endpoint)
      try require(.username, in: body, endpoint)
    case .refresh:
      try require(.refreshToken, in: body, endpoint)
    case .logout:
      if body.isEmpty, !sendAccessToken {
        throw SettingError(
          endpoint.path,
          "sends nothing that names the session: give a body with {refreshToken} or sendAccessToken: true")
      }
    case .user:
      break
    case .sendCode, .loginWithCode, .verify, .resetPassword:
      try RESTCodesDecoder.checkBody(body, role: role, endpoint)
    }
    var userPath: RESTProviderConfig.FieldPath?
    if let text = try endpoint.string("userPath") {
      guard let parsed = RESTProviderConfig.FieldPath(parsing: text) else {
        throw SettingError(endpoint.path.appending("userPath"), fieldPathRule)
      }
      userPath = parsed
    }
    return RESTProviderConfig.Endpoint(
      path: path, method: method, encoding: encoding, body: body, sendAccessToken: sendAccessToken, userPath: userPath)
  }

  static func encoding(_ endpoint: ConfigObject) throws(SettingError) -> RESTProviderConfig.Encoding {
    guard let name = try endpoint.string("encoding") else { return .json }
    guard let encoding = RESTProviderConfig.Encoding(rawValue: name) else {
      throw SettingError(endpoint.path.appending("encoding"), #"must be "json" or "form""#)
    }
    return encoding
  }

  // MARK: - Answers

  static let fieldPathRule = "must be a dotted path such as data.token, without empty parts"

  static func fieldPath(_ object: ConfigObject, _ key: String) throws(SettingError) -> RESTProviderConfig.FieldPath? {
    guard let text = try object.string(key) else { return nil }
    guard let path = RESTProviderConfig.FieldPath(parsing: text) else {
      throw SettingError(object.path.appending(key), fieldPathRule)
    }
    return path
  }

  /// The user's field paths at `key` (the `rest` provider's `userFields`, the `form` provider's `user.fields`).
  static func userFields(_ object: ConfigObject, key: String = "userFields") throws(SettingError)
    -> RESTProviderConfig.UserFields
  {
    guard let fields = try object.object(key, allowedKeys: userFieldKeys) else { return .defaults }
    let defaults = RESTProviderConfig.UserFields.defaults
    return RESTProviderConfig.UserFields(
      id: try fieldPath(fields, "id") ?? defaults.id,
      username: try fieldPath(fields, "username") ?? defaults.username,
      email: try fieldPath(fields, "email") ?? defaults.email,
      phone: try fieldPath(fields, "phone") ?? defaults.phone,
      displayName: try fieldPath(fields, "displayName") ?? defaults.displayName
    )
  }

  // MARK: - Headers

  static func headers(_ object: ConfigObject) throws(SettingError) -> [RESTProviderConfig.Header] {
    guard let headers = try object.object("headers", allowedKeys: nil) else { return [] }
    var result: [RESTProviderConfig.Header] = []
    for member in headers.members {
      let path = headers.path.appending(member.key)
      guard HTTPToken.isValid(member.key) else { throw SettingError(path, "is not a valid header name") }
      guard !reservedHeaders.contains(member.key.lowercased()) else {
        throw SettingError(path, "is set by the sidecar itself and cannot be configured")
      }
      guard case .string(let value) = member.value else {
        throw SettingError(path, "must be a string, not \(ConfigObject.describe(member.value))")
      }
      // A CR or LF would let a value start a header of its own.
      guard value.utf8.allSatisfy({ $0 == 0x09 || (0x20..<0x7F).contains($0) }) else {
        throw SettingError(path, "must be visible ASCII text without control characters")
      }
      result.append(RESTProviderConfig.Header(member.key, value))
    }
    return result
  }
}
