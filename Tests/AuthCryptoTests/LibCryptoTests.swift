import Testing

@testable import AuthCrypto

/// libcrypto is opened on first need (COpenSSL's libcrypto.c); on a machine with OpenSSL 3 it loads, and every
/// function the module calls was found.
@Suite struct LibCryptoTests {
  @Test func loadsOnThisMachineAndRequireLetsCallersThrough() throws {
    #expect(LibCrypto.missingReason == nil)
    try LibCrypto.require()
  }

  @Test func aMissingLibraryIsItsOwnKindOfError() {
    let error = CryptoError(.libraryUnavailable, "libcrypto could not be loaded (libcrypto.so.3)")
    #expect(error.isLibraryUnavailable)
    #expect(!CryptoError.malformedInput("x").isLibraryUnavailable)
  }
}
