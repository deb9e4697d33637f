/// The schema, versioned by `PRAGMA user_version`. Migrations only ever append: version N's SQL never changes
/// once released, and a store from a newer build is refused rather than guessed at.
enum Migrations {
  /// Ordered; `version` is what `user_version` holds after the step.
  static let steps: [Step] = [
    Step(version: 1, sql: version1), Step(version: 2, sql: version2),
    Step(version: 3, sql: version3, fill: AccountKeys.fill), Step(version: 4, sql: version4),
  ]

  /// `fill` runs after `sql`, in the same transaction, for what SQL alone cannot compute (Unicode keys).
  struct Step: Sendable {
    let version: Int32
    let sql: String
    var fill: (@Sendable (SQLiteConnection) throws -> Void)? = nil
  }

  static var latest: Int32 { steps.last?.version ?? 0 }

  /// Brings the store up to `latest`, inside one BEGIN IMMEDIATE so concurrent openers migrate once.
  /// - Throws: `StorageError.unavailable` for a store newer than this build; SQLite failures as mapped.
  static func run(on connection: SQLiteConnection) throws {
    // Fast path without the write lock: every open after the first finds the schema current.
    let found = try version(of: connection)
    try refuseNewer(found, connection.path)
    guard found < latest else { return }

    try connection.execute("BEGIN IMMEDIATE")
    do {
      let current = try version(of: connection)
      try refuseNewer(current, connection.path)
      for step in steps where step.version > current {
        try connection.execute(step.sql)
        try step.fill?(connection)
        // PRAGMA takes no bound parameters; the value is our own constant, not input.
        try connection.execute("PRAGMA user_version = \(step.version)")
      }
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  static func version(of connection: SQLiteConnection) throws -> Int32 {
    Int32(truncatingIfNeeded: try connection.row("PRAGMA user_version") { $0.integer(0) } ?? 0)
  }

  private static func refuseNewer(_ version: Int32, _ path: String) throws {
    guard version > latest else { return }
    throw StorageError.unavailable(
      "\(path) has schema version \(version), newer than this auth-sidecar understands (\(latest)); "
        + "run a newer auth-sidecar or use another state directory")
  }

  /// Sealed columns (BLOB, AES-256-GCM, see `Sealer`) are marked; everything else is plain.
  /// STRICT tables make SQLite reject a value of the wrong type instead of storing it.
  static let version1 = """
    CREATE TABLE profiles (
      profile TEXT PRIMARY KEY NOT NULL,
      generation INTEGER NOT NULL DEFAULT 0,
      last_account BLOB,
      last_login_at INTEGER
    ) STRICT;
    CREATE TABLE sessions (
      profile TEXT PRIMARY KEY NOT NULL REFERENCES profiles(profile) ON DELETE CASCADE,
      user_json BLOB NOT NULL,
      access_token BLOB NOT NULL,
      refresh_token BLOB,
      id_token BLOB,
      token_type TEXT NOT NULL,
      expires_at INTEGER NOT NULL,
      scopes TEXT NOT NULL,
      provider_state BLOB,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE accounts (
      id TEXT PRIMARY KEY NOT NULL,
      username TEXT NOT NULL COLLATE NOCASE UNIQUE,
      email TEXT COLLATE NOCASE UNIQUE,
      phone TEXT UNIQUE,
      display_name TEXT,
      password_hash TEXT NOT NULL,
      disabled INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE login_throttle (
      identifier_hash BLOB PRIMARY KEY NOT NULL,
      failures INTEGER NOT NULL,
      blocked_until INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE refresh_tokens (
      token_hash BLOB PRIMARY KEY NOT NULL,
      family_id TEXT NOT NULL,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      profile TEXT NOT NULL,
      issued_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER,
      revoked INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE INDEX refresh_tokens_by_family ON refresh_tokens(family_id);
    CREATE INDEX refresh_tokens_by_account ON refresh_tokens(account_id);
    CREATE INDEX refresh_tokens_by_expiry ON refresh_tokens(expires_at);
    CREATE TABLE secrets (
      name TEXT PRIMARY KEY NOT NULL,
      value BLOB NOT NULL
    ) STRICT;
    """

  /// The key's protection mode and a value sealed under it, recorded on the first open (see `KeyCheck`); one row.
  static let version2 = """
    CREATE TABLE key_check (
      id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
      protection TEXT NOT NULL,
      check_value BLOB NOT NULL
    ) STRICT;
    """

  /// Login identifiers are compared by their canonical form (`IdentifierKey`), kept in columns of their own whose
  /// unique indexes replace the ASCII-only NOCASE uniqueness; `AccountKeys.fill` computes them for existing rows.
  /// The login throttle's block times move from seconds to milliseconds: a block set at 12.999 s for "1 s" lasted
  /// a millisecond when it ended at the whole second 13.
  static let version3 = """
    ALTER TABLE accounts ADD COLUMN username_key TEXT;
    ALTER TABLE accounts ADD COLUMN email_key TEXT;
    CREATE UNIQUE INDEX accounts_by_username_key ON accounts(username_key);
    CREATE UNIQUE INDEX accounts_by_email_key ON accounts(email_key);
    UPDATE login_throttle SET blocked_until = blocked_until * 1000;
    """

  /// One-time codes and their send log, step-up challenges, authenticators and recovery codes. Codes, challenges
  /// and recovery codes are stored only as keyed hashes; the authenticator secret is sealed. `slot` is a hash of
  /// what a code is for (purpose and account, or a challenge), so a table row names no account in clear.
  static let version4 = """
    CREATE TABLE codes (
      slot BLOB PRIMARY KEY NOT NULL,
      code_hash BLOB NOT NULL,
      expires_at INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE TABLE code_sends (
      slot BLOB NOT NULL,
      sent_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX code_sends_by_slot ON code_sends(slot, sent_at);
    CREATE TABLE challenges (
      challenge_hash BLOB PRIMARY KEY NOT NULL,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      methods TEXT NOT NULL,
      channel TEXT,
      expires_at INTEGER NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE TABLE authenticators (
      account_id TEXT PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      secret BLOB NOT NULL,
      last_step INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE TABLE recovery_codes (
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      code_hash BLOB NOT NULL,
      PRIMARY KEY (account_id, code_hash)
    ) STRICT;
    """
}
