import AuthCrypto
import AuthStorage
import AuthSupport
import Synchronization
import Testing

@testable import AuthProviders

/// The hard limit, sub-second blocks, simultaneous correct logins and the registration throttle.
@Suite struct LoginThrottleLimitTests {
  /// Spends `count` wrong passwords on `account`, waiting out each block, as a patient guesser would.
  static func fail(_ count: Int, _ account: LoginAccount, _ fixture: LocalFixture) async throws {
    for _ in 0..<count {
      fixture.clock.advance(by: 301)
      await #expect(throws: ProviderError(.invalidCredentials, "local login refused")) {
        try await fixture.provider.login(account, password: "wrong", profile: "default")
      }
    }
  }

  @Test(arguments: [LoginAccount(kind: .username, text: "alice"), LoginAccount(kind: .username, text: "mallory")])
  func theHundredthFailureLocksKnownAndUnknownNamesAlike(_ account: LoginAccount) async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    try await Self.fail(LoginThrottle.lockAfterFailures, account, fixture)
    // No wait ends it: a day later, even the right password is refused without being checked.
    fixture.clock.advance(by: 86_400)
    let locked = await #expect(throws: ProviderError.self) {
      try await fixture.provider.login(account, password: password, profile: "default")
    }
    #expect(locked?.code == .locked)
    #expect(try fixture.throttle(account)?.failures == LoginThrottle.lockAfterFailures)
  }

  @Test func unlockAndAPasswordChangeLiftTheLock() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let alice = LoginAccount(kind: .username, text: "alice")
    try await Self.fail(LoginThrottle.lockAfterFailures, alice, fixture)
    #expect(try fixture.provider.unlock(username: "alice"))
    _ = try await fixture.login()

    try await Self.fail(LoginThrottle.lockAfterFailures, alice, fixture)
    #expect(try fixture.provider.changePassword(username: "ALICE", to: "a brand new passphrase"))
    _ = try await fixture.login(password: "a brand new passphrase")
    #expect(try fixture.provider.unlock(username: "nobody") == false)
  }

  /// A block of "1 s" lasts a second even when it begins just before a whole second.
  @Test func aBlockIsTimedInMilliseconds() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let clock = MillisecondClock(startTime * 1000 + 999)
    let provider = LocalProvider(
      stores: fixture.stores, clock: clock, random: fixture.random, hasher: cheapHasher, accessTokenTTLSeconds: 900,
      refreshTokenTTLDays: 30)
    let alice = LoginAccount(kind: .username, text: "alice")
    for _ in 1...LoginThrottle.freeFailures {
      _ = await #expect(throws: ProviderError.self) { try await provider.login(alice, password: "x", profile: "p") }
    }
    clock.advance(milliseconds: 501)  // the next whole second has passed; the block has not
    let blocked = await #expect(throws: ProviderError.self) {
      try await provider.login(alice, password: password, profile: "p")
    }
    #expect(blocked?.code == .rateLimited(retryAfter: 1))
    clock.advance(milliseconds: 499)
    _ = try await provider.login(alice, password: password, profile: "p")
  }

  /// Correct logins sent together (eight profiles at once) are all let in: nothing counts before its check.
  @Test func simultaneousCorrectLoginsAreNeverRefused() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let refused = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<8 {
        group.addTask {
          let account = LoginAccount(kind: .username, text: "alice")
          return (try? await fixture.provider.login(account, password: password, profile: "p\(index)")) == nil
        }
      }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(refused == 0)
    #expect(try fixture.throttle(LoginAccount(kind: .username, text: "alice")) == nil)
  }

  /// Taken names cannot be probed in bulk through `register`: five `already_exists` answers, then the wait grows.
  @Test func registrationIsThrottledAfterTakenNamesAndASuccessResetsIt() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    for _ in 1...LoginThrottle.freeFailures {
      await #expect(throws: ProviderError(.alreadyExists(field: "username"), "account exists")) {
        try await fixture.provider.register(Registration(username: "alice"), password: password)
      }
    }
    // Blocked before anything is looked up: a free name is refused just the same.
    for name in ["alice", "bob"] {
      let blocked = await #expect(throws: ProviderError.self) {
        try await fixture.provider.register(Registration(username: name), password: password)
      }
      #expect(blocked?.code == .rateLimited(retryAfter: 1))
    }
    fixture.clock.advance(by: 1)
    _ = try await fixture.provider.register(Registration(username: "bob"), password: password)
    for _ in 1...LoginThrottle.freeFailures {
      await #expect(throws: ProviderError.self) {
        try await fixture.provider.register(Registration(username: "bob"), password: password)
      }
    }
    // It never locks: registration cannot be closed for everybody.
    try fixture.store.write { tx in
      try tx.putLoginThrottle(
        .init(failures: 10_000, blockedUntil: 0), identifierHash: LocalProvider.registrationThrottleKey, now: 0)
    }
    _ = try await fixture.provider.register(Registration(username: "carol"), password: password)
  }
}

/// A clock with milliseconds, moved only by the test.
final class MillisecondClock: Clock {
  private let milliseconds: Mutex<Int64>

  init(_ start: Int64) { milliseconds = Mutex(start) }

  func now() -> Int64 { nowMilliseconds() / 1000 }
  func nowMilliseconds() -> Int64 { milliseconds.withLock { $0 } }
  func advance(milliseconds delta: Int64) { milliseconds.withLock { $0 += delta } }
}
