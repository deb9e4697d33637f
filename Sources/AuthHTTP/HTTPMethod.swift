/// The request methods the sidecar sends: a closed set, so a config or a provider cannot name one libcurl would
/// treat differently from what we meant, and the rules below are decided once per method.
package enum HTTPMethod: String, Sendable, CaseIterable, CustomStringConvertible {
  case get = "GET"
  case head = "HEAD"
  case post = "POST"
  case put = "PUT"
  case patch = "PATCH"
  case delete = "DELETE"
  case options = "OPTIONS"

  /// RFC 9110 §9.2.2: GET, HEAD, OPTIONS, PUT and DELETE may be repeated with the same effect; POST and PATCH
  /// may not.
  package var isIdempotent: Bool {
    switch self {
    case .get, .head, .options, .put, .delete: true
    case .post, .patch: false
    }
  }

  /// A GET or HEAD body has no defined meaning (RFC 9110 §9.3.1, §9.3.2), and servers and proxies treat one
  /// differently.
  package var allowsBody: Bool { self != .get && self != .head }

  package var description: String { rawValue }
}
