import AuthConfig
import AuthCrypto
import AuthHTTP
import AuthJSON
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@testable import AuthProviders

/// The device and authorization code flows of `OAuth2Provider` against the in-memory server; the test plays
/// the browser over a real loopback socket. Device polls really sleep (1 s, the shortest interval).
@Suite struct OAuth2InteractiveProviderTests {
  static func fixture(flows: [LoginFlow] = LoginFlow.interactive) throws -> OAuth2Fixture {
    let issuer = OAuth2Fixture.issuer
    return try OAuth2Fixture {
      $0.endpoints = OAuth2Settings.Endpoints(
        token: issuer + "/token", userinfo: issuer + "/userinfo", jwks: issuer + "/jwks",
        deviceAuthorization: issuer + "/device", authorization: issuer + "/authorize")
      $0.flows = flows
    }
  }

  static let deviceAnswer = OAuth2StubServer.json(
    200,
    .object([
      "device_code": "the-device-code", "user_code": "ABCD-EFGH", "verification_uri": "https://id.example.com/device",
      "expires_in": 600, "interval": 1,
    ]))

  // MARK: - Device

  @Test func theDeviceFlowPromptsThenPollsUntilTheTokensCome() async throws {
    let fixture = try Self.fixture()
    let polls = Mutex(0)
    fixture.server.override { [server = fixture.server] request in
      if request.url.hasSuffix("/device") { return Self.deviceAnswer }
      if request.url.hasSuffix("/token") {
        let count = polls.withLock { count in
          count += 1
          return count
        }
        if count == 1 { return OAuth2StubServer.json(400, .object(["error": "authorization_pending"])) }
      }
      return try server.defaultAnswer(request)
    }
    let prompts = Mutex<[LoginPrompt]>([])
    let issued = try await fixture.provider.interactiveLogin(.device, profile: "default") { prompt in
      prompts.withLock { $0.append(prompt) }
    }
    #expect(issued.user.username == "alice")
    #expect(text(issued.refreshToken) == "refresh-1")
    #expect(
      prompts.withLock { $0 } == [
        .device(
          userCode: "ABCD-EFGH", verificationURI: "https://id.example.com/device", verificationURIComplete: nil,
          expiresAt: startTime + 300)  // the profile's interactive timeout, shorter than the code's 600 s
      ])
    let device = OAuth2StubServer.form(try #require(fixture.server.requests(to: "/device").first))
    #expect(device["client_id"] == OAuth2Fixture.clientID)
    #expect(device["scope"] == "openid profile")
    let tokenPolls = fixture.server.requests(to: "/token").map(OAuth2StubServer.form)
    #expect(tokenPolls.count == 2)
    #expect(tokenPolls.allSatisfy { $0["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code" })
    #expect(tokenPolls.allSatisfy { $0["device_code"] == "the-device-code" })
  }

