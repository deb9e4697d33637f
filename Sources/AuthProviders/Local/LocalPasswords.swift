import AuthCrypto

/// Passwords as the local provider hashes and checks them: normalized to NFKC first, as NIST SP 800-63B §5.1.1.2
/// recommends for verifiers that accept Unicode, so the same password typed on two keyboards (é precomposed on
/// one, e + combining accent on the other; a full-width ａ from an East Asian input method) is the same password.
struct LocalPasswords: Sendable {
  let hasher: PasswordHasher

  /// What a check found.
  enum Match: Equatable {
    case none
    /// The password is right; `rehash` when the stored hash should be replaced by `hash(_:)` of it (older KDF
    /// parameters, or a hash made before passwords were normalized).
    case matched(rehash: Bool)
  }

  func hash(_ password: String) throws -> String { try hasher.hash(password: Self.normalized(password)) }

  /// Checks `password` against `encoded`. A hash made before normalization holds the password as typed, so when
  /// the normalized form does not match and differs from it, the password as typed is tried too (and the hash is
  /// then due for replacement). The second try depends on the password only, never on the account.
  func verify(_ password: String, against encoded: String) throws -> Match {
    let normalized = Self.normalized(password)
    if try hasher.verify(password: normalized, encoded: encoded) {
      return .matched(rehash: hasher.needsRehash(encoded))
    }
    guard !normalized.unicodeScalars.elementsEqual(password.unicodeScalars),
      try hasher.verify(password: password, encoded: encoded) else { return .none }
    return .matched(rehash: true)
  }

  /// The normalized form, NFKC (see `CompatibilityDecomposition`). Swift's `==` on strings compares canonically,
  /// which is why `verify` compares scalars.
  static func normalized(_ password: String) -> String { CompatibilityDecomposition.nfkc(password) }
}
