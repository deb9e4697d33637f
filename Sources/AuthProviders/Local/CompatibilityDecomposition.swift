/// NFKC, which Swift's standard library does not offer (it has NFC only, and Foundation stays out of the binary):
/// NFKC of a string is NFC of the string with each scalar replaced by its compatibility decomposition, so the
/// generated table of those decompositions (`CompatibilityMappings`) is all that is missing.
enum CompatibilityDecomposition {
  /// Every scalar whose NFKD differs from its NFD, with that NFKD; read from the table on first use.
  private static let mappings: [UInt32: [Unicode.Scalar]] = parse(CompatibilityMappings.text)

  /// `text` in NFKC.
  static func nfkc(_ text: String) -> String {
    var mapped = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if let replacement = mappings[scalar.value] {
        mapped.append(contentsOf: replacement)
      } else {
        mapped.append(scalar)
      }
    }
    return String(decoding: String(mapped)._nfcCodeUnits, as: UTF8.self)
  }

  /// See `CompatibilityMappings` for the format.
  static func parse(_ text: String) -> [UInt32: [Unicode.Scalar]] {
    var table: [UInt32: [Unicode.Scalar]] = [:]
    for item in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
      if let colon = item.firstIndex(of: ":") {
        guard let source = UInt32(item[..<colon], radix: 16) else { continue }
        table[source] = item[item.index(after: colon)...].split(separator: ".").compactMap(scalar)
      } else if let arrow = item.firstIndex(of: ">") {
        let target = item[item.index(after: arrow)...].split(separator: "+")
        guard let source = UInt32(item[..<arrow], radix: 16), let first = target.first,
          let start = UInt32(first, radix: 16)
        else { continue }
        let count = target.count > 1 ? UInt32(target[1]) ?? 1 : 1
        for offset in 0..<count {
          if let mapped = Unicode.Scalar(start + offset) { table[source + offset] = [mapped] }
        }
      }
    }
    return table
  }

  private static func scalar(_ hex: Substring) -> Unicode.Scalar? {
    UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init)
  }
}
