import Testing

@testable import AuthHTTP

/// The start-up check of a config with remote profiles: is libcurl there, without loading it when it is.
@Suite struct LibCurlPresenceTests {
  @Test func anInstalledLibcurlIsFoundByItsFile() {
    #expect(LibCurl.missingReason() == nil)
  }

  @Test func aMissingOneIsReportedWithHowToInstallIt() {
    let reason = LibCurl.missingReason(sonames: ["libcurl-absent-for-test.so.9"])
    #expect(reason?.contains("libcurl") == true)
    #expect(reason?.contains("apt-get install libcurl4") == true, "\(reason ?? "nil")")
  }
}
