import AuthHTTP
import AuthJSON
import Testing

@testable import AuthProviders

/// The device authorization answer and what each poll answer means (RFC 8628 §3.2, §3.5).
@Suite struct OAuth2DevicePollTests {
  static func answer(_ status: Int, _ body: JSONObject) -> HTTPResponse {
    OAuth2StubServer.json(status, .object(body))
  }

  static func failure(_ response: HTTPResponse) -> ProviderError? {
    do {
      _ = try DevicePoll.classify(response)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Device authorization

  @Test func aDeviceAuthorizationAnswerIsReadWithItsDefaults() throws {
    let parsed = try DeviceAuthorization.parse(
      JSONWriter.encode(
        .object([
          "device_code": "dc-1", "user_code": "WDJB-MJHT", "verification_uri": "https://id.example.com/device",
          "expires_in": 1800,
        ])))
    #expect(text(parsed.deviceCode) == "dc-1")
    #expect(parsed.userCode == "WDJB-MJHT")
    #expect(parsed.verificationURI == "https://id.example.com/device")
    #expect(parsed.verificationURIComplete == nil)
    #expect(parsed.expiresIn == 1800)
    #expect(parsed.interval == 5)  // §3.2: 5 s when absent
  }

  @Test func theIntervalIsKeptInBoundsAndTheOldURLNameIsRead() throws {
    let parsed = try DeviceAuthorization.parse(
      JSONWriter.encode(
        .object([
          "device_code": "dc", "user_code": "U", "verification_url": "https://id.example.com/device",
          "verification_uri_complete": "https://id.example.com/device?user_code=U", "expires_in": 60,
          "interval": 0,
        ])))
    #expect(parsed.verificationURI == "https://id.example.com/device")
    #expect(parsed.verificationURIComplete == "https://id.example.com/device?user_code=U")
    #expect(parsed.interval == 1)
    let slow = try DeviceAuthorization.parse(
      JSONWriter.encode(
        .object([
          "device_code": "dc", "user_code": "U", "verification_uri": "https://x", "expires_in": 60, "interval": 3600,
        ])))
    #expect(slow.interval == 60)
  }

  @Test func anUnusableDeviceAuthorizationAnswerIsABadResponse() {
    let base: JSONObject = [
      "device_code": "dc", "user_code": "U", "verification_uri": "https://id.example.com/device", "expires_in": 60,
    ]
    var cases: [JSONObject] = []
    for key in ["device_code", "user_code", "verification_uri", "expires_in"] {
      var missing = JSONObject()
      for member in base.members where member.key != key { missing.appendNew(key: member.key, value: member.value) }
      cases.append(missing)
    }
    var script = JSONObject()
    for member in base.members {
      script.appendNew(key: member.key, value: member.key == "verification_uri" ? "javascript:alert(1)" : member.value)
    }
    cases.append(script)
    var control = JSONObject()
    for member in base.members {
      control.appendNew(key: member.key, value: member.key == "user_code" ? "AB\u{1B}[2J" : member.value)
    }
    cases.append(control)
    for body in cases {
      #expect(throws: ProviderError.self) { try DeviceAuthorization.parse(JSONWriter.encode(.object(body))) }
    }
    #expect(throws: ProviderError.self) { try DeviceAuthorization.parse(Array("not json".utf8)) }
  }

  /// Every other URL a server hands us is https or loopback http; the page where the user types the code is too.
  @Test(arguments: [
    ("http://id.example.com/device", false), ("http://127.0.0.1:8000/device", true), ("http://[::1]:80/d", true),
    ("https://id.example.com/device", true), ("HTTP://ID.EXAMPLE.COM/device", false),
  ])
  func theVerificationURIIsHTTPSOrLoopback(uri: String, accepted: Bool) {
    for key in ["verification_uri", "verification_uri_complete"] {
      var body: JSONObject = [
        "device_code": "dc", "user_code": "U", "verification_uri": "https://id.example.com/device", "expires_in": 60,
      ]
      body[key] = .string(uri)
      let parsed = try? DeviceAuthorization.parse(JSONWriter.encode(.object(body)))
      #expect((parsed != nil) == accepted, "\(key): \(uri)")
    }
  }

  // MARK: - Polls

  @Test func pendingAndSlowDownKeepPolling() throws {
    guard case .pending = try DevicePoll.classify(Self.answer(400, ["error": "authorization_pending"])) else {
      Issue.record("authorization_pending")
      return
    }
    guard case .slowDown = try DevicePoll.classify(Self.answer(400, ["error": "slow_down"])) else {
      Issue.record("slow_down")
      return
    }
  }

  @Test func aTokenAnswerEndsThePolling() throws {
    let answer = Self.answer(200, ["access_token": "at", "token_type": "Bearer", "expires_in": 300])
    guard case .issued(let tokens) = try DevicePoll.classify(answer) else {
      Issue.record("not issued")
      return
    }
    #expect(text(tokens.accessToken) == "at")
  }

  @Test func refusalsExpiryAndServerTroubleAreMapped() {
    let denied = Self.failure(Self.answer(400, ["error": "access_denied"]))
    #expect(denied?.code == .declined)
    #expect(denied?.upstreamCode == "access_denied")
    let expired = Self.failure(Self.answer(400, ["error": "expired_token"]))
    #expect(expired?.code == .notCompleted)
    #expect(expired?.upstreamCode == "expired_token")
    let other = Self.failure(Self.answer(401, ["error": "invalid_client"]))
    #expect(other?.code == .badResponse)
    #expect(other?.upstreamCode == "invalid_client")
    #expect(Self.failure(Self.answer(400, [:]))?.code == .badResponse)
    // Transient: the poll loop rides these out within its bounds.
    #expect(Self.failure(Self.answer(503, ["error": "injected_fault"]))?.isTransient == true)
    #expect(Self.failure(Self.answer(429, [:]))?.isTransient == true)
    #expect(Self.failure(Self.answer(200, ["access_token": "at"]))?.code == .badResponse)
  }
}
