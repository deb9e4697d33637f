import AuthCrypto

/// Sessions, one per profile, guarded by the profile's generation.
///
/// The generation rises by one on every login (`beginSession`) and every logout (`clearSession`). A refresh
/// reads the session, talks to the network outside any transaction, then saves with `replaceSession`, which
/// refuses when the generation moved on meanwhile: a refresh that finishes after a logout or a new login is
/// discarded instead of resurrecting the old session.
extension ReadTransaction {
  /// The profile's session, or nil when it is logged out.
  /// - Throws: `StorageError.corrupt` when a sealed column does not decrypt (e.g. the key changed).
  package func session(profile: String) throws -> SessionRecord? {
    let sealed = try db.row(
      """
      SELECT p.generation, s.user_json, s.access_token, s.refresh_token, s.id_token, s.token_type, s.expires_at,
        s.scopes, s.provider_state, s.updated_at
      FROM sessions s JOIN profiles p ON p.profile = s.profile
      WHERE s.profile = ?
      """, [.text(profile)]
    ) { row in
      (
        generation: row.integer(0), user: row.blob(1), access: row.blob(2), refresh: row.optionalBlob(3),
        id: row.optionalBlob(4), tokenType: row.text(5), expiresAt: row.integer(6), scopes: row.text(7),
        state: row.optionalBlob(8), updatedAt: row.integer(9)
      )
    }
    guard let sealed else { return nil }
    let table = "sessions"
    return SessionRecord(
      profile: profile,
      generation: sealed.generation,
      userJSON: try sealer.open(sealed.user, table, "user_json", row: profile),
      accessToken: try sealer.openSecret(sealed.access, table, "access_token", row: profile),
      refreshToken: try sealed.refresh.map { try sealer.openSecret($0, table, "refresh_token", row: profile) },
      idToken: try sealed.id.map { try sealer.openSecret($0, table, "id_token", row: profile) },
      tokenType: sealed.tokenType,
      expiresAt: sealed.expiresAt,
      scopes: sealed.scopes.split(separator: " ").map(String.init),
      providerState: try sealed.state.map { try sealer.open($0, table, "provider_state", row: profile) },
      updatedAt: sealed.updatedAt)
  }

  /// The profile's current generation: 0 if it never logged in, then +1 per login and per logout.
  package func sessionGeneration(profile: String) throws -> Int64 {
    try db.row("SELECT generation FROM profiles WHERE profile = ?", [.text(profile)]) { $0.integer(0) } ?? 0
  }

  /// The account the profile last logged in with, whether or not it is logged in now. The caller decides how
  /// long it stays relevant (`rememberAccountDays`).
  package func lastAccount(profile: String) throws -> LastAccount? {
    let sealed = try db.row(
      "SELECT last_account, last_login_at FROM profiles WHERE profile = ? AND last_account IS NOT NULL",
      [.text(profile)]
    ) { (account: $0.blob(0), at: $0.integer(1)) }
    guard let sealed else { return nil }
    let account = try sealer.open(sealed.account, "profiles", "last_account", row: profile)
    return LastAccount(account: String(decoding: account, as: UTF8.self), loggedInAt: sealed.at)
  }
}

extension WriteTransaction {
  /// Stores a new login's session, replacing any previous one, and records `lastAccount` (when given) with
  /// `record.updatedAt` as the login time. `record.generation` is ignored.
  /// - Returns: the new generation; the caller keeps it (or re-reads the session) for later `replaceSession`s.
  @discardableResult
  package func beginSession(_ record: SessionRecord, lastAccount: String? = nil) throws -> Int64 {
    let generation = try bumpGeneration(record.profile)
    // A replaced session's sealed tokens must not outlive it in the WAL (see `clearSession`); a first login
    // replaces nothing.
    if try db.row("SELECT 1 FROM sessions WHERE profile = ?", [.text(record.profile)], { _ in true }) != nil {
      db.scrubAfterCommit = true
    }
    if let lastAccount {
      let sealed = try sealer.seal(Array(lastAccount.utf8), "profiles", "last_account", row: record.profile)
      try db.run(
        "UPDATE profiles SET last_account = ?, last_login_at = ? WHERE profile = ?",
        [.blob(sealed), .integer(record.updatedAt), .text(record.profile)])
    }
    try db.run(
      """
      INSERT OR REPLACE INTO sessions (user_json, access_token, refresh_token, id_token, token_type, expires_at,
        scopes, provider_state, updated_at, profile)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """, try columns(record))
    return generation
  }

