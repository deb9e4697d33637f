import AuthJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A JSON string as it stands in the line: the range of its content, and whether escapes must be decoded.
///
/// Offsets are 32-bit (`FastPath` declines longer lines): a request holds a dozen of these, and copying them
/// is a good part of its cost.
struct ScannedString {
  private let start: Int32
  private let end: Int32
  let escaped: Bool

  init(range: Range<Int>, escaped: Bool) {
    start = Int32(truncatingIfNeeded: range.lowerBound)
    end = Int32(truncatingIfNeeded: range.upperBound)
    self.escaped = escaped
  }

  var range: Range<Int> { Int(start)..<Int(end) }
}

/// A scalar JSON value; objects and arrays nested in params are left to the general path.
enum ScannedValue {
  case string(ScannedString)
  /// A number's lexeme (never escaped).
  case number(ScannedString)
  case bool
  case null

  /// The name a wrong-type error gives it, taken from `JSONValue` so the two paths word it alike.
  var typeName: String {
    switch self {
    case .string: JSONValue.string("").typeName
    case .number: JSONValue.number(JSONNumber(0)).typeName
    case .bool: JSONValue.bool(false).typeName
    case .null: JSONValue.null.typeName
    }
  }
}

/// A cursor over one line that reads the JSON tokens the fast path understands and answers nil for anything
/// else: a byte beyond ASCII, an escape of one, or whatever is not strict RFC 8259 (the general path then
/// gives the exact parse error).
struct ByteScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  private(set) var index = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var atEnd: Bool { index == bytes.count }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// The next byte after white space, without taking it.
  // Inlined, as `take` is: as calls, the brackets and commas of a batch of one were two fifths of its extra cost over
  // a plain line (~60 of ~150 instructions under callgrind).
  @inline(__always)
  mutating func peek() -> UInt8? {
    skipWhitespace()
    return index < bytes.count ? bytes[index] : nil
  }

  /// Takes `byte` if it comes next (after white space).
  @inline(__always)
  mutating func take(_ byte: UInt8) -> Bool {
    // Compact JSON first: the byte is right here.
    if index < bytes.count, bytes[index] == byte {
      index += 1
      return true
    }
    guard peek() == byte else { return false }
    index += 1
    return true
  }

  /// A string, at its opening quote (after white space).
  mutating func string() -> ScannedString? {
    guard take(UInt8(ascii: "\"")) else { return nil }
    let start = index
    let base = bytes.baseAddress!
    let end = bytes.count
    // Most strings are plain: look for the first byte that is not visible ASCII other than a backslash, eight
    // bytes at a time. Each load reads `base[at..<at + 8]`, inside the line since `at + 8 <= end`; the last few
    // bytes are read one by one.
    var at = start
    while at &+ 8 <= end {
      let unusual = Self.unusualBytes(UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)))
      if unusual != 0 {
        at &+= unusual.trailingZeroBitCount &>> 3
        break
      }
      at &+= 8
    }
    while at < end, Self.isPlain(base[at]) { at &+= 1 }
    if at < end, base[at] == UInt8(ascii: "\"") {
      index = at + 1
      return ScannedString(range: start..<at, escaped: false)
    }
    // An escape, a control character, a byte beyond ASCII or the end of the line.
    var escaped = false
    while at < end {
      let byte = base[at]
      if Self.isPlain(byte) {
        at &+= 1
        continue
      }
      if byte == UInt8(ascii: "\"") {
        index = at + 1
        return ScannedString(range: start..<at, escaped: escaped)
      }
      if byte == UInt8(ascii: "\\") {
        let length = Self.escapeLength(bytes, at: at)
        guard length > 0 else { return nil }
        at += length
        escaped = true
      } else {
        return nil  // a control character (not JSON) or a byte beyond ASCII (the general path's)
      }
    }
    return nil
  }

  /// Visible ASCII other than a quote or a backslash: a byte a plain string holds.
  private static func isPlain(_ byte: UInt8) -> Bool {
    byte &- 0x20 < 0x60 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
  }

  /// The high bit of each byte of `word` (little-endian: its first byte lowest) that is not plain, or of a byte
  /// above the first such one. Byte-wise subtractions may borrow into the next byte, which can only flag bytes
  /// above a flagged one: the lowest flag is always exact, and only it is read.
  static func unusualBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
    let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
    let isQuote = (quote &- ones) & ~quote  // high bit of a byte that was 0x22
    let isBackslash = (backslash &- ones) & ~backslash
    let isControl = (word &- ones &* 0x20) & ~word  // below 0x20 (a byte from 0x80 is flagged by its own high bit)
    return (isQuote | isBackslash | isControl | word) & (ones &* 0x80)
  }

  /// A string, number, `true`, `false` or `null` (after white space).
  mutating func scalar() -> ScannedValue? {
    guard let next = peek() else { return nil }
    switch next {
    case UInt8(ascii: "\""): return string().map(ScannedValue.string)
    case UInt8(ascii: "t"): return take(literal: "true") ? .bool : nil
    case UInt8(ascii: "f"): return take(literal: "false") ? .bool : nil
    case UInt8(ascii: "n"): return take(literal: "null") ? .null : nil
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return number().map { .number(ScannedString(range: $0, escaped: false)) }
    default: return nil
    }
  }

  /// Whether the content of `string` (unescaped) is `literal`.
  func matches(_ string: ScannedString, _ literal: StaticString) -> Bool {
    guard !string.escaped, string.range.count == literal.utf8CodeUnitCount else { return false }
    return memcmp(bytes.baseAddress! + string.range.lowerBound, literal.utf8Start, string.range.count) == 0
  }

  /// Whether two plain strings have the same content.
  func equal(_ first: ScannedString, _ second: ScannedString) -> Bool {
    first.range.count == second.range.count
      && memcmp(bytes.baseAddress! + first.range.lowerBound, bytes.baseAddress! + second.range.lowerBound,
        first.range.count) == 0
  }

  /// Takes `text` if the bytes at the position (no white space first) are exactly it.
  mutating func take(literal text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard bytes.count - index >= count, memcmp(bytes.baseAddress! + index, text.utf8Start, count) == 0 else {
      return false
    }
    index += count
    return true
  }

  /// RFC 8259's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  private mutating func number() -> Range<Int>? {
    let start = index
    if byte(is: UInt8(ascii: "-")) { index += 1 }
    if byte(is: UInt8(ascii: "0")) {
      index += 1
    } else {
      guard digits() else { return nil }
    }
    if byte(is: UInt8(ascii: ".")) {
      index += 1
      guard digits() else { return nil }
    }
    if byte(is: UInt8(ascii: "e")) || byte(is: UInt8(ascii: "E")) {
      index += 1
      if byte(is: UInt8(ascii: "+")) || byte(is: UInt8(ascii: "-")) { index += 1 }
      guard digits() else { return nil }
    }
    return start..<index
  }

  private func byte(is expected: UInt8) -> Bool { index < bytes.count && bytes[index] == expected }

  /// One or more digits.
  private mutating func digits() -> Bool {
    let start = index
    while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
    return index > start
  }

  /// The length of the escape at `index` (a backslash), or 0 when it is not one the fast path decodes:
  /// `\u` must name an ASCII character, so surrogates and everything beyond ASCII go to the general path.
  private static func escapeLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
    guard index + 1 < bytes.count else { return 0 }
    switch bytes[index + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
      UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return 2
    case UInt8(ascii: "u"):
      guard index + 5 < bytes.count, let value = hex4(bytes, at: index + 2), value < 0x80 else { return 0 }
      return 6
    default:
      return 0
    }
  }

  private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
    var value: UInt32 = 0
    for byte in bytes[start..<(start + 4)] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Decodes `string`'s escapes (already checked by `string()`) into `out`, which holds at least
  /// `string.range.count` bytes; returns the decoded length.
  func decode(_ string: ScannedString, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
    var count = 0
    var index = string.range.lowerBound
    while index < string.range.upperBound {
      var byte = bytes[index]
      index += 1
      if byte == UInt8(ascii: "\\") {
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "b"): byte = 0x08
        case UInt8(ascii: "f"): byte = 0x0C
        case UInt8(ascii: "n"): byte = 0x0A
        case UInt8(ascii: "r"): byte = 0x0D
        case UInt8(ascii: "t"): byte = 0x09
        case UInt8(ascii: "u"):
          byte = UInt8(Self.hex4(bytes, at: index)!)
          index += 4
        default: byte = escape  // `"`, `\` and `/` stand for themselves
        }
      }
      out[count] = byte
      count += 1
    }
    return count
  }

  /// Runs `body` on the content of `string`, decoded when it holds escapes.
  func withText<R>(_ string: ScannedString, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    guard string.escaped else { return body(UnsafeBufferPointer(rebasing: bytes[string.range])) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: string.range.count) { buffer in
      body(UnsafeBufferPointer(rebasing: buffer[..<decode(string, into: buffer)]))
    }
  }

  /// The content of `string` as a String (error answers only).
  func text(_ string: ScannedString) -> String {
    withText(string) { String(decoding: $0, as: UTF8.self) }
  }
}
