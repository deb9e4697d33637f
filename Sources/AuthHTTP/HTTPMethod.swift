/// The request methods the sidecar sends: a closed set, so a config or a provider cannot name one the worker
/// and FoundationNetworking would treat differently, and the rules below are decided once per method.
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

  /// FoundationNetworking fails a GET with a body as "resource exceeds maximum size" (-1103), and a HEAD body
  /// has no meaning.
  package var allowsBody: Bool { self != .get && self != .head }

  package var description: String { rawValue }
}