  /// The deadline follows the injected clock: moved past it, the next poll ends the wait with `notCompleted`.
  @Test func theDeviceFlowEndsWhenTheClockPassesTheDeadline() async throws {
    let fixture = try Self.fixture()
    fixture.server.override { request in
      if request.url.hasSuffix("/device") { return Self.deviceAnswer }
      return OAuth2StubServer.json(400, .object(["error": "authorization_pending"]))
    }
    let error = await #expect(throws: ProviderError.self) {
      _ = try await fixture.provider.interactiveLogin(.device, profile: "default") { [clock = fixture.clock] _ in
        clock.advance(by: 301)
      }
    }
    #expect(error?.code == .notCompleted)
    #expect(fixture.server.requests(to: "/token").isEmpty, "no poll after the deadline")
  }

  @Test func aFlowTheProfileDoesNotAllowOrTheServerLacksIsUnsupported() async throws {
    let deviceOnly = try Self.fixture(flows: [.device])
    let refused = await #expect(throws: ProviderError.self) {
      _ = try await deviceOnly.provider.interactiveLogin(.authorizationCode, profile: "default") { _ in }
    }
    #expect(refused?.code == .unsupported)
    let plain = try OAuth2Fixture()  // discovery without either endpoint
    for flow in LoginFlow.interactive {
      let missing = await #expect(throws: ProviderError.self) {
        _ = try await plain.provider.interactiveLogin(flow, profile: "default") { _ in }
      }
      #expect(missing?.code == .unsupported)
    }
  }

  // MARK: - Authorization code

  /// The whole exchange: the prompt's URL carries the S256 challenge of the verifier later sent to the token
  /// endpoint, the redirect URI is the listener's, and the ID token must carry the request's nonce.
  @Test func theAuthorizationCodeFlowExchangesTheCodeWithTheVerifier() async throws {
    let fixture = try Self.fixture()
    let nonce = Mutex<String?>(nil)
    fixture.server.override { [server = fixture.server] request in
      guard request.url.hasSuffix("/token") else { return try server.defaultAnswer(request) }
      return try Self.tokenAnswer(server, nonce: nonce.withLock { $0 } ?? "")
    }
    let prompted = Mutex<(url: String, redirect: String)?>(nil)
    let issued = try await fixture.provider.interactiveLogin(.authorizationCode, profile: "default") { prompt in
      guard case .authorizationCode(let url, let redirect, _) = prompt else { return }
      prompted.withLock { $0 = (url, redirect) }
      let query = Self.query(url)
      nonce.withLock { $0 = query["nonce"] }
      Browser.visit(redirect + "?code=the-code&state=" + (query["state"] ?? ""))
    }
    #expect(issued.user.username == "alice")
    let (url, redirect) = try #require(prompted.withLock { $0 })
    let query = Self.query(url)
    #expect(url.hasPrefix(OAuth2Fixture.issuer + "/authorize?response_type=code&"))
    #expect(query["client_id"] == OAuth2Fixture.clientID)
    #expect(query["redirect_uri"] == redirect)
    #expect(redirect.hasPrefix("http://127.0.0.1:") && redirect.hasSuffix("/callback"))
    #expect(query["code_challenge_method"] == "S256")
    #expect(query["scope"] == "openid profile")
    let exchange = OAuth2StubServer.form(try #require(fixture.server.requests(to: "/token").first))
    #expect(exchange["grant_type"] == "authorization_code")
    #expect(exchange["code"] == "the-code")
    #expect(exchange["redirect_uri"] == redirect)
    let verifier = try #require(exchange["code_verifier"])
    #expect(PKCE(verifier: SecretBytes(Array(verifier.utf8))).challenge == query["code_challenge"])
  }

  @Test func anIDTokenWithAnotherNonceIsRefused() async throws {
    let fixture = try Self.fixture()
    fixture.server.override { [server = fixture.server] request in
      guard request.url.hasSuffix("/token") else { return try server.defaultAnswer(request) }
      return try Self.tokenAnswer(server, nonce: "replayed")
    }
    let error = await #expect(throws: ProviderError.self) {
      _ = try await fixture.provider.interactiveLogin(.authorizationCode, profile: "default") { prompt in
        guard case .authorizationCode(let url, let redirect, _) = prompt else { return }
        Browser.visit(redirect + "?code=c&state=" + (Self.query(url)["state"] ?? ""))
      }
    }
    #expect(error?.code == .badResponse)
  }

  @Test func cancellingTheWaitClosesTheListener() async throws {
    let fixture = try Self.fixture()
    let port = Mutex<UInt16?>(nil)
    let task = Task {
      try await fixture.provider.interactiveLogin(.authorizationCode, profile: "default") { prompt in
        guard case .authorizationCode(_, let redirect, _) = prompt else { return }
        port.withLock { $0 = UInt16(redirect.split(separator: ":")[2].prefix { $0.isNumber }) }
      }
    }
    while port.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(10)) }
    task.cancel()
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(Browser.accepts(port: try #require(port.withLock { $0 })) == false, "the port is closed")
  }

  // MARK: - Listener

  /// A browser's spare connection that sends nothing must not hold up the real redirect.
  @Test func anIdleConnectionDoesNotBlockTheRedirect() throws {
    let listener = try LoopbackListener()
    defer { listener.close() }
    let idle = try #require(Browser.open(port: listener.port))
    defer { close(idle) }
    _ = listener.step(milliseconds: 50, state: "st", issuer: OAuth2Fixture.issuer)
    Browser.visit(listener.redirectURI + "?code=c1&state=st")
    var outcome: CallbackRequest.Outcome?
    for _ in 0..<100 where outcome == nil {
      outcome = listener.step(milliseconds: 50, state: "st", issuer: OAuth2Fixture.issuer)
    }
    #expect(outcome == .code(SecretBytes(Array("c1".utf8))))
  }

  // MARK: - Support

  /// The query's fields, form-decoded (RFC 6749 Appendix B: `+` is a space).
  static func query(_ url: String) -> [String: String] {
    var fields: [String: String] = [:]
    let spaced = url.replacingOccurrences(of: "+", with: "%20")
    for item in URLComponents(string: spaced)?.queryItems ?? [] { fields[item.name] = item.value }
    return fields
  }

  /// The stub's token answer with an ID token carrying `nonce`.
  static func tokenAnswer(_ server: OAuth2StubServer, nonce: String) throws -> HTTPResponse {
    let hash = IDTokenValidator.accessTokenHash(SecretBytes(Array("access-1".utf8)))
    let idToken = try OAuth2TestKey.rsa.sign(
      claims: oauth2Claims(now: server.clock.now(), ["at_hash": .string(hash), "nonce": .string(nonce)]))
    return OAuth2StubServer.json(
      200,
      .object([
        "access_token": "access-1", "token_type": "Bearer", "expires_in": 300, "refresh_token": "refresh-1",
        "id_token": .string(idToken),
      ]))
  }
}

/// The browser's side of the loopback redirect: plain blocking sockets to 127.0.0.1.
enum Browser {
  /// GETs `url` (an `http://127.0.0.1:<port>/…` URL) on a thread of its own and forgets the answer.
  static func visit(_ url: String) {
    let rest = url.dropFirst("http://127.0.0.1:".count)
    let port = UInt16(rest.prefix { $0.isNumber })!
    let target = String(rest.drop { $0.isNumber })
    Thread.detachNewThread {
      guard let fd = open(port: port) else { return }
      defer { close(fd) }
      let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
      _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      var buffer = [UInt8](repeating: 0, count: 4096)
      while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
    }
  }

  /// A connected socket, or nil when the connection is refused.
  static func open(port: UInt16) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    if connected != 0 {
      close(fd)
      return nil
    }
    return fd
  }

  static func accepts(port: UInt16) -> Bool {
    guard let fd = open(port: port) else { return false }
    close(fd)
    return true
  }
}
