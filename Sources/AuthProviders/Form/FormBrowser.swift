import AuthHTTP
import AuthSupport

/// What a browser does for a form login, and no more: one cookie jar, `Cookie`, `Referer` and `Origin` headers,
/// and redirects followed hop by hop so every `Set-Cookie` on the way lands in the jar.
///
/// It never leaves its origin. A redirect to another origin is refused before any request goes there
/// (`badResponse`), so cookies, the CSRF token and above all a re-posted password (307/308 keep the body)
/// stay with the one site the config names. The HTTP client is asked never to follow redirects itself: it
/// would re-send our `Cookie` header unchanged and drop the cookies set on the way.
struct FormBrowser {
  /// Redirects followed per request; a login usually takes one.
  static let maxRedirects = 5
  static let acceptHTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"

  var jar: CookieJar
  let client: any HTTPClient
  let origin: RequestTarget.Origin
  let timeoutSeconds: Int
  let log: Logger

  /// One request and its same-origin redirects.
  struct Exchange {
    let response: HTTPResponse
    /// The URL that gave `response`.
    let url: String
    /// Whether at least one redirect was followed.
    let redirected: Bool
  }

  /// - Parameters:
  ///   - stopAt: a path whose redirect is not followed (the login page, when a user page sends a logged-out
  ///     browser there): the 3xx comes back as the answer.
  ///   - follow: false returns the first answer, 3xx included.
  /// - Throws: `ProviderError` (`badResponse` for a redirect off the origin), or `CancellationError`.
  mutating func send(
    _ method: HTTPMethod, _ url: String, body: [UInt8]? = nil, referer: String? = nil, accept: String = acceptHTML,
    headers extra: [HTTPHeader] = [], follow: Bool = true, stopAt: String? = nil
  ) async throws -> Exchange {
    var (method, url, body) = (method, url, body)
    var redirected = false
    for hop in 0...Self.maxRedirects {
      let target = try Self.target(url)
      guard target.origin == origin else {
        throw ProviderError(.badResponse, "refused to send a request to another origin (\(target.origin.host))")
      }
      var headers = [HTTPHeader("Accept", accept)] + extra
      if let cookies = jar.header(for: url) { headers.append(HTTPHeader("Cookie", cookies)) }
      if let referer { headers.append(HTTPHeader("Referer", referer)) }
      if body != nil {
        headers.append(HTTPHeader("Content-Type", "application/x-www-form-urlencoded"))
        headers.append(HTTPHeader("Origin", Self.serialize(origin)))
      }
      let request = HTTPRequest(method: method, url: url, headers: headers, body: body, redirects: .refuse)
      let response = try await RemoteFailures.send(request, with: client, within: .seconds(timeoutSeconds))
      jar.store(from: response, requestURL: url)
      log.debug("form: \(method) \(target.logName) → \(response.status)")
      guard follow, [301, 302, 303, 307, 308].contains(response.status), let location = response.header("location")
      else { return Exchange(response: response, url: url, redirected: redirected) }
      let next: RequestTarget
      do {
        next = try target.resolving(location)
      } catch {
        throw ProviderError(.badResponse, "redirect with an unusable Location", status: response.status)
      }
      guard next.origin == origin else {
        throw ProviderError(
          .badResponse, "refused to follow a redirect to another origin (\(next.origin.host))", status: response.status)
      }
      if let stopAt, next.path == stopAt { return Exchange(response: response, url: url, redirected: redirected) }
      guard hop < Self.maxRedirects else { break }
      // RFC 9110 §15.4: 303, and in practice 301/302 after a POST, become a GET without a body; 307/308 keep both.
      if response.status == 303 || ([301, 302].contains(response.status) && method == .post) {
        method = .get
        body = nil
      }
      url = next.url
      redirected = true
    }
    throw ProviderError(.badResponse, "more than \(Self.maxRedirects) redirects")
  }

  /// `scheme://host[:port]`, the port left out when it is the scheme's default: the `Origin` header's form.
  static func serialize(_ origin: RequestTarget.Origin) -> String {
    let host = origin.host.contains(":") ? "[\(origin.host)]" : origin.host
    let defaultPort = origin.scheme == "https" ? 443 : 80
    return origin.scheme + "://" + host + (origin.port == defaultPort ? "" : ":\(origin.port)")
  }

  /// - Throws: `ProviderError` for a URL the transport would refuse.
  static func target(_ url: String) throws -> RequestTarget {
    do {
      return try RequestTarget(url)
    } catch {
      throw RemoteFailures.providerError(error)
    }
  }
}
