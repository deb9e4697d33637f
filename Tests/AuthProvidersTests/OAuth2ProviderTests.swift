import AuthCrypto
import AuthHTTP
import AuthJSON
import AuthStorage
import Testing

@testable import AuthProviders

/// `OAuth2Provider` against an in-memory server: what it sends, how it reads answers, what it caches.
@Suite struct OAuth2ProviderTests {
  static func code(_ work: () async throws -> Void) async -> ProviderError.Code? {
    do {
      try await work()
      return nil
    } catch let error as ProviderError {
      return error.code
    } catch {
      Issue.record("unexpected \(error)")
      return nil
    }
  }

  // MARK: - Login

  @Test func aPasswordLoginReturnsTheIDTokensUserAndTheGrantedScopes() async throws {
    let fixture = try OAuth2Fixture()
    let issued = try await fixture.login()
    #expect(issued.user.id == "42")
    #expect(issued.user.username == "alice")
    #expect(issued.user.email == "alice@example.com")
    #expect(issued.user.displayName == "Alice Liddell")
    #expect(text(issued.accessToken) == "access-1")
    #expect(text(issued.refreshToken) == "refresh-1")
    #expect(issued.idToken != nil)
    #expect(issued.scopes == ["openid", "profile"])
    #expect(issued.expiresAt == startTime + 300)

    let token = try #require(fixture.server.requests(to: "/token").first)
    let form = OAuth2StubServer.form(token)
    #expect(form["grant_type"] == "password")
    #expect(form["username"] == "alice")
    #expect(form["password"] == "correct horse battery staple")
    #expect(form["scope"] == "openid profile")
    // A public client names itself in the body and sends no Authorization header.
    #expect(form["client_id"] == OAuth2Fixture.clientID)
    #expect(!token.headers.contains { $0.name.lowercased() == "authorization" })
    #expect(!token.idempotent)
    #expect(token.redirects == .refuse)
  }

  @Test func aConfidentialClientAuthenticatesWithHTTPBasic() async throws {
    let fixture = try OAuth2Fixture { $0.clientSecret = SecretBytes(Array("s3cret:with space".utf8)) }
    _ = try await fixture.login()
    let token = try #require(fixture.server.requests(to: "/token").first)
    #expect(OAuth2StubServer.form(token)["client_id"] == nil)
    let authorization = token.headers.first { $0.name == "Authorization" }?.value
    // RFC 6749 §2.3.1: each part form-encoded before base64.
    let expected = "Basic " + Base64.encode(Array("\(OAuth2Fixture.clientID):s3cret%3Awith+space".utf8))
    #expect(authorization == expected)
  }

  @Test func withoutTheOptInTheLoginIsUnsupportedAndSendsNothing() async throws {
    let fixture = try OAuth2Fixture { $0.allowPasswordGrant = false }
    #expect(await Self.code { _ = try await fixture.login() } == .unsupported)
    #expect(fixture.server.requests.isEmpty)
  }

  @Test func aRefusedPasswordIsInvalidCredentialsWithTheUpstreamCode() async throws {
    let fixture = try OAuth2Fixture()
    fixture.server.override { request in
      guard request.url.hasSuffix("/token") else { return try fixture.server.defaultAnswer(request) }
      return OAuth2StubServer.json(
        400, .object(["error": "invalid_grant", "error_description": "Invalid credentials"]))
    }
    do {
      _ = try await fixture.login()
      Issue.record("login succeeded")
    } catch let error as ProviderError {
      #expect(error.code == .invalidCredentials)
      #expect(error.upstreamCode == "invalid_grant")
    }
  }

  @Test func serverTroubleMapsToTransientErrors() async throws {
    let fixture = try OAuth2Fixture()
    let status = OAuth2Box(429)
    fixture.server.override { request in
      guard request.url.hasSuffix("/token") else { return try fixture.server.defaultAnswer(request) }
      return OAuth2StubServer.json(status.withLock { $0 }, .object([:]), headers: [HTTPHeader("Retry-After", "7")])
    }
    #expect(await Self.code { _ = try await fixture.login() } == .rateLimited(retryAfter: 7))
    status.withLock { $0 = 503 }
    #expect(await Self.code { _ = try await fixture.login() } == .serverError(status: 503))
    status.withLock { $0 = 302 }
    #expect(await Self.code { _ = try await fixture.login() } == .badResponse)
  }

  @Test func aTokenAnswerThatIsNotBearerJSONIsABadResponse() async throws {
    let fixture = try OAuth2Fixture()
    let answer = OAuth2Box<JSONValue>(.object(["access_token": "a", "token_type": "mac"]))
    fixture.server.override { request in
      guard request.url.hasSuffix("/token") else { return try fixture.server.defaultAnswer(request) }
      return OAuth2StubServer.json(200, answer.withLock { $0 })
    }
    #expect(await Self.code { _ = try await fixture.login() } == .badResponse)
    answer.withLock { $0 = .object(["token_type": "Bearer"]) }
    #expect(await Self.code { _ = try await fixture.login() } == .badResponse)
    answer.withLock { $0 = .array([]) }
    #expect(await Self.code { _ = try await fixture.login() } == .badResponse)
  }

