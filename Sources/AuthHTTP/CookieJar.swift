import AuthSupport

/// The client's own cookies, for HTML form logins (RFC 6265, as much as session cookies need:
/// Domain, Path, Secure, HttpOnly, Max-Age, Expires, host-only).
///
/// A value in memory: Foundation's shared cookie storage would write persistent cookies to disk with default
/// permissions, so it is never used. The caller persists
/// `serialized` sealed, like any other secret, and builds the jar back with `init(serialized:)`.
/// Session cookies are kept in `serialized`: the sidecar's "browser session" is the stored login.
///
/// There is no public-suffix list: a `Domain` of a single label (`com`) is refused, a multi-label
/// suffix (`co.uk`) is not. Logins talk to one configured server, so this only matters if that
/// server sets such a cookie itself.
package struct CookieJar: Sendable, CustomStringConvertible {
  /// Oldest cookies go first past this, so a server cannot make the jar grow without bound.
  static let maxCookies = 100

  private(set) var cookies: [Cookie]
  /// Wall clock for `Max-Age` and `Expires`: a `ManualClock` in tests and test mode.
  let clock: any Clock

  package init(clock: any Clock = SystemClock()) {
    cookies = []
    self.clock = clock
  }

  init(cookies: [Cookie], clock: any Clock) {
    self.cookies = cookies
    self.clock = clock
  }

  /// True when no unexpired cookie is left.
  package var isEmpty: Bool {
    let now = clock.now()
    return cookies.allSatisfy { $0.isExpired(at: now) }
  }

  /// A count only: cookie values are session secrets, and this may be logged.
  package var description: String { "CookieJar(\(cookies.count) cookies)" }

  /// Takes every `Set-Cookie` of `response`.
  /// - Parameter requestURL: the URL that answered; nil means `response.finalURL`, which is right
  ///   unless the response was built by hand.
  package mutating func store(from response: HTTPResponse, requestURL: String? = nil) {
    guard let origin = CookieURL(requestURL ?? response.finalURL) else { return }
    let now = clock.now()
    for header in response.headers(named: "set-cookie") {
      guard let parsed = SetCookie(header), let cookie = Self.cookie(parsed, from: origin, now: now) else { continue }
      let existing = cookies.firstIndex { $0.sameSlot(as: cookie) }
      // An already-expired cookie is how a server deletes one: remove, do not add.
      if cookie.isExpired(at: now) {
        if let existing { cookies.remove(at: existing) }
      } else if let existing {
        // In place, with the first creation time (§5.3 step 11), so the header order holds.
        cookies[existing] = cookie.created(at: cookies[existing].created)
      } else {
        cookies.append(cookie)
      }
    }
    cookies.removeAll { $0.isExpired(at: now) }
    if cookies.count > Self.maxCookies {
      cookies = Array(cookies.sorted { $0.created < $1.created }.suffix(Self.maxCookies))
    }
  }

  /// The `Cookie` header value for a request to `url`, or nil when no cookie applies.
  package func header(for url: String) -> String? {
    let matching = matches(for: url)
    return matching.isEmpty ? nil : matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
  }

  /// The value of the unexpired cookie called `name` (the one a request would list first, when
  /// several domains or paths hold one).
  package func named(_ name: String) -> String? {
    let now = clock.now()
    return Self.ordered(cookies.filter { $0.name == name && !$0.isExpired(at: now) }).first?.value
  }

  /// When the cookie called `name` expires (Unix seconds); nil when there is no such cookie or it is a session
  /// cookie, which lives as long as the jar.
  package func expiry(ofCookieNamed name: String) -> Int64? {
    let now = clock.now()
    return Self.ordered(cookies.filter { $0.name == name && !$0.isExpired(at: now) }).first?.expires
  }

  /// §5.4: cookies for `url`, longer paths first, then older first.
  func matches(for url: String) -> [Cookie] {
    guard let target = CookieURL(url) else { return [] }
    let now = clock.now()
    return Self.ordered(
      cookies.filter { cookie in
        !cookie.isExpired(at: now) && (!cookie.secure || target.secure)
          && (cookie.hostOnly ? target.host == cookie.domain : target.domainMatches(cookie.domain))
          && target.pathMatches(cookie.path)
      })
  }

  private static func ordered(_ cookies: [Cookie]) -> [Cookie] {
    // Enumerated so that equal keys keep storage order whatever the sort's stability.
    cookies.enumerated().sorted { a, b in
      if a.element.path.count != b.element.path.count { return a.element.path.count > b.element.path.count }
      if a.element.created != b.element.created { return a.element.created < b.element.created }
      return a.offset < b.offset
    }.map(\.element)
  }

  /// §5.3 steps 3–10: where the cookie belongs and until when, or nil when it must be ignored.
  private static func cookie(_ parsed: SetCookie, from origin: CookieURL, now: Int64) -> Cookie? {
    var domain = origin.host
    var hostOnly = true
    if let attribute = parsed.domain {
      // Only the host itself or a domain above it, and never a bare suffix like `com`: a single
      // label is taken as host-only when it is the host (`localhost`), refused otherwise.
      guard origin.domainMatches(attribute) else { return nil }
      if attribute.contains(".") {
        domain = attribute
        hostOnly = false
      } else if attribute != origin.host {
        return nil
      }
    }
    let expires: Int64?
    if let maxAge = parsed.maxAge {
      // Max-Age wins over Expires; zero or less means "delete now".
      expires = maxAge <= 0 ? Int64.min : now.addingReportingOverflow(maxAge).partialValue
    } else {
      expires = parsed.expires
    }
    return Cookie(
      name: parsed.name, value: parsed.value, domain: domain, hostOnly: hostOnly,
      path: parsed.path ?? origin.defaultPath, secure: parsed.secure, httpOnly: parsed.httpOnly, expires: expires,
      created: now)
  }
}

extension Cookie {
  func created(at time: Int64) -> Cookie {
    Cookie(
      name: name, value: value, domain: domain, hostOnly: hostOnly, path: path, secure: secure, httpOnly: httpOnly,
      expires: expires, created: time)
  }
}
