/// Compact JSON output, appended to a byte buffer.
///
/// Members are written in the order they are held, so answers are byte-stable for golden
/// transcripts. Strings are escaped minimally (quote, backslash, control characters), which
/// keeps every message on one line.
package enum JSONWriter {
  package static func write(_ value: JSONValue, into out: inout [UInt8]) {
    switch value {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
    case .number(let n): out.append(contentsOf: n.text.utf8)
    case .string(let s): writeString(s, into: &out)
    case .array(let elements):
      out.append(UInt8(ascii: "["))
      for (i, element) in elements.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        write(element, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let object):
      out.append(UInt8(ascii: "{"))
      for (i, member) in object.members.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        writeString(member.key, into: &out)
        out.append(UInt8(ascii: ":"))
        write(member.value, into: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  package static func encode(_ value: JSONValue) -> [UInt8] {
    var out: [UInt8] = []
    write(value, into: &out)
    return out
  }

  package static func string(_ value: JSONValue) -> String {
    String(decoding: encode(value), as: UTF8.self)
  }

  @inlinable
  package static func writeString(_ string: String, into out: inout some JSONSink) {
    var string = string
    string.withUTF8 { writeString(utf8: $0, into: &out) }
  }

  /// A string given as its UTF-8 bytes (already valid UTF-8), quoted and escaped exactly as `writeString` does:
  /// the request fast path writes the texts it never turns into Strings through this.
  @inlinable
  package static func writeString(utf8: UnsafeBufferPointer<UInt8>, into out: inout some JSONSink) {
    out.append(UInt8(ascii: "\""))
    var runStart = 0
    for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
      out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
      runStart = i + 1
      out.append(UInt8(ascii: "\\"))
      switch byte {
      case 0x22: out.append(0x22)
      case 0x5C: out.append(0x5C)
      case 0x0A: out.append(UInt8(ascii: "n"))
      case 0x0D: out.append(UInt8(ascii: "r"))
      case 0x09: out.append(UInt8(ascii: "t"))
      case 0x08: out.append(UInt8(ascii: "b"))
      case 0x0C: out.append(UInt8(ascii: "f"))
      default:
        out.append(static: "u00")
        out.append(hexDigit(byte >> 4))
        out.append(hexDigit(byte & 0x0F))
      }
    }
    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    out.append(UInt8(ascii: "\""))
  }

  /// The lower-case hex digit of `nibble` (0...15).
  @usableFromInline
  static func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
  }
}
