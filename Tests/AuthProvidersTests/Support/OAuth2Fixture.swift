import AuthCrypto
import AuthHTTP
import AuthJSON
import AuthStorage
import AuthSupport
import Foundation
import Synchronization

@testable import AuthProviders

/// An authorization server in memory: it records every request and answers through a handler the test can
/// replace, with a discovery document, a JWKS, a token endpoint issuing RS256 ID tokens, userinfo and
/// revocation by default.
final class OAuth2StubServer: HTTPClient {
  typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse

  private let state = Mutex<(requests: [HTTPRequest], handler: Handler?)>(([], nil))
  let clock: ManualClock
  let jwks = Mutex<[OAuth2TestKey]>([OAuth2TestKey.rsa, OAuth2TestKey.ec])
  let algorithms = Mutex<[String]>(["RS256", "ES256", "HS256"])
  let discoveryIssuer = Mutex(OAuth2Fixture.issuer)
  /// Signs the ID tokens the token endpoint issues; nil issues none.
  let signer = Mutex<OAuth2TestKey?>(OAuth2TestKey.rsa)
  let tokenCounter = Mutex(0)

  init(clock: ManualClock) { self.clock = clock }

  var requests: [HTTPRequest] { state.withLock { $0.requests } }
  func requests(to path: String) -> [HTTPRequest] { requests.filter { $0.url.hasSuffix(path) } }

  /// Answers every request with `handler` instead of the defaults; it may call `defaultAnswer`.
  func override(_ handler: @escaping Handler) { state.withLock { $0.handler = handler } }

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    let handler = state.withLock { state in
      state.requests.append(request)
      return state.handler
    }
    do {
      return try (handler ?? defaultAnswer)(request)
    } catch let error as HTTPError {
      throw error
    } catch {
      throw HTTPError(.networkUnavailable, "stub failure")
    }
  }

  static func json(_ status: Int, _ value: JSONValue, headers: [HTTPHeader] = []) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [HTTPHeader("Content-Type", "application/json")] + headers,
      body: JSONWriter.encode(value), finalURL: "")
  }

  @Sendable func defaultAnswer(_ request: HTTPRequest) throws -> HTTPResponse {
    let issuer = OAuth2Fixture.issuer
    switch (request.method, request.url) {
    case (.get, issuer + "/.well-known/openid-configuration"):
      return Self.json(
        200,
        .object([
          "issuer": .string(discoveryIssuer.withLock { $0 }), "token_endpoint": .string(issuer + "/token"),
          "jwks_uri": .string(issuer + "/jwks"), "userinfo_endpoint": .string(issuer + "/userinfo"),
          "revocation_endpoint": .string(issuer + "/revoke"),
          "id_token_signing_alg_values_supported": .array(algorithms.withLock { $0 }.map(JSONValue.string)),
        ]))
    case (.get, issuer + "/jwks"):
      return Self.json(200, .object(["keys": .array(jwks.withLock { $0 }.map(\.jwk))]))
    case (.post, issuer + "/token"):
      return try tokenAnswer()
    case (.get, issuer + "/userinfo"):
      return Self.json(200, .object(["sub": "42", "preferred_username": "alice", "email": "alice@example.com"]))
    case (.post, issuer + "/revoke"):
      return HTTPResponse(status: 200, headers: [], body: [], finalURL: "")
    default:
      return Self.json(404, .object(["error": "not_found"]))
    }
  }

  /// A fresh access and refresh token (numbered), and an ID token when `signer` is set.
  func tokenAnswer(includeRefreshToken: Bool = true) throws -> HTTPResponse {
    let number = tokenCounter.withLock { counter in
      counter += 1
      return counter
    }
    let access = "access-\(number)"
    var answer: JSONObject = [
      "access_token": .string(access), "token_type": "Bearer", "expires_in": 300, "scope": "openid profile",
    ]
    if includeRefreshToken { answer.appendNew(key: "refresh_token", value: .string("refresh-\(number)")) }
    if let signer = signer.withLock({ $0 }) {
      let hash = IDTokenValidator.accessTokenHash(SecretBytes(Array(access.utf8)))
      let token = try signer.sign(claims: oauth2Claims(now: clock.now(), ["at_hash": .string(hash)]))
      answer.appendNew(key: "id_token", value: .string(token))
    }
    return Self.json(200, .object(answer))
  }

  /// The decoded form fields of a request body.
  static func form(_ request: HTTPRequest) -> [String: String] {
    let text = String(decoding: request.body ?? [], as: UTF8.self)
    var fields: [String: String] = [:]
    for pair in text.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
        String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
      }
      fields[parts[0]] = parts.count > 1 ? parts[1] : ""
    }
    return fields
  }
}

/// A manual clock and an `OAuth2Provider` talking to an `OAuth2StubServer`.
final class OAuth2Fixture: Sendable {
  static let issuer = "https://id.example.com"
  static let clientID = "sidecar-test"

  let clock: ManualClock
  let server: OAuth2StubServer
  let provider: OAuth2Provider

  init(_ change: (inout OAuth2Settings) -> Void = { _ in }) throws {
    clock = ManualClock(startTime)
    server = OAuth2StubServer(clock: clock)
    var settings = OAuth2Settings(
      issuer: Self.issuer, clientID: Self.clientID, scopes: ["openid", "profile"], allowPasswordGrant: true)
    change(&settings)
    provider = OAuth2Provider(settings: settings, http: server, clock: clock, log: .disabled)
  }

  func login(password: String = "correct horse battery staple") async throws -> IssuedSession {
    try await provider.login(LoginAccount(kind: .username, text: "alice"), password: password, profile: "default")
  }

  /// Logs in; the session a client then holds.
  func loggedIn() async throws -> IssuedSession { try await login() }

  /// Refreshes `session`; the tokens the session service would store.
  func refresh(_ session: IssuedSession) async throws -> IssuedSession {
    guard case .issued(let issued) = try await provider.refresh(session, profile: "default") else {
      throw FixtureError.notIssued
    }
    return issued
  }
}

/// A value shared between a test and the stub server's handler closures.
final class OAuth2Box<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>
  init(_ value: Value) { mutex = Mutex(value) }
  func withLock<R: Sendable>(_ body: (inout Value) throws -> R) rethrows -> R {
    try mutex.withLock { value in try body(&value) }
  }
}
