/// The one canonical form of a login identifier (username, email) that uniqueness, lookup and the login
/// throttle all compare: NFC, then Unicode case folding, then NFC again.
///
/// Byte-wise comparison lets `josé` register twice (precomposed é and e + combining accent look the same), and
/// ASCII-only folding lets `Ärger` and `ärger` both exist; a throttle that folds differently from the lookup
/// would reveal which names exist. Phones need none of this: they are stored as E.164 digits.
package enum IdentifierKey {
  /// The key of `text`. Case folding is taken as the lower-casing of the upper-casing, which is what Unicode's
  /// full case folding does (ß and SS, ς and σ, the ﬁ ligature and fi all meet) save that it also joins the
  /// Turkish dotless ı with i: one more pair that can never be two accounts, never one account split in two.
  /// The standard library offers NFC only through `_nfcCodeUnits`; nothing else here may import Foundation.
  package static func of(_ text: String) -> String {
    let folded = text.uppercased().lowercased()
    return String(decoding: folded._nfcCodeUnits, as: UTF8.self)
  }
}
