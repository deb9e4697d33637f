import AuthJSON
import AuthSupport

/// The jar as bytes, for the caller to seal and store; unexpired cookies only.
///
/// The document is the one `JSONEncoder` with sorted keys wrote before this module dropped Foundation —
/// `{"cookies":[{"created","domain","expires"?,"hostOnly","httpOnly","name","path","secure","value"}],
/// "version":1}` — so jars stored by either read back with the other.
extension CookieJar {
  private static let version = 1

  /// Keys in sorted order, so that equal jars give equal bytes.
  package var serialized: [UInt8] {
    let now = clock.now()
    let stored = cookies.filter { !$0.isExpired(at: now) }.map { cookie -> JSONValue in
      var object: JSONObject = [
        "created": .number(JSONNumber(cookie.created)), "domain": .string(cookie.domain),
      ]
      if let expires = cookie.expires { object.appendNew(key: "expires", value: .number(JSONNumber(expires))) }
      object.appendNew(key: "hostOnly", value: .bool(cookie.hostOnly))
      object.appendNew(key: "httpOnly", value: .bool(cookie.httpOnly))
      object.appendNew(key: "name", value: .string(cookie.name))
      object.appendNew(key: "path", value: .string(cookie.path))
      object.appendNew(key: "secure", value: .bool(cookie.secure))
      object.appendNew(key: "value", value: .string(cookie.value))
      return .object(object)
    }
    let document: JSONObject = ["cookies": .array(stored), "version": .number(JSONNumber(Self.version))]
    return JSONWriter.encode(.object(document))
  }

  /// - Throws: `HTTPError.corruptCookieJar` for bytes `serialized` did not produce.
  package init(serialized bytes: [UInt8], clock: any Clock = SystemClock()) throws(HTTPError) {
    let corrupt = HTTPError(.corruptCookieJar, "cookie jar bytes are not a version \(Self.version) jar")
    guard let document = (try? JSONParser.parse(bytes))?.objectValue, !document.hasDuplicateKeys,
      document["version"].flatMap(Self.int64) == Int64(Self.version), let list = document["cookies"]?.arrayValue
    else { throw corrupt }
    var cookies: [Cookie] = []
    for entry in list {
      guard let cookie = entry.objectValue.flatMap(Self.cookie), Self.isWellFormed(cookie) else { throw corrupt }
      cookies.append(cookie)
    }
    let now = clock.now()
    self.init(cookies: cookies.filter { !$0.isExpired(at: now) }, clock: clock)
  }

  private static func cookie(_ object: JSONObject) -> Cookie? {
    guard !object.hasDuplicateKeys, let name = object["name"]?.stringValue, let value = object["value"]?.stringValue,
      let domain = object["domain"]?.stringValue, let hostOnly = object["hostOnly"]?.boolValue,
      let path = object["path"]?.stringValue, let secure = object["secure"]?.boolValue,
      let httpOnly = object["httpOnly"]?.boolValue, let created = object["created"].flatMap(int64)
    else { return nil }
    // JSONEncoder left a nil `expires` out; a `null` is read the same way.
    let expires: Int64?
    switch object["expires"] {
    case nil, .null?: expires = nil
    case let value?:
      guard let seconds = int64(value) else { return nil }
      expires = seconds
    }
    return Cookie(
      name: name, value: value, domain: domain, hostOnly: hostOnly, path: path, secure: secure, httpOnly: httpOnly,
      expires: expires, created: created)
  }

  private static func int64(_ value: JSONValue) -> Int64? {
    guard case .number(let number) = value else { return nil }
    return number.int64Value
  }

  /// The invariants `store` keeps, checked again on bytes that went through storage.
  private static func isWellFormed(_ cookie: Cookie) -> Bool {
    let clean: (String) -> Bool = { !$0.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") } }
    return !cookie.name.isEmpty && clean(cookie.name) && clean(cookie.value) && !cookie.domain.isEmpty
      && cookie.path.hasPrefix("/")
  }
}
