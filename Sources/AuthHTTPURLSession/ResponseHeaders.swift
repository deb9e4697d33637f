import AuthHTTP
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Headers of a FoundationNetworking response in the form `HTTPResponse` promises.
enum ResponseHeaders {
  /// Lower-cased, sorted by name, `set-cookie` split back into one entry per cookie.
  ///
  /// FoundationNetworking hands over a dictionary: repeated fields are already joined with ", "
  /// (HTTPMessage.swift `headersAsDictionary`) and names keep the server's case, so `Set-Cookie`
  /// and `set-cookie` may be two keys.
  static func from(_ response: HTTPURLResponse) -> [HTTPHeader] {
    var byName: [String: [String]] = [:]
    for (key, value) in response.allHeaderFields {
      guard let name = key as? String, let value = value as? String else { continue }
      let lower = name.lowercased()
      byName[lower, default: []] += lower == "set-cookie" ? splitJoinedSetCookie(value) : [value]
    }
    var headers: [HTTPHeader] = []
    for (name, values) in byName.sorted(by: { $0.key < $1.key }) {
      if name == "set-cookie" {
        headers += values.map { HTTPHeader(name, $0) }
      } else {
        headers.append(HTTPHeader(name, values.joined(separator: ", ")))
      }
    }
    return headers
  }

  /// Undoes the ", " join of several `Set-Cookie` fields. A comma separates two cookies when the
  /// text after it, up to the next `;` or `,`, holds an `=` (it starts a new `name=value`). The comma
  /// inside an `Expires` date ("Wed, 21 Oct 2037 07:28:00 GMT") is followed by no `=` before its `;`,
  /// so the date stays whole.
  static func splitJoinedSetCookie(_ joined: String) -> [String] {
    let bytes = Array(joined.utf8)
    var cookies: [String] = []
    var start = 0
    for index in bytes.indices where bytes[index] == UInt8(ascii: ",") {
      var probe = index + 1
      var startsPair = false
      while probe < bytes.count, bytes[probe] != UInt8(ascii: ";"), bytes[probe] != UInt8(ascii: ",") {
        if bytes[probe] == UInt8(ascii: "=") {
          startsPair = true
          break
        }
        probe += 1
      }
      guard startsPair else { continue }
      cookies.append(String(decoding: bytes[start..<index], as: UTF8.self))
      start = index + 1
    }
    cookies.append(String(decoding: bytes[start...], as: UTF8.self))
    return cookies.map(trimmed).filter { !$0.isEmpty }
  }

  /// Without leading and trailing spaces and tabs, the whitespace HTTP allows around values.
  private static func trimmed(_ text: String) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(text[first...last])
  }
}
