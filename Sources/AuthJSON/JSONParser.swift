/// A strict RFC 8259 parser over UTF-8 bytes.
///
/// Hand-written because the request path must not cost more than the work it carries:
/// Foundation's decoders spend 25–100× more instructions per request than this scanner.
/// Strict means: no trailing commas, comments, leading zeros, bare control characters,
/// invalid UTF-8 or lone surrogate escapes; one value per text, surrounded only by white space.
package struct JSONParser {
  package static let defaultMaxDepth = 64

  /// Parses one JSON text.
  /// - Throws: `JSONParseError`; `.tooDeep` only when the whole text is well-formed JSON.
  package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONParseError)
    -> JSONValue
  {
    var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
    do throws(JSONParseError) {
      parser.skipWhitespace()
      let value = try parser.parseValue(depth: 0)
      parser.skipWhitespace()
      guard parser.index == bytes.count else { throw parser.syntax("unexpected data after the JSON value") }
      return value
    } catch {
      // Past the depth limit we stopped building. Whether the answer is "too deep" (-32600)
      // or "not JSON" (-32700) depends on the rest of the text, so check it without recursion.
      if error.reason == .tooDeep, !JSONSyntaxChecker.isWellFormed(bytes) {
        throw JSONParseError(reason: .syntax, offset: error.offset, detail: "invalid JSON")
      }
      throw error
    }
  }

  package static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
    try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in
      try parse(buffer, maxDepth: maxDepth)
    }
  }

  package static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
    try parse(Array(text.utf8), maxDepth: maxDepth)
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private let maxDepth: Int
  private var index = 0

  private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  private func syntax(_ detail: String) -> JSONParseError {
    JSONParseError(reason: .syntax, offset: index, detail: detail)
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
    guard index < bytes.count else { throw syntax("unexpected end of JSON") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
    case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
    case UInt8(ascii: "n"): try expectLiteral("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw syntax("unexpected character")
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let count = literal.utf8CodeUnitCount
    guard bytes.count - index >= count else { throw syntax("invalid literal") }
    let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
    for offset in 0..<count where bytes[index + offset] != expected[offset] { throw syntax("invalid literal") }
    index += count
  }

  private mutating func enter(depth: Int) throws(JSONParseError) {
    if depth > maxDepth { throw JSONParseError(reason: .tooDeep, offset: index, detail: "nesting too deep") }
  }

  private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
    try enter(depth: depth)
    index += 1  // {
    var object = JSONObject()
    object.reserveCapacity(4)  // requests have 3–4 members; growing 1→2→4 cost more than this
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(object)
    }
    while true {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw syntax("expected a member name") }
      let key = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw syntax("expected ':'") }
      index += 1
      skipWhitespace()
      let value = try parseValue(depth: depth)
      object.appendParsed(key: key, value: value)
      skipWhitespace()
      guard index < bytes.count else { throw syntax("unterminated object") }
      switch bytes[index] {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
      case UInt8(ascii: "}"):
        index += 1
        return .object(object)
      default:
        throw syntax("expected ',' or '}'")
      }
    }
  }

  private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
    try enter(depth: depth)
    index += 1  // [
    var elements: [JSONValue] = []
    elements.reserveCapacity(4)
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      elements.append(try parseValue(depth: depth))
      skipWhitespace()
      guard index < bytes.count else { throw syntax("unterminated array") }
      switch bytes[index] {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default:
        throw syntax("expected ',' or ']'")
      }
    }
  }

  private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { throw syntax("invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if isDigit(bytes[index]) {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    } else {
      throw syntax("invalid number")
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid number") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard index < bytes.count, isDigit(bytes[index]) else { throw syntax("invalid number") }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    return JSONNumber(validatedText: text)
  }

  @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// Parses a string starting at its opening quote.
  private mutating func parseString() throws(JSONParseError) -> String {
    index += 1  // opening quote
    let start = index
    var isASCII = true
    // Fast path: no escapes. Most protocol strings are short ASCII names and values.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        if isASCII { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else {
          throw JSONParseError(reason: .syntax, offset: start, detail: "invalid UTF-8 in string")
        }
        return text
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw syntax("control character in string") }
      if byte >= 0x80 { isASCII = false }
      index += 1
    }
    guard index < bytes.count else { throw syntax("unterminated string") }
    return try parseEscapedString(from: start)
  }

  /// The slow path: a string with escapes, rebuilt byte by byte.
  private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(index - start + 16)
    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        guard let text = String(validating: out, as: UTF8.self) else {
          throw JSONParseError(reason: .syntax, offset: start, detail: "invalid UTF-8 in string")
        }
        return text
      case UInt8(ascii: "\\"):
        index += 1
        guard index < bytes.count else { throw syntax("unterminated string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"): appendUTF8(try parseUnicodeEscape(), to: &out)
        default: throw syntax("invalid escape")
        }
      default:
        if byte < 0x20 { throw syntax("control character in string") }
        out.append(byte)
        index += 1
      }
    }
    throw syntax("unterminated string")
  }

  /// Reads the hex digits after `\u`, joining a surrogate pair; a lone surrogate is an error
  /// because it cannot become a Swift `String` and RFC 8259 calls its meaning unpredictable.
  private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
    let first = try readHex4()
    switch first {
    case 0xD800...0xDBFF:
      guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
        throw syntax("lone surrogate in string")
      }
      index += 2
      let second = try readHex4()
      guard (0xDC00...0xDFFF).contains(second) else { throw syntax("lone surrogate in string") }
      let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
      return Unicode.Scalar(value)!
    case 0xDC00...0xDFFF:
      throw syntax("lone surrogate in string")
    default:
      return Unicode.Scalar(first)!
    }
  }

  private mutating func readHex4() throws(JSONParseError) -> UInt32 {
    guard bytes.count - index >= 4 else { throw syntax("invalid \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw syntax("invalid \\u escape")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  private func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
    UTF8.encode(scalar) { out.append($0) }
  }
}
