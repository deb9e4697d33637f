import Testing

@testable import AuthConfig

/// The `rest` keys that shape a login for older backends: `accountKinds`, `context`, `passwordEncryption`, and
/// the login body's new template values.
@Suite struct RESTLoginRequestSettingTests {
  typealias Fixture = RESTProviderSettingTests

  static let pem = RSAKeyFixture.rsa.replacing("\n", with: "\\n")

  static func rest(login body: String, _ extra: String = "") -> String {
    let members = #"""
      "baseURL": "https://api.example.com",
      "login": {"path": "/login", "encoding": "form", "body": {\#(body)}},
      "response": {"accessToken": "token"}
      """# + (extra.isEmpty ? "" : ", " + extra)
    return Fixture.rest(replacing: members)
  }

  @Test func theFlagAPIShapeParses() throws {
    let rest = try Fixture.settings(
      Self.rest(
        login: #""User_Account": "{account}", "User_Password": "{password}", "Account_Type": "{accountKind}", "#
          + #""Device_Id": "{context.deviceId}", "E164": "{phoneE164}", "N": "{phoneNational}""#,
        #""accountKinds": {"phone": "Telephone", "email": "EmailAddress", "username": "NormalName"}, "#
          + #""context": ["deviceId", "appVersion"], "#
          + #""passwordEncryption": {"publicKey": "\#(Self.pem)", "padding": "pkcs1", "encoding": "base64"}"#))
    #expect(rest.loginRequest.name(of: .phone) == "Telephone")
    #expect(rest.loginRequest.contextNames == ["deviceId", "appVersion"])
    #expect(rest.loginRequest.passwordEncryption?.padding == .pkcs1)
    #expect(rest.login.body[3].template == RESTProviderConfig.Template([.context("deviceId")]))
    #expect(rest.login.body[4].template == RESTProviderConfig.Template([.placeholder(.phoneE164)]))
    #expect(rest.loginAccountKind == .phone)
  }

  @Test func withoutAccountKindsAKindIsSentAsItsName() throws {
    let rest = try Fixture.settings(Self.rest(login: #""k": "{accountKind}", "p": "{password}""#))
    #expect(rest.loginRequest.name(of: .email) == "email")
    #expect(rest.loginAccountKind == nil)
  }

  @Test func contextNamesMustBeDeclaredAndWellFormed() {
    Fixture.expect(
      Self.rest(login: #""d": "{context.deviceId}", "p": "{password}""#),
      path: "profiles.default.rest.login.body.d",
      message: "uses {context.deviceId}, which is not in the profile's rest.context list")
    Fixture.expect(
      Self.rest(login: #""p": "{password}""#, #""context": ["device-id"]"#), path: "profiles.default.rest.context.0")
    Fixture.expect(
      Self.rest(login: #""p": "{password}""#, #""context": ["a", "a"]"#), path: "profiles.default.rest.context.1",
      message: "appears more than once")
    Fixture.expect(Self.rest(login: #""p": "{password}""#, #""context": "a""#), path: "profiles.default.rest.context")
    // Only a login body takes host context.
    Fixture.expect(
      Self.rest(
        login: #""p": "{password}""#,
        #""context": ["a"], "refresh": {"path": "/r", "body": {"r": "{refreshToken}", "a": "{context.a}"}}"#),
      path: "profiles.default.rest.refresh.body.a")
  }

  @Test func aBodyNeedingAPhoneAndAnEmailCanNeverBeSent() {
    Fixture.expect(
      Self.rest(login: #""e": "{emailNormalized}", "t": "{phoneE164}", "p": "{password}""#),
      path: "profiles.default.rest.login.body",
      message: "uses values of a phone and of an email: no account has both")
  }

  @Test func accountKindsAreNamedStrings() {
    Fixture.expect(
      Self.rest(login: #""p": "{password}""#, #""accountKinds": {"mobile": "T"}"#),
      path: "profiles.default.rest.accountKinds.mobile")
    Fixture.expect(
      Self.rest(login: #""p": "{password}""#, #""accountKinds": {"phone": ""}"#),
      path: "profiles.default.rest.accountKinds.phone", message: "must not be empty")
  }

  @Test func aBadPublicKeyIsAConfigErrorNamingItsPath() {
    for pem in ["", "-----BEGIN PUBLIC KEY-----\\nAAAA\\n-----END PUBLIC KEY-----", RSAKeyFixture.p256Escaped] {
      Fixture.expect(
        Self.rest(login: #""p": "{password}""#, #""passwordEncryption": {"publicKey": "\#(pem)", "padding": "pkcs1"}"#),
        path: "profiles.default.rest.passwordEncryption.publicKey")
    }
  }

  @Test func passwordEncryptionNeedsOneKeyAndAPadding() {
    let path = "profiles.default.rest.passwordEncryption"
    Fixture.expect(
      Self.rest(login: #""p": "{password}""#, #""passwordEncryption": {"padding": "pkcs1"}"#), path: path,
      message: "needs exactly one of publicKey (the PEM) and publicKeyURL")
    Fixture.expect(
      Self.rest(login: #""p": "{password}""#, #""passwordEncryption": {"publicKey": "\#(Self.pem)"}"#),
      path: path + ".padding")
    Fixture.expect(
      Self.rest(
        login: #""p": "{password}""#,
        #""passwordEncryption": {"publicKey": "\#(Self.pem)", "padding": "oaep-sha1"}"#),
      path: path + ".padding")
    Fixture.expect(
      Self.rest(
        login: #""p": "{password}""#,
        #""passwordEncryption": {"publicKey": "\#(Self.pem)", "padding": "pkcs1", "encoding": "hex"}"#),
      path: path + ".encoding")
  }

  /// The key decides who can read the password: it comes from the API's own origin, over https (or http to
  /// loopback), like every request of the provider.
  @Test func aKeyURLFollowsTheOriginRules() throws {
    let path = "profiles.default.rest.passwordEncryption.publicKeyURL"
    for url in ["https://keys.example.com/k.pem", "http://api.example.com/k.pem", "https://api.example.com:444/k"] {
      Fixture.expect(
        Self.rest(login: #""p": "{password}""#, #""passwordEncryption": {"publicKeyURL": "\#(url)", "padding": "pkcs1"}"#),
        path: path)
    }
    let rest = try Fixture.settings(
      Self.rest(
        login: #""p": "{password}""#,
        #""passwordEncryption": {"publicKeyURL": "https://API.example.com/k.pem", "padding": "oaep-sha256"}"#))
    #expect(rest.loginRequest.passwordEncryption == .init(key: .url("https://API.example.com/k.pem"), padding: .oaepSHA256))
  }
}

/// PEM texts for the config tests.
enum RSAKeyFixture {
  static let rsa = """
    -----BEGIN PUBLIC KEY-----
    MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAqTtbRAK4BhcPDKksTzz8
    X3X7CmTWiPR64xiZzo+iSc8O+L1jUbkFCvEY/RxmSdkevhQ/LnTxZjigvmrcrjwQ
    jr7oOPGVRerpqxiLjrZGEPcuDAuPeiY0mV29EY2EzRNh6dHGvMsh94vrjNX2zdIA
    XyfZqYPtmLLBg98rlRPc5ETY6qwbHUmTzXNWLqtZSJl3lpAmJRh1GgbJioDKB3iN
    HuP/CLlXoJ8DMUfv0TQlAFUMZq6ON4rLPSQ4ySctDmHYuvxvfOFRAgoc2adGT5XX
    sEAntFNNRfX4utWAQaXjaRZh8HvB/4etRCEx7dcVL4YZW6iROcPFSSY8qB1j83pn
    UwIDAQAB
    -----END PUBLIC KEY-----
    """
  static let p256Escaped =
    "-----BEGIN PUBLIC KEY-----\\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEIjN8dPJvmXlhY/0DagVzGnLulHiW\\n"
    + "I2j5VSYfmiGAnZDDnx0ioZ5RajDUd3codsBU2iEDJ+jD3wrJOcv5fUv6aA==\\n-----END PUBLIC KEY-----"
}
