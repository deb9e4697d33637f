/// Where a value sits in the config, printed as a user would point at it: `profiles.work.local.accessTokenTTLSeconds`.
struct JSONPath: Sendable, Equatable, CustomStringConvertible {
  /// Keys longer than this are cut: a key is never a secret, but a pasted blob should not flood the terminal.
  static let maxShownKeyLength = 64

  private(set) var keys: [String] = []

  static let root = JSONPath()

  func appending(_ key: String) -> JSONPath {
    var path = self
    path.keys.append(key)
    return path
  }

  /// Plain keys joined by dots; any other key in `["…"]`, so that a profile named `a.b` does not read as two
  /// levels, and escaped, so that control characters in a key cannot rewrite the terminal line.
  var description: String {
    var text = ""
    for key in keys {
      if Self.isPlain(key) {
        if !text.isEmpty { text += "." }
        text += key
      } else {
        text += "[\"" + Self.escaped(key) + "\"]"
      }
    }
    return text
  }

  private static func isPlain(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.count <= maxShownKeyLength
      && key.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
          true
        default: false
        }
      }
  }

  private static func escaped(_ key: String) -> String {
    var text = ""
    for (index, scalar) in key.unicodeScalars.enumerated() {
      if index == maxShownKeyLength { return text + "…" }
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      default:
        let category = scalar.properties.generalCategory
        if category == .control || category == .format || category == .lineSeparator
          || category == .paragraphSeparator
        {
          text += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
          text.unicodeScalars.append(scalar)
        }
      }
    }
    return text
  }
}
