import AuthCrypto
import Testing

@Suite struct RandomBytesTests {
  @Test func producesRequestedLength() throws {
    #expect(try RandomBytes.generate(0).isEmpty)
    #expect(try RandomBytes.generate(1).count == 1)
    #expect(try RandomBytes.generate(4096).count == 4096)
  }

  @Test func successiveDrawsDiffer() throws {
    #expect(try RandomBytes.generate(32) != RandomBytes.generate(32))
  }

  @Test func negativeCountThrows() {
    #expect(throws: CryptoError.self) { try RandomBytes.generate(-1) }
  }
}
