import AuthCrypto
import AuthStorage
import AuthSupport

/// Authenticator apps on local accounts (RFC 6238: SHA-1, 6 digits, 30 s steps, one step of drift either way,
/// each code accepted once) and their ten one-time recovery codes. An account with one enrolled answers every
/// correct password with `verificationRequired` offering `totp` and `recovery`.
extension LocalProvider {
  static let recoveryCodeCount = 10
  /// A phone's clock may be off by a step either way; more would keep old codes alive longer than users expect.
  static let allowedDriftSteps: Int64 = 1

  /// Enrolls a new authenticator on the account named `username`, replacing any earlier one and its codes.
  /// - Returns: the `otpauth://` URI for the app (a QR code of it), and the recovery codes, shown this once.
  package func enrollAuthenticator(username: String, issuer: String) async throws -> (uri: String, recovery: [String])
  {
    let secret = try random.secret(20)
    let recovery = try (0..<Self.recoveryCodeCount).map { _ in
      let text = Base32.encode(try random.bytes(7)).lowercased()  // 56 bits: 12 characters, shown as 6-6
      return "\(text.prefix(6))-\(text.dropFirst(6).prefix(6))"
    }
    let account = try await Blocking.run { [stores] in
      try stores.get().write { tx -> AccountRecord in
        guard let account = try tx.account(username: username) else {
          throw ProviderError(.invalidCredentials, "no such account")
        }
        let key = try CodeBook.key(tx)
        let hashes = recovery.map { Self.recoveryHash($0, accountID: account.id, key: key) }
        try tx.putAuthenticator(accountID: account.id, secret: secret, recoveryCodeHashes: hashes)
        return account
      }
    }
    let label = Self.percentEncoded("\(issuer):\(account.username)")
    let encodedSecret = secret.withUnsafeBytes { Base32.encode(Array($0)) }
    let uri = "otpauth://totp/\(label)?secret=\(encodedSecret)&issuer=\(Self.percentEncoded(issuer))"
      + "&algorithm=SHA1&digits=6&period=30"
    return (uri, recovery)
  }

  /// - Returns: whether the account had an authenticator.
  package func removeAuthenticator(username: String) async throws -> Bool {
    try await Blocking.run { [stores] in
      try stores.get().write { tx in
        guard let account = try tx.account(username: username) else { return false }
        return try tx.deleteAuthenticator(accountID: account.id)
      }
    }
  }

  func hasAuthenticator(_ accountID: String) async throws -> Bool {
    try await Blocking.run { [stores] in try stores.get().read { try $0.authenticator(accountID: accountID) != nil } }
  }

  /// A 6-digit code from the app, within the allowed drift and later than the last one accepted.
  func acceptAuthenticatorCode(_ code: String, accountID: String, now: Int64, in tx: WriteTransaction) throws -> Bool {
    guard code.utf8.count == 6, code.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let (secret, lastStep) = try tx.authenticator(accountID: accountID)
    else { return false }
    let current = TOTP.step(at: now)
    var matched: Int64?
    // Every candidate is computed and compared in constant time, so the time taken tells nothing about which
    // step (if any) matched.
    for step in (current - Self.allowedDriftSteps)...(current + Self.allowedDriftSteps) {
      let equal = ConstantTime.equals(Array(TOTP.code(secret: secret, step: step).utf8), Array(code.utf8))
      if equal && step > lastStep && matched == nil { matched = step }
    }
    guard let matched else { return false }
    return try tx.acceptAuthenticatorStep(accountID: accountID, step: matched)
  }

  func acceptRecoveryCode(_ code: String, accountID: String, in tx: WriteTransaction) throws -> Bool {
    let hash = Self.recoveryHash(code, accountID: accountID, key: try CodeBook.key(tx))
    return try tx.consumeRecoveryCode(accountID: accountID, hash: hash)
  }

  /// Keyed like the codes, bound to the account; case, spaces and dashes as the user typed them do not matter.
  static func recoveryHash(_ code: String, accountID: String, key: SecretBytes) -> [UInt8] {
    let normalized = code.lowercased().filter { $0 != "-" && $0 != " " }
    return HMACSHA256.authenticate(Array("recovery\u{0}\(accountID)\u{0}\(normalized)".utf8), key: key)
  }

  private static func percentEncoded(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      let unreserved = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E || byte == 0x3A
      let hex = Array("0123456789ABCDEF")
      out += unreserved ? String(UnicodeScalar(byte)) : "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0x0F)])"
    }
    return out
  }
}
