/// Checks on a request's method, headers and body before anything is sent.
package enum RequestValidation {
  /// - Throws: `HTTPError.invalidRequest`, naming the header at most, never its value.
  package static func check(_ request: HTTPRequest) throws(HTTPError) {
    for header in request.headers {
      guard HTTPToken.isValid(header.name) else {
        throw HTTPError(.invalidRequest, "a header name is not an HTTP token")
      }
      // libcurl writes values as given: a CR or LF would let a value start a header of its own.
      guard header.value.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
        throw HTTPError(.invalidRequest, "control character in header \(header.name)")
      }
    }
    // A GET or HEAD body has no defined meaning (RFC 9110 §9.3.1) and servers and proxies treat it differently.
    if let body = request.body, !body.isEmpty, !request.method.allowsBody {
      throw HTTPError(.invalidRequest, "\(request.method) cannot carry a body")
    }
  }

}
