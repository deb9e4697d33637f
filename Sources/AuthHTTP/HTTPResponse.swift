/// A complete response: status, headers and the whole body (at most `HTTPPolicy.maxResponseBytes`).
package struct HTTPResponse: Sendable, CustomStringConvertible {
  package let status: Int
  /// Lower-cased names. `set-cookie` has one entry per cookie; any other repeated field arrives as
  /// one entry with its values joined by ", " (RFC 9110 §5.3), sorted by name.
  package let headers: [HTTPHeader]
  package let body: [UInt8]
  /// The URL that answered, after any redirects that were followed.
  package let finalURL: String

  package init(status: Int, headers: [HTTPHeader], body: [UInt8], finalURL: String) {
    self.status = status
    // Names from libcurl arrive lower-cased already: only others pay for `lowercased()`.
    let isLowercase = { (name: String) in name.utf8.allSatisfy { !(65...90).contains($0) && $0 < 0x80 } }
    self.headers = headers.allSatisfy { isLowercase($0.name) }
      ? headers : headers.map { HTTPHeader($0.name.lowercased(), $0.value) }
    self.body = body
    self.finalURL = finalURL
  }

  /// A response whose header names are lower-cased already (libcurl's, through `ResponseHead`).
  init(status: Int, lowercasedHeaders headers: [HTTPHeader], body: [UInt8], finalURL: String) {
    self.status = status
    self.headers = headers
    self.body = body
    self.finalURL = finalURL
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
