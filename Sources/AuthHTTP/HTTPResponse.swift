/// A complete response: status, headers and the whole body (at most `HTTPPolicy.maxResponseBytes`).
package struct HTTPResponse: Sendable, CustomStringConvertible {
  package let status: Int
  package let body: [UInt8]
  /// The URL that answered, after any redirects that were followed.
  package let finalURL: String
  private let fields: Fields

  /// The header fields as given, or the raw head they are parsed from when read.
  private enum Fields: Sendable {
    case parsed([HTTPHeader])
    case raw(ResponseHead)
  }

  package init(status: Int, headers: [HTTPHeader], body: [UInt8], finalURL: String) {
    self.status = status
    // Names from libcurl arrive lower-cased already: only others pay for `lowercased()`.
    let isLowercase = { (name: String) in name.utf8.allSatisfy { !(65...90).contains($0) && $0 < 0x80 } }
    let lowercased = headers.allSatisfy { isLowercase($0.name) }
    fields = .parsed(lowercased ? headers : headers.map { HTTPHeader($0.name.lowercased(), $0.value) })
    self.body = body
    self.finalURL = finalURL
  }

  /// A response whose fields are parsed from `head` only when read: most answers (a JSON API's) are judged by
  /// status and body alone, and turning a dozen raw lines into sorted strings was a good part of the client's own
  /// time per response, every line of it fetched cold after the server's wait. Read at most a few times per
  /// response (a redirect's `Location`, a form's cookies), they are parsed on each read.
  init(status: Int, head: ResponseHead, body: [UInt8], finalURL: String) {
    self.status = status
    fields = .raw(head)
    self.body = body
    self.finalURL = finalURL
  }

  /// Lower-cased names. `set-cookie` has one entry per cookie; any other repeated field arrives as
  /// one entry with its values joined by ", " (RFC 9110 §5.3), sorted by name.
  package var headers: [HTTPHeader] {
    switch fields {
    case .parsed(let headers): headers
    case .raw(let head): head.headers
    }
  }

  /// The first value of `name`, matched case-insensitively.
  package func header(_ name: String) -> String? {
    let name = name.lowercased()
    return headers.first { $0.name == name }?.value
  }

  /// Every value of `name` in order, matched case-insensitively (one per `Set-Cookie`).
  package func headers(named name: String) -> [String] {
    let name = name.lowercased()
    return headers.filter { $0.name == name }.map(\.value)
  }

  /// Status and size only: headers and body carry tokens and cookies, and this may be logged.
  package var description: String { "HTTPResponse(\(status), \(body.count) bytes)" }
}
