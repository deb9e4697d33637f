/// Checks on a request's method, headers and body before anything is sent.
package enum RequestValidation {
  /// - Throws: `HTTPError.invalidRequest`, naming the header at most, never its value.
  package static func check(_ request: HTTPRequest) throws(HTTPError) {
    for header in request.headers {
      guard HTTPToken.isValid(header.name) else {
        throw HTTPError(.invalidRequest, "a header name is not an HTTP token")
      }
      // libcurl writes values as given: a CR or LF would let a value start a header of its own.
      guard isFieldValue(header.value) else {
        throw HTTPError(.invalidRequest, "control character in header \(header.name)")
      }
    }
    // A GET or HEAD body has no defined meaning (RFC 9110 §9.3.1) and servers and proxies treat it differently.
    if let body = request.body, !body.isEmpty, !request.method.allowsBody {
      throw HTTPError(.invalidRequest, "\(request.method) cannot carry a body")
    }
  }

  /// No control character but tab. Scanned over the string's contiguous bytes: a bearer token is hundreds of bytes
  /// and every request carries one, which a check through the generic `UTF8View` walk spent thousands of
  /// instructions on.
  private static func isFieldValue(_ value: String) -> Bool {
    var value = value
    return value.withUTF8 { bytes in
      for byte in bytes where byte < 0x20 || byte == 0x7F {
        guard byte == 0x09 else { return false }
      }
      return true
    }
  }

}
