/// The one rule for a profile's name, in the config file and in every request's `profile` param: 1–64
/// characters of `[A-Za-z0-9_.-]` (the same as `ProfileName` in `schema/`). Names travel in requests, log lines
/// and store keys, where anything else would need quoting or could be read as a path.
package struct ProfileName: Sendable, Hashable, CustomStringConvertible {
  /// The profile a request uses when it names none, and the one the built-in config has.
  package static let `default` = ProfileName(checked: "default")
  package static let lengthRange = 1...64

  package let rawValue: String

  /// Nil when `text` breaks the rule.
  package init?(_ text: String) {
    guard Self.lengthRange.contains(text.utf8.count), text.utf8.allSatisfy(Self.isNameByte) else { return nil }
    rawValue = text
  }

  private init(checked text: String) { rawValue = text }

  package var description: String { rawValue }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
      true
    default: false
    }
  }
}
