import AuthHTTP

extension ConfigObject {
  static let urlRule = "must be an https:// URL (http:// only to a loopback host) without user info or fragment"

  /// The URL at `key`, or nil when the key is absent, held to the HTTP client's own rule (`RequestTarget`, whose
  /// `http://` test is `Loopback`): a URL the config accepts is then one the client will send to, and a login never
  /// fails on something the config could have said at start-up. A fragment is refused too (a server never sees
  /// it, so it can only be a mistake), and a query unless `allowQuery`.
  /// - Parameters:
  ///   - rule: the error message for a URL that breaks the rule; by default `urlRule`, plus "or query" when
  ///     `allowQuery` is false.
  ///   - insecure: the message for `http://` to a host that is not loopback; by default `rule`.
  func url(_ key: String, allowQuery: Bool, rule: String? = nil, insecure: String? = nil) throws(SettingError)
    -> RequestTarget?
  {
    guard let text = try string(key) else { return nil }
    let rule = rule ?? (allowQuery ? Self.urlRule : Self.urlRule + " or query")
    let target: RequestTarget
    do {
      target = try RequestTarget(text)
    } catch {
      throw SettingError(path.appending(key), error.code == .insecureURL ? insecure ?? rule : rule)
    }
    guard !target.hasFragment, allowQuery || !target.hasQuery else { throw SettingError(path.appending(key), rule) }
    return target
  }

  /// The HTTP method at `key`, one of `allowed` spelled as on the wire (upper case), or nil when the key is absent.
  /// - Parameter rule: the error message, which lists `allowed`.
  func method(_ key: String, of allowed: [HTTPMethod], rule: String) throws(SettingError) -> HTTPMethod? {
    guard let name = try string(key) else { return nil }
    guard let method = HTTPMethod(rawValue: name), allowed.contains(method) else {
      throw SettingError(path.appending(key), rule)
    }
    return method
  }
}
