/// A URI reference split as RFC 3986 Appendix B does it, with each part checked against §3's grammar.
///
/// Written here rather than taken from Foundation so that the sidecar's main binary can refuse a bad URL
/// before any I/O without linking Foundation. It is strict: a character outside RFC 3986's set (space,
/// non-ASCII, backslash), a `%` not followed by two hex digits, or `[`/`]` outside the host make the whole
/// text unusable, where a browser would repair it. libcurl is then given only text this parser accepted, so the
/// two cannot read different hosts from one URL.
struct URLReference: Sendable, Equatable {
  /// As written (callers compare it lower-cased).
  var scheme: String?
  /// Everything between `//` and the path; nil when there is no `//`.
  var authority: String?
  /// Percent-encoded, as written; may be empty.
  var path: String
  var query: String?
  var fragment: String?

  init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
    self.scheme = scheme
    self.authority = authority
    self.path = path
    self.query = query
    self.fragment = fragment
  }

  init?(_ text: String) {
    let bytes = Array(text.utf8)
    var index = 0
    // Appendix B: a scheme is whatever precedes the first `:` when no `/`, `?` or `#` comes before it.
    if let colon = bytes.firstIndex(where: { $0 == UInt8(ascii: ":") || Self.endsScheme($0) }),
      bytes[colon] == UInt8(ascii: ":"), colon > 0
    {
      guard Self.isScheme(bytes[..<colon]) else { return nil }
      scheme = String(decoding: bytes[..<colon], as: UTF8.self)
      index = colon + 1
    }
    if bytes[index...].starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
      let start = index + 2
      index = bytes[start...].firstIndex(where: Self.endsAuthority) ?? bytes.count
      guard Self.allValid(bytes[start..<index], extra: "[]:@") else { return nil }
      authority = String(decoding: bytes[start..<index], as: UTF8.self)
    }
    let pathEnd = bytes[index...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
    guard Self.allValid(bytes[index..<pathEnd], extra: ":@/") else { return nil }
    path = String(decoding: bytes[index..<pathEnd], as: UTF8.self)
    // §4.2: without a scheme, a first segment holding `:` would read as one; Appendix B already took it as a
    // scheme, so what is left here cannot contain one.
    index = pathEnd
    if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
      let end = bytes[index...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
      guard Self.allValid(bytes[(index + 1)..<end], extra: ":@/?") else { return nil }
      query = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
      index = end
    }
    if index < bytes.count {
      guard Self.allValid(bytes[(index + 1)...], extra: ":@/?") else { return nil }
      fragment = String(decoding: bytes[(index + 1)...], as: UTF8.self)
    }
  }

  /// §5.3: the parts put back together.
  var text: String {
    var result = ""
    if let scheme { result += scheme + ":" }
    if let authority { result += "//" + authority }
    result += path
    if let query { result += "?" + query }
    if let fragment { result += "#" + fragment }
    return result
  }

  /// §5.2.2, strict: this reference resolved against `base`, which must have a scheme.
  func resolved(against base: URLReference) -> URLReference {
    if scheme != nil {
      return URLReference(
        scheme: scheme, authority: authority, path: Self.removeDotSegments(path), query: query, fragment: fragment)
    }
    if authority != nil {
      return URLReference(
        scheme: base.scheme, authority: authority, path: Self.removeDotSegments(path), query: query,
        fragment: fragment)
    }
    let targetPath: String
    var targetQuery = query
    if path.isEmpty {
      targetPath = base.path
      targetQuery = query ?? base.query
    } else if path.hasPrefix("/") {
      targetPath = Self.removeDotSegments(path)
    } else {
      targetPath = Self.removeDotSegments(Self.merge(base: base, path))
    }
    return URLReference(
      scheme: base.scheme, authority: base.authority, path: targetPath, query: targetQuery, fragment: fragment)
  }

  /// §5.2.3.
  private static func merge(base: URLReference, _ path: String) -> String {
    if base.authority != nil, base.path.isEmpty { return "/" + path }
    guard let slash = base.path.lastIndex(of: "/") else { return path }
    return String(base.path[...slash]) + path
  }

  /// §5.2.4: `.` and `..` segments applied, so a redirect cannot climb above the root.
  static func removeDotSegments(_ path: String) -> String {
    var input = Substring(path)
    var output: [Substring] = []
    while !input.isEmpty {
      if input.hasPrefix("../") {
        input = input.dropFirst(3)
      } else if input.hasPrefix("./") {
        input = input.dropFirst(2)
      } else if input.hasPrefix("/./") {
        input = input.dropFirst(2)
      } else if input == "/." {
        input = "/"
      } else if input.hasPrefix("/../") || input == "/.." {
        input = input == "/.." ? "/" : input.dropFirst(3)
        if !output.isEmpty { output.removeLast() }
      } else if input == "." || input == ".." {
        input = ""
      } else {
        // The first segment, with its leading `/` if any, up to the next `/`.
        let searchFrom = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
        let end = input[searchFrom...].firstIndex(of: "/") ?? input.endIndex
        output.append(input[..<end])
        input = input[end...]
      }
    }
    return output.joined()
  }

  private static func endsScheme(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
  }

  private static func endsAuthority(_ byte: UInt8) -> Bool { endsScheme(byte) }

  /// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
  private static func isScheme(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard let first = bytes.first, isAlpha(first) else { return false }
    return bytes.allSatisfy {
      isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
    }
  }

  /// Unreserved, sub-delims, well-formed percent escapes, and the delimiters in `extra`.
  private static func allValid(_ bytes: ArraySlice<UInt8>, extra: StaticString) -> Bool {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard index + 2 < bytes.endIndex, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
        index += 3
        continue
      }
      guard isUnreserved(byte) || isSubDelimiter(byte) || contains(extra, byte) else { return false }
      index += 1
    }
    return true
  }

  private static func contains(_ set: StaticString, _ byte: UInt8) -> Bool {
    set.withUTF8Buffer { $0.contains(byte) }
  }

  static func isAlpha(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
  }

  static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

  private static func isHex(_ byte: UInt8) -> Bool {
    isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
  }

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
  }

  private static func isSubDelimiter(_ byte: UInt8) -> Bool {
    "!$&'()*+,;=".utf8.contains(byte)
  }
}
