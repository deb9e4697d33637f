import Testing

@testable import AuthStorage

@Suite struct LoginThrottleTests {
  @Test func recordsAndClearsFailuresPerIdentifier() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let alice: [UInt8] = Array(repeating: 1, count: 32)
      let bob: [UInt8] = Array(repeating: 2, count: 32)
      #expect(try store.read { try $0.loginThrottle(identifierHash: alice) } == nil)
      try store.write { try $0.putLoginThrottle(.init(failures: 5, blockedUntil: 1_000), identifierHash: alice, now: 990) }
      try store.write { try $0.putLoginThrottle(.init(failures: 6, blockedUntil: 2_000), identifierHash: alice, now: 995) }
      #expect(try store.read { try $0.loginThrottle(identifierHash: alice) } == .init(failures: 6, blockedUntil: 2_000))
      #expect(try store.read { try $0.loginThrottle(identifierHash: bob) } == nil)
      try store.write { try $0.clearLoginThrottle(identifierHash: alice) }
      #expect(try store.read { try $0.loginThrottle(identifierHash: alice) } == nil)
    }
  }
}
