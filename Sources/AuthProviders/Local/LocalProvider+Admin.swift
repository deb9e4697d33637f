import AuthStorage
import AuthSupport

/// What `auth-sidecar users` does to an account beyond creating it.
extension LocalProvider {
  /// Sets a new password (hashed like every other, see `LocalPasswords`), ends every session of the account and
  /// lifts its login lock: the lock exists to stop guessing the old password.
  /// - Returns: false when there is no such account.
  package func changePassword(username: String, to password: String) throws -> Bool {
    let hash = try passwords.hash(password)
    return try stores.get().write { tx in
      guard var account = try tx.account(username: username) else { return false }
      account.passwordHash = hash
      try tx.updateAccount(account)
      try tx.revokeRefreshTokens(accountID: account.id)
      try tx.clearLoginThrottle(identifierHash: LoginThrottle.key(of: account))
      return true
    }
  }

  /// Forgets the account's failed logins, lifting a lock or a block.
  /// - Returns: false when there is no such account.
  package func unlock(username: String) throws -> Bool {
    try stores.get().write { tx in
      guard let account = try tx.account(username: username) else { return false }
      try tx.clearLoginThrottle(identifierHash: LoginThrottle.key(of: account))
      return true
    }
  }
}
