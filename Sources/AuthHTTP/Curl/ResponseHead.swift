/// The header fields of the final response, from the lines libcurl's header callback hands over one by one.
struct ResponseHead {
  private var fields: [HTTPHeader] = []

  /// Takes one raw line, CRLF included. A status line starts a new head: an interim `100 Continue` or `103`
  /// (and a proxy's answer to CONNECT, should one get through) is followed by the real one.
  mutating func take(line bytes: UnsafeRawBufferPointer) {
    var line = Substring(String(decoding: bytes, as: UTF8.self))
    while let last = line.last, last == "\r\n" || last == "\n" || last == "\r" { line = line.dropLast() }
    if line.hasPrefix("HTTP/") {
      fields = []
    } else if let first = line.first, first == " " || first == "\t", let previous = fields.popLast() {
      // An obsolete folded line continues the previous field's value (RFC 9112 §5.2).
      fields.append(HTTPHeader(previous.name, previous.value + " " + String(line).trimmingASCIIWhitespace()))
    } else if let colon = line.firstIndex(of: ":") {
      let name = String(line[..<colon]).trimmingASCIIWhitespace().lowercased()
      guard !name.isEmpty else { return }
      fields.append(HTTPHeader(name, String(line[line.index(after: colon)...]).trimmingASCIIWhitespace()))
    }
  }

  /// Lower-cased names in order of name; `set-cookie` keeps one entry per cookie, any other repeated field is
  /// one entry with its values joined by ", " (RFC 9110 §5.3), which is what `HTTPResponse` promises.
  var headers: [HTTPHeader] {
    var order: [String] = []
    var values: [String: [String]] = [:]
    for field in fields {
      if values[field.name] == nil { order.append(field.name) }
      values[field.name, default: []].append(field.value)
    }
    return order.sorted().flatMap { name -> [HTTPHeader] in
      let all = values[name] ?? []
      return name == "set-cookie" ? all.map { HTTPHeader(name, $0) } : [HTTPHeader(name, all.joined(separator: ", "))]
    }
  }
}