  // MARK: - Discovery and keys

  @Test func discoveryAndTheKeySetAreFetchedOnce() async throws {
    let fixture = try OAuth2Fixture()
    let record = try await fixture.loggedIn()
    fixture.clock.advance(by: 400)
    let refreshed = try await fixture.refresh(record)
    _ = try await fixture.provider.fetchUser(refreshed)
    #expect(fixture.server.requests(to: "/.well-known/openid-configuration").count == 1)
    #expect(fixture.server.requests(to: "/jwks").count == 1)
    #expect(fixture.server.requests(to: "/token").count == 2)
  }

  @Test func aDiscoveryDocumentForAnotherIssuerIsRefused() async throws {
    let fixture = try OAuth2Fixture()
    fixture.server.discoveryIssuer.withLock { $0 = "https://id.example.com/" }
    #expect(await Self.code { _ = try await fixture.login() } == .badResponse)
    #expect(fixture.server.requests(to: "/token").isEmpty)
    // A failed discovery is not cached: the next login fetches it again.
    fixture.server.discoveryIssuer.withLock { $0 = OAuth2Fixture.issuer }
    _ = try await fixture.login()
    #expect(fixture.server.requests(to: "/.well-known/openid-configuration").count == 2)
  }

  @Test func explicitEndpointsSkipDiscovery() async throws {
    let issuer = OAuth2Fixture.issuer
    let fixture = try OAuth2Fixture {
      $0.endpoints = OAuth2Settings.Endpoints(token: issuer + "/token", jwks: issuer + "/jwks")
    }
    _ = try await fixture.login()
    #expect(fixture.server.requests(to: "/.well-known/openid-configuration").isEmpty)
  }

