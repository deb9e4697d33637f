/// One request as it goes on the wire, redirects applied.
struct Exchange: Sendable {
  let method: HTTPMethod
  let target: RequestTarget
  let headers: [HTTPHeader]
  let body: [UInt8]?
  /// The target came from `CheckedURLs`: libcurl's reading of its origin need not be checked again.
  let targetChecked: Bool

  init(method: HTTPMethod, target: RequestTarget, headers: [HTTPHeader], body: [UInt8]?, targetChecked: Bool = false) {
    self.method = method
    self.target = target
    self.headers = headers
    self.body = body
    self.targetChecked = targetChecked
  }

  init(_ target: RequestTarget, _ request: HTTPRequest, targetChecked: Bool = false) {
    self.init(
      method: request.method, target: target, headers: request.headers, body: request.body,
      targetChecked: targetChecked)
  }

  /// Method, host and path: what log lines may say about a request.
  var logName: String { "\(method) \(target.logName)" }

  /// The exchange `response` redirects to, or nil when it is not a redirect to follow.
  /// - Throws: `HTTPError.redirectRefused` for a redirect to another origin (the headers, which
  ///   may hold credentials, would go with it), past `limit`, or to an unusable `Location`.
  func redirected(by response: HTTPResponse, followed: Int, limit: Int) throws(HTTPError) -> Exchange? {
    guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("location") else {
      return nil
    }
    let next: RequestTarget
    do {
      next = try target.resolving(location)
    } catch {
      throw HTTPError(.redirectRefused, "redirect from \(logName): \(error.detail)")
    }
    guard next.origin == target.origin else {
      throw HTTPError(.redirectRefused, "redirect from \(logName) to another origin, \(next.origin.host)")
    }
    guard followed < limit else { throw HTTPError(.redirectRefused, "more than \(limit) redirects from \(logName)") }
    // RFC 9110 §15.4: a 303, and a 301 or 302 after a POST (as every client does), become a GET
    // without the body; 307 and 308 repeat the request as it was.
    if response.status == 303 && method != .head || [301, 302].contains(response.status) && method == .post {
      let kept = headers.filter { !["content-type", "content-length"].contains($0.name.lowercased()) }
      return Exchange(method: .get, target: next, headers: kept, body: nil)
    }
    return Exchange(method: method, target: next, headers: headers, body: body)
  }
}
