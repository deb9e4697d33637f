/// The tiny HTML answers the loopback listener gives the browser (or whatever else connects). No input is
/// ever echoed back, so no page can carry a code, a state or markup someone sent.
enum CallbackPage: Equatable {
  case signedIn
  case refused
  case failed
  case badRequest
  case notFound
  case methodNotAllowed
  case tooLarge
  case timedOut

  var status: (code: Int, reason: String) {
    switch self {
    case .signedIn, .refused, .failed: (200, "OK")
    case .badRequest: (400, "Bad Request")
    case .notFound: (404, "Not Found")
    case .methodNotAllowed: (405, "Method Not Allowed")
    case .tooLarge: (431, "Request Header Fields Too Large")
    case .timedOut: (408, "Request Timeout")
    }
  }

  var text: String {
    switch self {
    case .signedIn: "Signed in. You can close this window and return to the application."
    case .refused: "Sign-in was not completed. You can close this window and return to the application."
    case .failed: "Sign-in failed. You can close this window and return to the application."
    case .badRequest: "This is not the sign-in response the application is waiting for."
    case .notFound, .methodNotAllowed, .tooLarge, .timedOut: status.reason + "."
    }
  }

  /// The whole HTTP/1.1 response: no caching (RFC 8252 §8.5 keeps the code out of histories and caches),
  /// no referrer, and the connection closed after it.
  var bytes: [UInt8] {
    let body = "<!doctype html><html><head><meta charset=\"utf-8\"><title>auth-sidecar</title></head><body><p>"
      + text + "</p></body></html>\n"
    let head =
      "HTTP/1.1 \(status.code) \(status.reason)\r\nContent-Type: text/html; charset=utf-8\r\n"
      + "Content-Length: \(body.utf8.count)\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n"
      + "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
    return Array((head + body).utf8)
  }
}
