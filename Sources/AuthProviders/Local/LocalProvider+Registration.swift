import AuthCrypto
import AuthStorage
import AuthSupport

/// Creating embedded accounts. `already_exists` names the taken field, so registration tells whoever asks that a
/// username, email or phone is in use; it is throttled like logins (one count for the whole store, 5 such answers
/// free, then 1 s doubling to 5 minutes, reset by a registration that succeeds) so that names cannot be probed in
/// bulk. It never locks: a lock anyone can trigger would close registration for everyone.
extension LocalProvider {
  /// The key the store-wide count of `already_exists` answers is kept under, beside the login counts.
  static let registrationThrottleKey = SHA256.hash(Array("register:already_exists".utf8))

  package func register(_ registration: Registration, password: String) async throws -> UserInfo {
    let key = Self.registrationThrottleKey
    try await Blocking.run { [stores, clock] in
      try stores.get().read { tx in
        try LoginThrottle.admit(try tx.loginThrottle(identifierHash: key), now: clock.nowMilliseconds(), locks: false)
      }
    }
    let hash = try await Blocking.runCPUBound { [passwords] in try passwords.hash(password) }
    let id = try Self.accountID(try random.bytes(16))
    let account = AccountRecord(
      id: id, username: registration.username, email: registration.email, phone: registration.phone,
      displayName: registration.displayName, passwordHash: hash, createdAt: clock.now())
    // The refusal is returned, not thrown, so that the count it raised is committed.
    let outcome = try await Blocking.run { [stores, clock] in
      try stores.get().write { tx -> Result<Void, ProviderError> in
        do {
          try tx.insertAccount(account)
          try tx.clearLoginThrottle(identifierHash: key)
          return .success(())
        } catch let error as StorageError where error.code == .alreadyExists {
          let now = clock.nowMilliseconds()
          let previous = try tx.loginThrottle(identifierHash: key)
          // Blocked by answers given while this password was hashed: no answer about the name.
          try LoginThrottle.admit(previous, now: now, locks: false)
          try tx.putLoginThrottle(LoginThrottle.afterFailure(previous, now: now), identifierHash: key, now: now / 1000)
          return .failure(ProviderError(.alreadyExists(field: error.field), "account exists"))
        }
      }
    }
    try outcome.get()
    return Self.userInfo(account)
  }

  /// A UUID-shaped id (version 4 layout) from 16 random bytes.
  static func accountID(_ bytes: [UInt8]) throws -> String {
    var bytes = bytes
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let hex = Array(Hex.lowercase(bytes))
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
  }
}
