import AuthConfig
import AuthCrypto
import AuthJSON
import AuthProviders
import AuthSupport
import Foundation
import Synchronization

@testable import AuthSession
@testable import AuthStorage

/// 64 hex digits: the store key from the environment, so no key file is made.
let testStoreKey = String(repeating: "5a", count: 32)
/// 1,000 PBKDF2 iterations: the real KDF, cheap enough for unit tests.
let cheapHasher = PasswordHasher(algorithm: .pbkdf2SHA256(iterations: 1000))
/// An arbitrary fixed start time (2025-06-15T16:26:40Z).
let startTime: Int64 = 1_750_004_800
let password = "correct horse battery staple"
let alice = LoginAccount(kind: .username, text: "alice")

/// One `sessionChanged` notification.
struct Change: Equatable, CustomStringConvertible {
  let profile: String
  let state: SessionChange

  init(_ profile: String, _ state: SessionChange) {
    self.profile = profile
    self.state = state
  }

  var description: String { "\(profile):\(state.rawValue)" }
}

/// The notifications a service sent, in order.
final class ChangeLog: Sendable {
  let changes = Mutex<[Change]>([])
}

/// A real store in a fresh temporary directory, a manual clock, seeded randomness, the real local provider with
/// alice and bob registered, and the notifications a `SessionService` sent. The directory is removed when the
/// fixture goes away.
final class SessionFixture: Sendable {
  let directory: String
  let store: Store
  let stores: LazyStore
  let clock: ManualClock
  let random: SeededRandomSource
  let local: LocalProvider
  let accessTokenTTL: Int64
  private let recorded = ChangeLog()

  var changes: [Change] { recorded.changes.withLock { $0 } }

  init(accessTokenTTL: Int = 900, refreshTokenTTLDays: Int = 30) async throws {
    directory = try makeTemporaryDirectory()
    let store = try openStore(directory)
    self.store = store
    stores = LazyStore { store }
    clock = ManualClock(startTime)
    random = SeededRandomSource(seed: 11)
    self.accessTokenTTL = Int64(accessTokenTTL)
    local = LocalProvider(
      stores: stores, clock: clock, random: random, hasher: cheapHasher, accessTokenTTLSeconds: accessTokenTTL,
      refreshTokenTTLDays: refreshTokenTTLDays)
    _ = try await local.register(Registration(username: "alice", email: "alice@example.com"), password: password)
    _ = try await local.register(Registration(username: "bob", displayName: "Bob"), password: password)
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }

  /// A service over this fixture's store and clock; `profiles` defaults to `default` on the local provider.
  func service(
    _ profiles: [(ProfileConfig, any IdentityProvider)]? = nil, revokeTimeout: Duration = .seconds(5)
  ) -> SessionService {
    let profiles = profiles ?? [(ProfileConfig(name: "default"), local)]
    return service(profiles, stores: stores, revokeTimeout: revokeTimeout)
  }

  func service(
    _ profiles: [(ProfileConfig, any IdentityProvider)], stores: LazyStore, revokeTimeout: Duration = .seconds(5)
  ) -> SessionService {
    var byName: [String: SessionService.Profile] = [:]
    for (config, provider) in profiles {
      byName[config.name] = SessionService.Profile(config: config, provider: provider)
    }
    return SessionService(
      stores: stores, clock: clock, profiles: byName, log: .disabled, revokeTimeout: revokeTimeout
    ) { [recorded] changed in
      recorded.changes.withLock { $0.append(Change(changed.profile, changed.state)) }
    }
  }

  func session(_ profile: String = "default") throws -> SessionRecord? {
    try store.read { try $0.session(profile: profile) }
  }

  /// The stored session as the service hands it to providers (its user decoded).
  func storedSession(_ profile: String = "default") throws -> IssuedSession? {
    try session(profile).flatMap(StoredSession.init)?.session
  }

  /// Refresh tokens issued so far, and how many of them were spent on a rotation.
  func refreshTokenCounts() throws -> (issued: Int64, used: Int64) {
    try store.read { tx in
      try tx.db.row("SELECT COUNT(*), COUNT(used_at) FROM refresh_tokens") { ($0.integer(0), $0.integer(1)) }
    } ?? (0, 0)
  }

  func refreshToken(of record: SessionRecord?) throws -> RefreshTokenRecord? {
    guard let token = record?.refreshToken else { return nil }
    return try store.read { try $0.refreshToken(hash: RefreshTokenRecord.hash(of: token)) }
  }

  func updateAccount(_ username: String, _ change: (inout AccountRecord) -> Void) throws {
    try store.write { tx in
      guard var account = try tx.account(username: username) else { throw StorageError(.notFound, username) }
      change(&account)
      try tx.updateAccount(account)
    }
  }
}

extension SessionService {
  func login(_ account: LoginAccount = alice, profile: String = "default") async throws -> SessionSnapshot {
    try await login(profile: profile, account: account, password: password)
  }
}

extension SessionSnapshot {
  var accessToken: String? { session["accessToken"]?.stringValue }
  var username: String? { user["username"]?.stringValue }
}

func text(_ secret: SecretBytes?) -> String? {
  secret.map { $0.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}

func openStore(_ directory: String) throws -> Store {
  try Store(explicitStateDirectory: directory + "/state", environment: ["AUTH_SIDECAR_KEY": testStoreKey])
}

func makeTemporaryDirectory() throws -> String {
  // Under $TMPDIR (Foundation reads it), so the test command's private directory holds it and removes it.
  var template = Array((FileManager.default.temporaryDirectory.path + "/auth-session-tests-XXXXXX").utf8CString)
  return try template.withUnsafeMutableBufferPointer { buffer -> String in
    guard let made = mkdtemp(buffer.baseAddress!) else { throw POSIXError(.EIO) }
    return String(cString: made)
  }
}
