/// Checks on a request's method, headers and body before anything is sent.
package enum RequestValidation {
  /// - Throws: `HTTPError.invalidRequest`, naming the header at most, never its value.
  package static func check(_ request: HTTPRequest) throws(HTTPError) {
    guard isToken(request.method) else { throw HTTPError(.invalidRequest, "method is not an HTTP token") }
    for header in request.headers {
      guard isToken(header.name) else { throw HTTPError(.invalidRequest, "a header name is not an HTTP token") }
      // libcurl writes values as given: a CR or LF would let a value start a header of its own.
      guard header.value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
        throw HTTPError(.invalidRequest, "control character in header \(header.name)")
      }
    }
    // A GET or HEAD body has no defined meaning (RFC 9110 §9.3.1) and servers and proxies treat it differently.
    if let body = request.body, !body.isEmpty, !allowsBody(request.method) {
      throw HTTPError(.invalidRequest, "\(request.method) cannot carry a body")
    }
  }

  package static func allowsBody(_ method: String) -> Bool { !["GET", "HEAD"].contains(method.uppercased()) }

  /// RFC 9110 §5.6.2 `token`: one or more of `!#$%&'*+-.^_`|~`, digits and letters.
  static func isToken(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "A")...UInt8(ascii: "Z"):
          return true
        default:
          return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
      }
  }
}