  /// Saves a refreshed session only if the profile is still logged in at `record.generation`.
  /// - Returns: false, changing nothing, when a logout or a new login happened since `record` was read: the
  ///   caller must discard its result (and must not report it as the session).
  package func replaceSession(_ record: SessionRecord) throws -> Bool {
    guard try loggedInGeneration(record.profile) == record.generation else { return false }
    // The replaced tokens must not outlive the refresh in the WAL either (see `clearSession`).
    db.scrubAfterCommit = true
    let changed = try db.run(
      """
      UPDATE sessions SET user_json = ?, access_token = ?, refresh_token = ?, id_token = ?, token_type = ?,
        expires_at = ?, scopes = ?, provider_state = ?, updated_at = ?
      WHERE profile = ?
      """, try columns(record))
    return changed == 1
  }

  /// Replaces only the cached user of the session at `generation` (after `getUser {refresh: true}`).
  /// The tokens are left alone: a refresh by another process may have rotated them since the
  /// caller read the session, and writing back old tokens would lose the rotated refresh token.
  /// - Returns: false, changing nothing, when the session is gone or at another generation.
  package func updateCachedUser(profile: String, generation: Int64, userJSON: [UInt8], at time: Int64) throws -> Bool {
    guard try loggedInGeneration(profile) == generation else { return false }
    let sealed = try sealer.seal(userJSON, "sessions", "user_json", row: profile)
    return try db.run(
      "UPDATE sessions SET user_json = ?, updated_at = ? WHERE profile = ?",
      [.blob(sealed), .integer(time), .text(profile)]) == 1
  }

  /// Replaces only the provider state (the form provider's cookie jar after the site rotated a cookie) of the
  /// session at `generation`; tokens and user are left alone, for the reason `updateCachedUser` gives.
  /// - Returns: false, changing nothing, when the session is gone or at another generation.
  package func updateProviderState(profile: String, generation: Int64, state: [UInt8], at time: Int64) throws -> Bool {
    guard try loggedInGeneration(profile) == generation else { return false }
    let sealed = try sealer.seal(state, "sessions", "provider_state", row: profile)
    return try db.run(
      "UPDATE sessions SET provider_state = ?, updated_at = ? WHERE profile = ?",
      [.blob(sealed), .integer(time), .text(profile)]) == 1
  }

  /// Logs the profile out locally: tokens, cookies and the cached user are deleted and the generation rises, so
  /// in-flight refreshes are discarded. Idempotent.
  ///
  /// secure_delete zeroes the deleted row in the page's newest version only; the WAL still holds earlier
  /// versions of that page, sealed tokens included. So once this transaction commits, `Store` checkpoints the
  /// WAL into the database and truncates it to zero bytes, which leaves no frame with the old values.
  /// The last account survives; see `forgetLastAccount(profile:)`.
  /// - Returns: whether there was a session to remove.
  @discardableResult
  package func clearSession(profile: String) throws -> Bool {
    try bumpGeneration(profile)
    db.scrubAfterCommit = true
    return try db.run("DELETE FROM sessions WHERE profile = ?", [.text(profile)]) > 0
  }

  /// Drops the remembered last account (e.g. when the user asks to be forgotten).
  package func forgetLastAccount(profile: String) throws {
    try db.run(
      "UPDATE profiles SET last_account = NULL, last_login_at = NULL WHERE profile = ?", [.text(profile)])
  }

  /// The generation of the profile's session; nil when it is logged out.
  private func loggedInGeneration(_ profile: String) throws -> Int64? {
    try db.row(
      "SELECT p.generation FROM sessions s JOIN profiles p ON p.profile = s.profile WHERE s.profile = ?",
      [.text(profile)]
    ) { $0.integer(0) }
  }

  @discardableResult
  private func bumpGeneration(_ profile: String) throws -> Int64 {
    try db.row(
      """
      INSERT INTO profiles (profile, generation) VALUES (?, 1)
      ON CONFLICT (profile) DO UPDATE SET generation = generation + 1
      RETURNING generation
      """, [.text(profile)]
    ) { $0.integer(0) } ?? 0
  }

  /// The session's columns in the order both statements above use, profile last.
  private func columns(_ record: SessionRecord) throws -> [SQLValue] {
    let (table, row) = ("sessions", record.profile)
    return [
      .blob(try sealer.seal(record.userJSON, table, "user_json", row: row)),
      .blob(try sealer.seal(record.accessToken, table, "access_token", row: row)),
      .blob(try record.refreshToken.map { try sealer.seal($0, table, "refresh_token", row: row) }),
      .blob(try record.idToken.map { try sealer.seal($0, table, "id_token", row: row) }),
      .text(record.tokenType),
      .integer(record.expiresAt),
      .text(record.scopes.joined(separator: " ")),
      .blob(try record.providerState.map { try sealer.seal($0, table, "provider_state", row: row) }),
      .integer(record.updatedAt),
      .text(row),
    ]
  }
}
