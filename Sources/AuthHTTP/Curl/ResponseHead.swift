/// The header fields of the final response, from the lines libcurl's header callback hands over one by one.
///
/// The callback only copies bytes: the fields are parsed when someone reads them (`HTTPResponse.headers`), and on
/// bytes rather than `String`s. Parsing each line into strings as it arrived was half of the client's CPU per
/// request.
struct ResponseHead: Sendable {
  /// The raw lines of the latest head, CRLFs included.
  private var raw: [UInt8] = []

  /// Takes one raw line, CRLF included. A status line starts a new head: an interim `100 Continue` or `103`
  /// (and a proxy's answer to CONNECT, should one get through) is followed by the real one.
  mutating func take(line bytes: UnsafeRawBufferPointer) {
    if Self.isStatusLine(bytes) {
      raw.removeAll(keepingCapacity: true)
      // A head is a few hundred bytes: one allocation rather than doubling from empty, line by line.
      raw.reserveCapacity(1024)
    }
    raw.append(contentsOf: bytes)
  }

  /// Whether a line starts with `HTTP/`. Compared byte by byte: the general `starts(with:)` is a good deal more
  /// code, and every line of code an answer runs is fetched cold after the server's wait.
  private static func isStatusLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count >= 5 && bytes[0] == UInt8(ascii: "H") && bytes[1] == UInt8(ascii: "T") && bytes[2] == UInt8(ascii: "T")
      && bytes[3] == UInt8(ascii: "P") && bytes[4] == UInt8(ascii: "/")
  }

  /// Lower-cased names in order of name; `set-cookie` keeps one entry per cookie, any other repeated field is
  /// one entry with its values joined by ", " (RFC 9110 §5.3), which is what `HTTPResponse` promises.
  var headers: [HTTPHeader] {
    var fields = raw.withUnsafeBufferPointer(Self.fields)
    // Sorted by name, fields of one name in the order they came: an insertion sort, stable, on the dozen fields a
    // response has. Every line of code a response runs is fetched from memory after the server's wait; the
    // standard library's general sort on (name, index) pairs ran several times more of it for the same order.
    for next in fields.indices.dropFirst() {
      let field = fields[next]
      var slot = next
      while slot > 0, Self.orders(field.name, before: fields[slot - 1].name) {
        fields[slot] = fields[slot - 1]
        slot -= 1
      }
      if slot != next { fields[slot] = field }
    }
    var headers: [HTTPHeader] = []
    headers.reserveCapacity(fields.count)
    for field in fields {
      if field.name != "set-cookie", let last = headers.last, last.name == field.name {
        headers[headers.count - 1].value += ", " + field.value
      } else {
        headers.append(field)
      }
    }
    return headers
  }

  /// Byte order of two lower-cased names, which is their `String` order for the ASCII that names are.
  private static func orders(_ name: String, before other: String) -> Bool {
    var name = name, other = other
    return name.withUTF8 { a in other.withUTF8 { b in a.lexicographicallyPrecedes(b) } }
  }

  private static func fields(_ bytes: UnsafeBufferPointer<UInt8>) -> [HTTPHeader] {
    var fields: [HTTPHeader] = []
    fields.reserveCapacity(16)
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      defer { start = end + 1 }
      var stop = end
      while stop > start, bytes[stop - 1] == UInt8(ascii: "\r") || bytes[stop - 1] == UInt8(ascii: "\n") { stop -= 1 }
      let line = UnsafeBufferPointer(rebasing: bytes[start..<stop])
      guard let first = line.first, !isStatusLine(UnsafeRawBufferPointer(line)) else { continue }
      if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
        // An obsolete folded line continues the previous field's value (RFC 9112 §5.2).
        if !fields.isEmpty { fields[fields.count - 1].value += " " + text(trimmed(line[...])) }
      } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
        let name = trimmed(line[..<colon])
        guard !name.isEmpty else { continue }
        fields.append(HTTPHeader(lowercased(name), text(trimmed(line[(colon + 1)...]))))
      }
    }
    return fields
  }

  /// Without leading and trailing spaces and tabs, the whitespace HTTP allows around values.
  private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return bytes[bytes.startIndex..<bytes.startIndex] }
    return bytes[first...last]
  }

  private static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
  }

  /// Names are ASCII tokens; anything else takes the general (slower) path.
  private static func lowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return text(bytes).lowercased() }
    return String(unsafeUninitializedCapacity: bytes.count) { buffer in
      for (offset, byte) in bytes.enumerated() {
        buffer[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
      }
      return bytes.count
    }
  }
}
