import Testing

@testable import AuthProviders

/// A discovered endpoint is held to the same rule as the config and the HTTP client.
@Suite struct OAuth2URLTests {
  @Test(arguments: [
    "https://id.example.com/token", "https://id.example.com/t?x=1", "http://localhost/t", "http://127.0.0.5:9/t",
    "http://[::1]/t", "http://[0:0:0:0:0:0:0:1]:8000/t",
  ])
  func acceptedEndpoints(url: String) {
    #expect(OAuth2URL.isAcceptable(url))
  }

  @Test(arguments: [
    "http://id.example.com/t", "http://127.1/t", "http://[::2]/t", "https://id.example.com/t#f",
    "https://user@id.example.com/t", "ftp://id.example.com/t", "/relative", "https://id .example.com/",
  ])
  func refusedEndpoints(url: String) {
    #expect(!OAuth2URL.isAcceptable(url))
  }
}
