/// The languages messages are written in.
package enum MessageLocale: String, Sendable, CaseIterable {
  case en
  case zhHans = "zh-Hans"

  /// Maps a BCP 47 tag (case-insensitive; `_` accepted for `-` as POSIX locales write it).
  ///
  /// `nil`, empty and unknown tags give `.en`. Any tag whose primary language is `zh` gives `.zhHans`,
  /// except Traditional Chinese: script `Hant`, or region `TW`, `HK` or `MO` without an explicit `Hans`
  /// script. We have no Traditional messages, and Simplified text is the wrong answer there.
  package init(tag: String?) {
    guard let tag else {
      self = .en
      return
    }
    // The tags hosts actually send, without splitting.
    if tag == "en" {
      self = .en
    } else if tag == "zh-Hans" {
      self = .zhHans
    } else {
      self = Self.resolve(tag)
    }
  }

  private static func resolve(_ tag: String) -> MessageLocale {
    var subtags = Subtags(tag.utf8)
    // Primary subtag must be exactly `zh`: `zha` (Zhuang) only starts with the same letters.
    guard let primary = subtags.next(), ASCII.equalsIgnoringCase(primary, "zh") else { return .en }
    var traditionalRegion = false
    while let subtag = subtags.next() {
      switch subtag.count {
      case 1:
        // A singleton starts an extension or private use (`-u-…`, `-x-…`): nothing after it is a
        // script or region.
        return traditionalRegion ? .en : .zhHans
      case 4:
        if ASCII.equalsIgnoringCase(subtag, "hant") { return .en }
        if ASCII.equalsIgnoringCase(subtag, "hans") { return .zhHans }
      case 2:
        if ASCII.equalsIgnoringCase(subtag, "tw") || ASCII.equalsIgnoringCase(subtag, "hk")
          || ASCII.equalsIgnoringCase(subtag, "mo")
        {
          traditionalRegion = true
        }
      default:
        // Extended language (`zh-yue`), numeric regions and variants do not pick a script.
        break
      }
    }
    return traditionalRegion ? .en : .zhHans
  }

  /// The subtags of a tag, split at `-` or `_` without allocating (`split` would build an array).
  private struct Subtags: IteratorProtocol {
    let bytes: String.UTF8View
    var position: String.Index?

    init(_ bytes: String.UTF8View) {
      self.bytes = bytes
      position = bytes.startIndex
    }

    mutating func next() -> Substring.UTF8View? {
      guard let start = position else { return nil }
      let end = bytes[start...].firstIndex { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
      position = end.map(bytes.index(after:))
      return bytes[start..<(end ?? bytes.endIndex)]
    }
  }
}
