import Testing

@testable import AuthHTTP

@Suite struct EasyHandlePoolTests {
  @Test func aHandleGivenBackIsTakenAgainOnlyUnderTheSameTLSSettings() throws {
    let pool = EasyHandlePool(curl: try LibCurl.shared.get())
    let plain = TLSSettings()
    let pinned = TLSSettings(pinnedPublicKey: "sha256//" + String(repeating: "A", count: 43) + "=")
    let first = try #require(pool.take(for: plain))
    pool.give(first, for: plain)
    let other = try #require(pool.take(for: pinned))
    #expect(other != first)
    #expect(pool.take(for: plain) == first)
    pool.give(first, for: plain)
    pool.give(other, for: pinned)
  }

  @Test func atMostCapacityHandlesAreKeptPerSettings() throws {
    let pool = EasyHandlePool(curl: try LibCurl.shared.get())
    let tls = TLSSettings()
    let handles = try (0..<(EasyHandlePool.capacity + 3)).map { _ in try #require(pool.take(for: tls)) }
    for handle in handles { pool.give(handle, for: tls) }
    // The kept ones come back (last given first); the ones over capacity were cleaned up, so new ones follow.
    let again = try (0..<EasyHandlePool.capacity).map { _ in try #require(pool.take(for: tls)) }
    #expect(Set(again.map { UInt(bitPattern: $0) }) == Set(handles.prefix(EasyHandlePool.capacity).map { UInt(bitPattern: $0) }))
    for handle in again { pool.give(handle, for: tls) }
  }
}
