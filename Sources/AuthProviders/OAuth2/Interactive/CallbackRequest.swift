import AuthCrypto

/// What the loopback listener does with the bytes one connection sent: the HTTP request head of the
/// browser's redirect to `GET /callback?code=…&state=…` (RFC 6749 §4.1.2, RFC 8252 §7.3).
///
/// Pure, so every malformed, oversized or forged request is unit-tested without sockets. Only a request with
/// the expected `state` can end the wait; anything else gets an error page on its own connection while the
/// listener keeps waiting for the real redirect.
enum CallbackRequest {
  /// The request head may be at most this long: a redirect with a code and a state is a few hundred bytes,
  /// browsers send about 1 KiB of headers.
  static let maxHeadBytes = 8192
  static let path = "/callback"

  enum Outcome: Equatable {
    /// The authorization code, with the right state.
    case code(SecretBytes)
    /// The server redirected with `error` (e.g. `access_denied`) and the right state.
    case refused(errorCode: String?)
    /// Right state, but an `iss` that is not our issuer (RFC 9207 §2.4: a mix-up; the response is refused).
    case wrongIssuer

    static func == (lhs: Outcome, rhs: Outcome) -> Bool {
      switch (lhs, rhs) {
      case (.code(let a), .code(let b)): a.constantTimeEquals(b)
      case (.refused(let a), .refused(let b)): a == b
      case (.wrongIssuer, .wrongIssuer): true
      default: false
      }
    }
  }

  /// The answer for the connection and, when the wait is over, its outcome.
  enum Verdict: Equatable {
    /// No complete head yet: read more.
    case incomplete
    case answer(CallbackPage, Outcome?)
  }

  /// - Parameters:
  ///   - head: every byte the connection sent so far.
  ///   - state: the `state` sent in the authorization request (compared in constant time).
  ///   - issuer: compared with an `iss` parameter, when the server sends one (RFC 9207).
  static func evaluate(_ head: [UInt8], state: String, issuer: String) -> Verdict {
    guard let end = headEnd(head) else {
      return head.count >= maxHeadBytes ? .answer(.tooLarge, nil) : .incomplete
    }
    guard end <= maxHeadBytes, let line = requestLine(head[..<end]) else { return .answer(.badRequest, nil) }
    guard line.method == "GET" else { return .answer(.methodNotAllowed, nil) }
    let target = line.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    guard target[0] == path else { return .answer(.notFound, nil) }
    guard let query = QueryParameters(target.count > 1 ? target[1] : "") else { return .answer(.badRequest, nil) }
    guard let sent = query["state"], ConstantTime.equals(Array(sent.utf8), Array(state.utf8)) else {
      return .answer(.badRequest, nil)
    }
    if let iss = query["iss"], iss != issuer { return .answer(.failed, .wrongIssuer) }
    if let error = query["error"] {
      return .answer(.refused, .refused(errorCode: Self.isErrorCode(error) ? error : nil))
    }
    guard let code = query.secret("code") else { return .answer(.badRequest, nil) }
    return .answer(.signedIn, .code(code))
  }

  /// The index just past `\r\n\r\n` (or a bare `\n\n`), if the head is complete.
  static func headEnd(_ bytes: [UInt8]) -> Int? {
    var index = 0
    while index < bytes.count {
      if bytes[index] == 0x0A {
        if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return index + 2 }
        if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return index + 3 }
      }
      index += 1
    }
    return nil
  }

  /// `METHOD SP request-target SP HTTP/1.x` (RFC 9112 §3), printable ASCII only.
  static func requestLine(_ head: ArraySlice<UInt8>) -> (method: String, target: Substring)? {
    let line = head.prefix { $0 != 0x0D && $0 != 0x0A }
    guard line.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
    let parts = String(decoding: line, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[1].hasPrefix("/"), parts[2].hasPrefix("HTTP/1.") else {
      return nil
    }
    return (String(parts[0]), parts[1])
  }

  /// RFC 6749 §4.1.2.1: `error` is %x20-21 / %x23-5B / %x5D-7E; anything else is not passed on.
  static func isErrorCode(_ text: String) -> Bool {
    (1...64).contains(text.utf8.count)
      && text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) }
  }
}

/// A query string's parameters, percent-decoded (`+` is a space, as browsers and servers write forms).
/// RFC 6749 §3.1: a parameter sent twice makes the request invalid, so that is a parse failure here.
struct QueryParameters {
  private var values: [String: [UInt8]] = [:]

  init?(_ query: Substring) {
    guard !query.isEmpty else { return }
    for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else {
        return nil
      }
      let key = String(decoding: name, as: UTF8.self)
      guard values[key] == nil else { return nil }
      values[key] = value
    }
  }

  /// A parameter as text; nil when absent, empty or not UTF-8.
  subscript(name: String) -> String? {
    guard let bytes = values[name], !bytes.isEmpty else { return nil }
    return String(validating: bytes, as: UTF8.self)
  }

  /// A parameter kept out of `String`s (the authorization code); nil when absent or empty.
  func secret(_ name: String) -> SecretBytes? {
    guard let bytes = values[name], !bytes.isEmpty else { return nil }
    return SecretBytes(bytes)
  }

  private static func decode(_ text: Substring) -> [UInt8]? {
    var out: [UInt8] = []
    var bytes = text.utf8.makeIterator()
    while let byte = bytes.next() {
      switch byte {
      case UInt8(ascii: "+"): out.append(0x20)
      case UInt8(ascii: "%"):
        guard let high = bytes.next().flatMap(hexValue), let low = bytes.next().flatMap(hexValue) else { return nil }
        out.append(high << 4 | low)
      default: out.append(byte)
      }
    }
    return out
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
