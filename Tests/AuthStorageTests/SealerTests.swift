import Testing

@testable import AuthStorage

/// The associated data every sealed value is bound to. Its bytes are part of every store on disk: a change would make
/// every existing store unreadable, so they are pinned here byte for byte.
@Suite struct SealerTests {
  @Test func theContextIsTheVersionedPrefixAndThreeLengthPrefixedParts() {
    let expected: [UInt8] =
      Array("auth-sidecar/sealed/v1".utf8)
      + [0, 0, 0, 8] + Array("sessions".utf8)
      + [0, 0, 0, 12] + Array("access_token".utf8)
      + [0, 0, 0, 7] + Array("default".utf8)
    #expect(Sealer.context("sessions", "access_token", "default") == expected)
  }

  @Test func aPartIsCountedInUTF8Bytes() {
    let expected: [UInt8] =
      Array("auth-sidecar/sealed/v1".utf8) + [0, 0, 0, 0] + [0, 0, 0, 1] + Array("c".utf8) + [0, 0, 0, 6]
      + Array("профи".utf8.prefix(6))
    #expect(Sealer.context("", "c", "про") == expected)
  }

  @Test func movingABoundaryChangesTheBytes() {
    #expect(Sealer.context("a", "bc", "r") != Sealer.context("ab", "c", "r"))
  }
}
