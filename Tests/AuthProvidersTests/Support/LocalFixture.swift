import AuthCrypto
import AuthJSON
import AuthStorage
import AuthSupport
import Foundation

@testable import AuthProviders

/// 64 hex digits: the store key from the environment, so no key file is made.
let testStoreKey = String(repeating: "5a", count: 32)
/// 1,000 PBKDF2 iterations: the real KDF, cheap enough to run hundreds of times.
let cheapHasher = PasswordHasher(algorithm: .pbkdf2SHA256(iterations: 1000))
/// An arbitrary fixed start time (2025-06-15T16:26:40Z).
let startTime: Int64 = 1_750_004_800
let password = "correct horse battery staple"

/// A real store in a fresh temporary directory, a manual clock, seeded randomness and a local provider over
/// them. The directory is removed when the fixture goes away.
final class LocalFixture: Sendable {
  let directory: String
  let store: Store
  let stores: LazyStore
  let clock: ManualClock
  let random: SeededRandomSource
  let provider: LocalProvider
  let accessTokenTTL: Int64
  let refreshTokenTTLDays: Int

  init(accessTokenTTL: Int = 900, refreshTokenTTLDays: Int = 30, hasher: PasswordHasher = cheapHasher) throws {
    directory = try makeTemporaryDirectory()
    let store = try Store(explicitStateDirectory: directory + "/state", environment: ["AUTH_SIDECAR_KEY": testStoreKey])
    self.store = store
    stores = LazyStore { store }
    clock = ManualClock(startTime)
    random = SeededRandomSource(seed: 7)
    self.accessTokenTTL = Int64(accessTokenTTL)
    self.refreshTokenTTLDays = refreshTokenTTLDays
    provider = LocalProvider(
      stores: stores, clock: clock, random: random, hasher: hasher, accessTokenTTLSeconds: accessTokenTTL,
      refreshTokenTTLDays: refreshTokenTTLDays)
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }

  /// Another provider over the same store, clock and randomness (e.g. with another hasher).
  func provider(hasher: PasswordHasher) -> LocalProvider {
    LocalProvider(
      stores: stores, clock: clock, random: random, hasher: hasher, accessTokenTTLSeconds: Int(accessTokenTTL),
      refreshTokenTTLDays: refreshTokenTTLDays)
  }

  @discardableResult
  func registerAlice(displayName: String? = "Alice Liddell") async throws -> UserInfo {
    try await provider.register(
      Registration(username: "alice", email: "alice@example.com", phone: "+8613800138000", displayName: displayName),
      password: password)
  }

  func login(_ text: String = "alice", kind: LoginAccount.Kind = .username, password: String = password) async throws
    -> IssuedSession
  {
    try await provider.login(LoginAccount(kind: kind, text: text), password: password, profile: "default")
  }

  /// Refreshes `issued` as the session service does: the provider's rotation runs inside a write transaction,
  /// then `commit` (where the session service stores the client's new session); `commit` returning false rolls
  /// the whole transaction back (nil), and a refusal is thrown after its transaction committed.
  func refresh(
    _ issued: IssuedSession, commit: (WriteTransaction, IssuedSession) throws -> Bool = { _, _ in true }
  ) async throws -> IssuedSession? {
    guard case .rotation(let rotation) = try await provider.refresh(issued, profile: "default") else {
      throw FixtureError.notARotation
    }
    struct Discarded: Error {}
    do {
      return try store.write { tx -> Result<IssuedSession, ProviderError> in
        let result = try rotation.run(in: tx)
        if case .success(let session) = result, try !commit(tx, session) { throw Discarded() }
        return result
      }.get()
    } catch is Discarded {
      return nil
    }
  }

  func storedRefreshToken(_ token: SecretBytes?) throws -> RefreshTokenRecord? {
    guard let token else { return nil }
    return try store.read { try $0.refreshToken(hash: RefreshTokenRecord.hash(of: token)) }
  }

  func account(username: String = "alice") throws -> AccountRecord? {
    try store.read { try $0.account(username: username) }
  }

  func updateAccount(username: String = "alice", _ change: (inout AccountRecord) -> Void) throws {
    guard var account = try account(username: username) else { throw FixtureError.noSuchAccount }
    change(&account)
    try store.write { [account] in try $0.updateAccount(account) }
  }

  /// Runs `change` in a write transaction of a second `Store` on the same database — another process — and
  /// keeps that transaction open for `hold` after starting `work`, so that `work` reads the old data but has
  /// to wait for the change to commit before it can write. Returns what `work` returned.
  func whileAnotherProcessWrites<T: Sendable>(
    _ change: @escaping @Sendable (WriteTransaction) throws -> Void, hold: Duration = .milliseconds(300),
    _ work: @escaping @Sendable () async -> T
  ) async throws -> T {
    let other = try Store(
      explicitStateDirectory: directory + "/state", environment: ["AUTH_SIDECAR_KEY": testStoreKey])
    let holding = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    // The hold is timed on this thread, not with `Task.sleep`: the work under test blocks dispatch threads
    // (SQLite's busy wait), which can delay `Task.sleep` wake-ups on a 2-core machine.
    let (seconds, attoseconds) = hold.components
    let holdMicroseconds = UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    Thread {
      do {
        try other.write { tx in
          try change(tx)
          holding.signal()
          usleep(holdMicroseconds)
        }
      } catch {
        holding.signal()
      }
      finished.signal()
    }.start()
    await Task.detached { holding.wait() }.value
    let value = await work()
    await Task.detached { finished.wait() }.value
    return value
  }

  /// The failures counted against `account`: its account's count when it names one, else the identifier's.
  func throttle(_ account: LoginAccount) throws -> LoginThrottleRecord? {
    try store.read { tx in
      let key = LoginThrottle.key(for: account, naming: try LocalProvider.find(account, in: tx))
      return try tx.loginThrottle(identifierHash: key)
    }
  }
}

enum FixtureError: Error { case noSuchAccount, notARotation, notIssued }

func makeTemporaryDirectory() throws -> String {
  // Under $TMPDIR (Foundation reads it), so the test command's private directory holds it and removes it.
  var template = Array((FileManager.default.temporaryDirectory.path + "/auth-providers-tests-XXXXXX").utf8CString)
  return try template.withUnsafeMutableBufferPointer { buffer -> String in
    guard let made = mkdtemp(buffer.baseAddress!) else { throw POSIXError(.EIO) }
    return String(cString: made)
  }
}

func text(_ secret: SecretBytes?) -> String? {
  secret.map { $0.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }
}

/// The claims of a compact JWS, unverified.
func claims(of token: SecretBytes) throws -> JSONObject {
  let parts = try JWSCompact.split(text(token) ?? "")
  return try JSONParser.parse(parts.payload).objectValue ?? [:]
}