  @Test func anUnknownKeyIDRefetchesTheKeySetOnce() async throws {
    let fixture = try OAuth2Fixture()
    let rotated = try OAuth2TestKey(.rsa, keyID: "rsa-2")
    // The first JWKS lacks the new key; the second (after "rotation") has it.
    let fetches = OAuth2Box(0)
    fixture.server.override { request in
      if request.url.hasSuffix("/jwks") {
        let keys = fetches.withLock { count in
          count += 1
          return count == 1 ? [OAuth2TestKey.rsa] : [OAuth2TestKey.rsa, rotated]
        }
        return OAuth2StubServer.json(200, .object(["keys": .array(keys.map(\.jwk))]))
      }
      return try fixture.server.defaultAnswer(request)
    }
    _ = try await fixture.login()
    // The issuer rotates its key some time after the first fetch.
    fixture.server.signer.withLock { $0 = rotated }
    fixture.clock.advance(by: OAuth2Directory.keySetCooldown)
    _ = try await fixture.login()
    #expect(fetches.withLock { $0 } == 2)
    // A key that is still unknown fails the login; within a minute of the last fetch it costs no request, so
    // tokens naming made-up keys cannot make one JWKS request each.
    fixture.server.signer.withLock { $0 = try? OAuth2TestKey(.rsa, keyID: "rsa-3") }
    for _ in 0..<3 { #expect(await Self.code { _ = try await fixture.login() } == .badResponse) }
    #expect(fetches.withLock { $0 } == 2)
    fixture.clock.advance(by: OAuth2Directory.keySetCooldown)
    #expect(await Self.code { _ = try await fixture.login() } == .badResponse)
    #expect(fetches.withLock { $0 } == 3)
  }

  @Test func anIDTokenSignedWithAnAlgorithmTheIssuerDoesNotAnnounceIsRefused() async throws {
    let fixture = try OAuth2Fixture()
    fixture.server.algorithms.withLock { $0 = ["ES256"] }
    #expect(await Self.code { _ = try await fixture.login() } == .badResponse)
  }

  @Test func withoutAnIDTokenTheUserComesFromUserinfo() async throws {
    let fixture = try OAuth2Fixture()
    fixture.server.signer.withLock { $0 = nil }
    let issued = try await fixture.login()
    #expect(issued.user.id == "42")
    #expect(issued.user.username == "alice")
    #expect(fixture.server.requests(to: "/userinfo").count == 1)
  }

  // MARK: - Refresh

  @Test func aRefreshRotatesTheTokens() async throws {
    let fixture = try OAuth2Fixture()
    let record = try await fixture.loggedIn()
    fixture.clock.advance(by: 290)
    let issued = try await fixture.refresh(record)
    #expect(text(issued.accessToken) == "access-2")
    #expect(text(issued.refreshToken) == "refresh-2")
    #expect(issued.expiresAt == startTime + 290 + 300)
    let form = OAuth2StubServer.form(try #require(fixture.server.requests(to: "/token").last))
    #expect(form["grant_type"] == "refresh_token")
    #expect(form["refresh_token"] == "refresh-1")
    #expect(form["scope"] == nil)
  }

  @Test func anAnswerWithoutARefreshTokenKeepsTheOldOne() async throws {
    let fixture = try OAuth2Fixture()
    let record = try await fixture.loggedIn()
    fixture.server.override { request in
      guard request.url.hasSuffix("/token") else { return try fixture.server.defaultAnswer(request) }
      return try fixture.server.tokenAnswer(includeRefreshToken: false)
    }
    let issued = try await fixture.refresh(record)
    #expect(text(issued.refreshToken) == "refresh-1")
  }

  @Test func invalidGrantRejectsTheSessionAndOtherRefusalsDoNot() async throws {
    let fixture = try OAuth2Fixture()
    let record = try await fixture.loggedIn()
    let error = OAuth2Box("invalid_grant")
    fixture.server.override { request in
      guard request.url.hasSuffix("/token") else { return try fixture.server.defaultAnswer(request) }
      return OAuth2StubServer.json(400, .object(["error": .string(error.withLock { $0 })]))
    }
    #expect(await Self.code { _ = try await fixture.refresh(record) } == .sessionRejected)
    error.withLock { $0 = "invalid_client" }
    #expect(await Self.code { _ = try await fixture.refresh(record) } == .badResponse)
  }

  @Test func aRefreshedIDTokenForAnotherSubjectIsRefused() async throws {
    let fixture = try OAuth2Fixture()
    var record = try await fixture.loggedIn()
    record.user = UserInfo(id: "7", username: "mallory")
    #expect(await Self.code { _ = try await fixture.refresh(record) } == .badResponse)
  }

  // MARK: - User and revocation

  @Test func userinfoRefusingTheTokenRejectsTheSession() async throws {
    let fixture = try OAuth2Fixture()
    let record = try await fixture.loggedIn()
    fixture.server.override { request in
      guard request.url.hasSuffix("/userinfo") else { return try fixture.server.defaultAnswer(request) }
      return OAuth2StubServer.json(401, .object(["error": "invalid_token"]))
    }
    #expect(await Self.code { _ = try await fixture.provider.fetchUser(record) } == .sessionRejected)
  }

  @Test func userinfoForAnotherSubjectIsRefused() async throws {
    let fixture = try OAuth2Fixture()
    var record = try await fixture.loggedIn()
    record.user = UserInfo(id: "7", username: "mallory")
    #expect(await Self.code { _ = try await fixture.provider.fetchUser(record) } == .badResponse)
  }

  @Test func revocationRevokesTheRefreshTokenThenTheAccessToken() async throws {
    let fixture = try OAuth2Fixture()
    let record = try await fixture.loggedIn()
    try await fixture.provider.revoke(record)
    let forms = fixture.server.requests(to: "/revoke").map(OAuth2StubServer.form)
    #expect(forms.map { $0["token_type_hint"] } == ["refresh_token", "access_token"])
    #expect(forms.map { $0["token"] } == ["refresh-1", "access-1"])
    #expect(forms.allSatisfy { $0["client_id"] == OAuth2Fixture.clientID })
  }

  @Test func aFailedRevocationStillTriesTheAccessTokenAndThenThrows() async throws {
    let fixture = try OAuth2Fixture()
    let record = try await fixture.loggedIn()
    let calls = OAuth2Box(0)
    fixture.server.override { request in
      guard request.url.hasSuffix("/revoke") else { return try fixture.server.defaultAnswer(request) }
      let first = calls.withLock { count in
        count += 1
        return count == 1
      }
      return first
        ? OAuth2StubServer.json(500, .object([:])) : HTTPResponse(status: 200, headers: [], body: [], finalURL: "")
    }
    #expect(await Self.code { try await fixture.provider.revoke(record) } == .serverError(status: 500))
    #expect(calls.withLock { $0 } == 2)
  }

  // MARK: - Timeout

  @Test func aServerSlowerThanTheProfileTimeoutTimesOut() async throws {
    let fixture = try OAuth2Fixture { $0.timeout = .milliseconds(200) }
    let slow = SlowHTTPClient(inner: fixture.server, delay: .seconds(60))
    let provider = OAuth2Provider(
      settings: OAuth2Settings(
        issuer: OAuth2Fixture.issuer, clientID: OAuth2Fixture.clientID, allowPasswordGrant: true,
        timeout: .milliseconds(200)),
      http: slow, clock: fixture.clock, log: .disabled)
    let started = ContinuousClock.now
    let code = await Self.code {
      _ = try await provider.login(LoginAccount(kind: .username, text: "alice"), password: "pw", profile: "default")
    }
    #expect(code == .timeout)
    // A hang guard, not a speed test: without the timeout the answer would take the server's 60 s.
    #expect(ContinuousClock.now - started < .seconds(30))
  }
}

/// Delays every answer, ending early (as the real client does) when its task is cancelled or the request's own
/// timeout passes first.
struct SlowHTTPClient: HTTPClient {
  let inner: any HTTPClient
  let delay: Duration

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    let wait = min(delay, request.timeout ?? delay)
    do {
      try await Task.sleep(for: wait)
    } catch {
      throw HTTPError(.cancelled, "cancelled")
    }
    guard wait == delay else { throw HTTPError(.timeout, "no answer within \(wait)") }
    return try await inner.send(request)
  }
}
