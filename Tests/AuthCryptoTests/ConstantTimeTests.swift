import AuthCrypto
import Testing

@Suite struct ConstantTimeTests {
  @Test func equalBytes() {
    #expect(ConstantTime.equals([], []))
    #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
  }

  @Test func differentBytes() {
    #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
    #expect(!ConstantTime.equals([0, 2, 3], [1, 2, 3]))
  }

  @Test func differentLengthsAreNeverEqual() {
    #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
    #expect(!ConstantTime.equals([1, 2], [1, 2, 3]))
    #expect(!ConstantTime.equals([], [0]))
    #expect(!ConstantTime.equals([0], []))
  }

  @Test func secretBytesCompare() {
    #expect(SecretBytes([9, 9]).constantTimeEquals(SecretBytes([9, 9])))
    #expect(!SecretBytes([9, 9]).constantTimeEquals(SecretBytes([9, 8])))
    #expect(!SecretBytes([9, 9]).constantTimeEquals(SecretBytes([9, 9, 9])))
    #expect(SecretBytes([]).constantTimeEquals(SecretBytes([])))
  }
}
