import AuthJSON

/// The `oauth2` provider's settings object, which is required: there is no issuer to default to.
///
/// Strict like the rest of the config: unknown keys, wrong types, empty strings, repeated or malformed scopes,
/// and any URL that is not `https://` (or `http://` to a loopback host) are errors naming the key, never the
/// value (the client secret lives here).
enum OAuth2ProviderDecoder {
  static let keys = [
    "issuer", "clientId", "clientSecret", "scopes", "allowPasswordGrant", "endpoints", "flows",
    "interactiveTimeoutSeconds", "idTokenLeewaySeconds", "timeoutSeconds",
  ]
  static let endpointKeys = ["token", "revocation", "userinfo", "jwks", "deviceAuthorization", "authorization"]
  static let urlRule = ConfigObject.urlRule

  static func settings(in profile: ConfigObject) throws(SettingError) -> OAuth2ProviderConfig {
    let name = ProviderKind.oauth2.rawValue
    guard let object = try profile.object(name, allowedKeys: keys) else {
      throw SettingError(
        profile.path.appending(name), "is required for provider \"oauth2\" (at least issuer and clientId)")
    }
    let issuer = try url("issuer", in: object, required: true, allowQuery: false)!
    let clientID = try clientText("clientId", in: object, required: true)!
    let clientSecret = try clientText("clientSecret", in: object, required: false)
    let scopes = try scopes(in: object) ?? OAuth2ProviderConfig.defaultScopes
    let allowPasswordGrant = try object.bool("allowPasswordGrant") ?? false
    let endpoints = try endpoints(in: object)
    if let endpoints, endpoints.jwks == nil, scopes.contains("openid") {
      throw SettingError(
        object.path.appending("endpoints").appending("jwks"),
        "is required when scopes include \"openid\": ID tokens are verified with the issuer's keys")
    }
    let leeway = try object.integer("idTokenLeewaySeconds", in: OAuth2ProviderConfig.idTokenLeewaySecondsRange)
    let timeout = try object.integer("timeoutSeconds", in: OAuth2ProviderConfig.timeoutSecondsRange)
    let flows = try flows(in: object) ?? LoginFlow.interactive
    let interactiveTimeout = try object.integer(
      "interactiveTimeoutSeconds", in: OAuth2ProviderConfig.interactiveTimeoutSecondsRange)
    return OAuth2ProviderConfig(
      issuer: issuer, clientID: clientID, clientSecret: clientSecret, scopes: scopes,
      allowPasswordGrant: allowPasswordGrant, endpoints: endpoints,
      idTokenLeewaySeconds: leeway ?? OAuth2ProviderConfig.defaultIDTokenLeewaySeconds,
      timeoutSeconds: timeout ?? OAuth2ProviderConfig.defaultTimeoutSeconds, flows: flows,
      interactiveTimeoutSeconds: interactiveTimeout ?? OAuth2ProviderConfig.defaultInteractiveTimeoutSeconds)
  }

  private static func endpoints(in object: ConfigObject) throws(SettingError) -> OAuth2ProviderConfig.Endpoints? {
    guard let endpoints = try object.object("endpoints", allowedKeys: endpointKeys) else { return nil }
    return OAuth2ProviderConfig.Endpoints(
      token: try url("token", in: endpoints, required: true, allowQuery: true)!,
      revocation: try url("revocation", in: endpoints, required: false, allowQuery: true),
      userinfo: try url("userinfo", in: endpoints, required: false, allowQuery: true),
      jwks: try url("jwks", in: endpoints, required: false, allowQuery: true),
      deviceAuthorization: try url("deviceAuthorization", in: endpoints, required: false, allowQuery: true),
      authorization: try url("authorization", in: endpoints, required: false, allowQuery: true))
  }

  /// The interactive flows a profile allows: distinct `LoginFlow.interactive` members; absent means both, `[]`
  /// none (a profile that logs in with the password grant only). Any other name, `password` included (that one
  /// is `allowPasswordGrant`), is refused here rather than dropped later.
  private static func flows(in object: ConfigObject) throws(SettingError) -> [LoginFlow]? {
    guard let value = object.value("flows") else { return nil }
    let path = object.path.appending("flows")
    let names = LoginFlow.interactive.map { "\"\($0)\"" }.joined(separator: ", ")
    guard case .array(let items) = value else {
      throw SettingError(path, "must be an array of \(names), not \(ConfigObject.describe(value))")
    }
    var flows: [LoginFlow] = []
    for item in items {
      guard case .string(let name) = item, let flow = LoginFlow(rawValue: name), flow.isInteractive else {
        throw SettingError(path, "each flow must be one of \(names)")
      }
      guard !flows.contains(flow) else { throw SettingError(path, "must not name a flow twice") }
      flows.append(flow)
    }
    return flows
  }

  // MARK: - Values

  /// RFC 6749 Appendix A.1/A.2: `client_id` and `client_secret` are VSCHAR (%x20-7E), here at least one.
  private static func clientText(_ key: String, in object: ConfigObject, required: Bool) throws(SettingError)
    -> String?
  {
    guard let text = try object.string(key) else {
      if required { throw SettingError(object.path.appending(key), "is required") }
      return nil
    }
    let rule = "must be 1 to 1024 printable ASCII characters"
    guard (1...1024).contains(text.utf8.count), text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
      throw SettingError(object.path.appending(key), rule)
    }
    return text
  }

  /// RFC 6749 §3.3: each scope token is %x21 / %x23-5B / %x5D-7E; the list is sent space-separated.
  private static func scopes(in object: ConfigObject) throws(SettingError) -> [String]? {
    guard let value = object.value("scopes") else { return nil }
    let path = object.path.appending("scopes")
    guard case .array(let items) = value else {
      throw SettingError(path, "must be an array of strings, not \(ConfigObject.describe(value))")
    }
    guard !items.isEmpty else { throw SettingError(path, "must not be empty; leave it out for the default") }
    var scopes: [String] = []
    for item in items {
      guard case .string(let scope) = item, !scope.isEmpty, scope.utf8.allSatisfy(isScopeByte) else {
        throw SettingError(path, "each scope must be a non-empty string of printable ASCII without spaces, \" or \\")
      }
      guard !scopes.contains(scope) else { throw SettingError(path, "must not name a scope twice") }
      scopes.append(scope)
    }
    return scopes
  }

  private static func isScopeByte(_ byte: UInt8) -> Bool {
    byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
  }

  private static func url(_ key: String, in object: ConfigObject, required: Bool, allowQuery: Bool)
    throws(SettingError) -> String?
  {
    guard let target = try object.url(key, allowQuery: allowQuery) else {
      if required { throw SettingError(object.path.appending(key), "is required") }
      return nil
    }
    return target.url
  }
}
