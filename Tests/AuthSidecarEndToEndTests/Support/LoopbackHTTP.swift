import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal HTTP/1.1 client over a plain socket, for loopback URLs only: it never follows a redirect (the
/// test plays the browser and must see the 302), can send bytes no library would (a forged callback), and
/// tells a refused connection (a closed port) from an answer.
enum LoopbackHTTP {
  struct Answer {
    var status: Int
    var headers: [String: String]
    var body: Data
    func header(_ name: String) -> String? { headers[name.lowercased()] }
    /// The body as a JSON object, if it is one.
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
  }

  enum Failure: Error, Equatable {
    case refused
    case failed(String)
  }

  static func get(_ url: String, headers: [String: String] = [:]) throws -> Answer {
    try send("GET", url, headers: headers)
  }

  static func postJSON(_ url: String, _ object: Any) throws -> Any? {
    let body = try JSONSerialization.data(withJSONObject: object)
    let answer = try send("POST", url, headers: ["Content-Type": "application/json"], body: body)
    guard (200..<300).contains(answer.status) else { throw Failure.failed("POST \(url) answered \(answer.status)") }
    return try? JSONSerialization.jsonObject(with: answer.body)
  }

  static func send(_ method: String, _ url: String, headers: [String: String] = [:], body: Data = Data()) throws
    -> Answer
  {
    let parts = try target(url)
    var head = "\(method) \(parts.path) HTTP/1.1\r\nHost: 127.0.0.1:\(parts.port)\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
    return try exchange(port: parts.port, Data((head + "\r\n").utf8) + body)
  }

  /// Sends `request` as it is to 127.0.0.1:`port` and reads the answer until the server closes.
  static func exchange(port: UInt16, _ request: Data) throws -> Answer {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw Failure.failed("socket") }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    if connected != 0 { throw errno == ECONNREFUSED ? Failure.refused : Failure.failed("connect errno \(errno)") }
    _ = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      received.append(contentsOf: buffer[0..<count])
    }
    return try parse(received)
  }

  static func parse(_ data: Data) throws -> Answer {
    guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure.failed("no complete answer") }
    let lines = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure.failed("bad status line") }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Data(data[split.upperBound...])
    if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunked(body) }
    return Answer(status: status, headers: headers, body: body)
  }

  /// RFC 9112 §7.1: hex size line, that many bytes, CRLF; a zero size ends it (trailers ignored).
  static func dechunked(_ data: Data) -> Data {
    var out = Data()
    var rest = data[...]
    while let lineEnd = rest.range(of: Data("\r\n".utf8)) {
      let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
      guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0,
        rest.distance(from: lineEnd.upperBound, to: rest.endIndex) >= size
      else { break }
      let start = lineEnd.upperBound
      let end = rest.index(start, offsetBy: size)
      out.append(rest[start..<end])
      rest = rest[min(rest.index(end, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex, rest.endIndex)...]
    }
    return out
  }

  /// The port and path-with-query of an `http://127.0.0.1:<port>/…` URL; anything else is refused here.
  static func target(_ url: String) throws -> (port: UInt16, path: String) {
    let prefix = "http://127.0.0.1:"
    guard url.hasPrefix(prefix) else { throw Failure.failed("not a 127.0.0.1 URL: \(url)") }
    let rest = url.dropFirst(prefix.count)
    let portText = rest.prefix { $0.isNumber }
    guard let port = UInt16(portText) else { throw Failure.failed("no port in \(url)") }
    let path = rest.dropFirst(portText.count)
    return (port, path.isEmpty ? "/" : String(path))
  }
}
