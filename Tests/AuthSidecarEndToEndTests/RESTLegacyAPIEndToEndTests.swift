import Foundation
import Testing

/// The `rest` provider against login APIs shaped like older backends (Tests/Servers legacyapis.py): identities
/// sent exactly as typed with the account's kind in the API's words, host context reaching the server, a password
/// RSA-encrypted for a server that decrypts it with Python's `cryptography`, and an email address in another
/// script. The server records the fields it received (passwords left out) at `/_test/legacy/received`.
///
/// The flag API answers no token: its profiles log in on the `loginOKOrNotFlag` flag, a tokenless session.
@Suite(.serialized) struct RESTLegacyAPIEndToEndTests {
  static let shared = Result { try AuthServerProcess() }
  static let password = "correct horse battery staple"

  // MARK: - Identities as typed, accountKinds, context

  @Test func eachKindOfAccountIsSentAsTypedWithItsAccountType() throws {
    let harness = try Harness("typed")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let context = ["deviceId": "d-42", "appVersion": "2.3.0"]
    let cases: [(field: String, typed: String, kind: String)] = [
      ("phone", "13542138562", "Telephone"), ("account", " Li.Na@Example.COM ", "EmailAddress"),
      ("username", "xiaoming", "NormalName"),
    ]
    for (field, typed, kind) in cases {
      let login = sidecar.call(
        "login", ["profile": "php", field: typed, "password": Self.password, "context": context])
      #expect(login.user != nil, "\(typed): \(login)")
      let fields = try #require(try harness.lastReceived("/php/login.php"))
      // Trimmed, otherwise exactly what was typed: no +86, no lower-cased domain.
      #expect(fields["User_Account"] == typed.trimmingCharacters(in: .whitespaces), "\(fields)")
      #expect(fields["Account_Type"] == kind)
      #expect(fields["Device_Id"] == "d-42")
      #expect(fields["App_Version"] == "2.3.0")
    }
    let wrong = sidecar.call("login", ["profile": "php", "phone": "13542138562", "password": "not it"])
    #expect(wrong.errorKind == "invalid_credentials", "\(wrong)")
    // A logout without a logout endpoint is documented behaviour: revoked false, and no warning about it.
    #expect(sidecar.call("logout", ["profile": "php"]).result?["revoked"] as? Bool == false)
    let stderr = sidecar.finish()
    #expect(!stderr.contains("did not complete"), "stderr: \(stderr)")
    #expect(!stderr.contains(Self.password))
  }

  @Test func anUndeclaredContextNameIsRefusedAndNothingIsSent() throws {
    let harness = try Harness("context")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let before = try harness.received().count
    let refused = sidecar.call(
      "login", ["profile": "php", "phone": "13542138562", "password": Self.password, "context": ["imei": "3571"]])
    #expect(refused.errorKind == "invalid_params", "\(refused)")
    #expect(refused.errorData?["field"] as? String == "context.imei")
    let notString = sidecar.call(
      "login", ["profile": "php", "phone": "13542138562", "password": Self.password, "context": ["deviceId": 7]])
    #expect(notString.errorKind == "invalid_params", "\(notString)")
    #expect(try harness.received().count == before, "a refused login sent nothing")
    _ = sidecar.finish()
  }

  /// A profile whose login body takes a phone's national number cannot send an email: refused before sending,
  /// worded as for a phone.
  @Test func anAccountOfTheWrongKindForTheBodyIsAValidationFailure() throws {
    let harness = try Harness("kind")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    let before = try harness.received().count
    let refused = sidecar.call("login", ["profile": "phpPhone", "account": "Li.Na@Example.COM", "password": "x"])
    #expect(refused.errorKind == "validation_failed", "\(refused)")
    let account = (refused.errorData?["fields"] as? [String: Any])?["account"] as? [String: Any]
    let issue = (account?["errors"] as? [[String: Any]])?.first
    #expect(issue?["code"] as? String == "invalid_format")
    #expect(issue?["message"] as? String == "Account is not a valid phone number.")
    #expect(try harness.received().count == before)
    let phone = sidecar.call(
      "login", ["profile": "phpPhone", "account": "+86 135 4213 8562", "password": Self.password])
    #expect(phone.user != nil, "\(phone)")
    #expect(try harness.lastReceived("/php/login.php")?["User_Account"] == "13542138562")
    _ = sidecar.finish()
  }

  // MARK: - RSA-encrypted passwords

  /// PKCS #1 v1.5 with the key fetched from the server (`publicKeyURL`), OAEP-SHA-256 with the key in the config.
  @Test(arguments: ["phpRSA", "phpOAEP"])
  func anRSAEncryptedPasswordIsAcceptedByAServerThatDecryptsIt(_ profile: String) throws {
    let harness = try Harness("rsa-\(profile)")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    for _ in 0..<2 {
      let login = sidecar.call("login", ["profile": profile, "username": "xiaoming", "password": Self.password])
      #expect(login.user != nil, "\(profile): \(login)")
    }
    let wrong = sidecar.call("login", ["profile": profile, "username": "xiaoming", "password": "not it"])
    #expect(wrong.errorKind == "invalid_credentials", "\(profile): \(wrong)")
    #expect(!sidecar.finish().contains(Self.password))
    // The key was fetched once for the process, however many logins used it (never, when the config holds it).
    #expect(try harness.counters().requests("GET /php/public_key.pem") == (profile == "phpRSA" ? 1 : 0))
  }

  @Test func aBadPublicKeyStopsTheSidecarAtStartNamingItsPath() throws {
    let fixture = try StateFixture("rest-legacy-badkey")
    defer { fixture.remove() }
    let config = #"""
      {"profiles": {"default": {"provider": "rest", "rest": {
        "baseURL": "http://127.0.0.1:9",
        "login": {"path": "/login", "body": {"u": "{account}", "p": "{password}"}},
        "response": {"accessToken": "token"},
        "passwordEncryption": {"publicKey": "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----",
                               "padding": "pkcs1"}}}}}
      """#
    let (status, stderr) = try fixture.run(config: config)
    #expect(status == 78)
    #expect(stderr.contains("profiles.default.rest.passwordEncryption.publicKey"), "stderr: \(stderr)")
  }

  // MARK: - Email addresses in any script

  @Test func anEmailAddressInAnotherScriptLogsIn() throws {
    let harness = try Harness("unicode-email")
    defer { harness.stop() }
    let sidecar = try harness.sidecar()
    for (email, name) in [("张伟@example.com", "张伟"), ("josé@exämple.org", "José")] {
      let login = sidecar.call("login", ["profile": "mail", "email": email, "password": Self.password])
      #expect(login.user?["displayName"] as? String == name, "\(email): \(login)")
      #expect(login.user?["email"] as? String == email)
      #expect(try harness.lastReceived("/mail/session")?["email"] == email)
    }
    _ = sidecar.finish()
  }
}

extension RESTLegacyAPIEndToEndTests {
  /// The suite's shared server, a state dir and a config with one profile per API shape.
  final class Harness: ServerHarness {
    init(_ name: String) throws {
      let server = try RESTLegacyAPIEndToEndTests.shared.get()
      // The OAEP profile carries the key in the config, as a PEM string; the RSA one fetches it.
      let pem = String(decoding: try LoopbackHTTP.get(server.url + "/php/public_key.pem").body, as: UTF8.self)
      try super.init("rest-legacy-\(name)", sharedServer: server) { url in Self.config(url: url, pem: pem) }
      // The server is shared: counters start at zero for each test.
      try reset()
    }

    static func config(url: String, pem: String) -> String {
      // A PEM holds base64, dashes, spaces and line breaks: only the line breaks need escaping in JSON.
      let pemJSON = "\"" + pem.replacingOccurrences(of: "\n", with: "\\n") + "\""
      let fetchedKey = #""passwordEncryption": {"publicKeyURL": "\#(url)/php/public_key.pem", "padding": "pkcs1"}"#
      let configuredKey = #""passwordEncryption": {"publicKey": \#(pemJSON), "padding": "oaep-sha256"}"#
      func flagProfile(_ path: String, account: String = "{account}", _ extra: String = "") -> String {
        #"""
        {"provider": "rest", "rest": {
          "baseURL": "\#(url)",
          "login": {"path": "\#(path)", "encoding": "form",
                    "body": {"User_Account": "\#(account)", "User_Password": "{password}",
                             "Account_Type": "{accountKind}", "Device_Id": "{context.deviceId}",
                             "App_Version": "{context.appVersion}"}},
          "response": {"success": {"path": "loginOKOrNotFlag", "equals": "1"}},
          "userFields": {"id": "userId", "displayName": "nickName"},
          "accountKinds": {"phone": "Telephone", "email": "EmailAddress", "username": "NormalName"},
          "context": ["deviceId", "appVersion"]\#(extra.isEmpty ? "" : ", " + extra)}}
        """#
      }
      return #"""
        {"profiles": {
          "php": \#(flagProfile("/php/login.php")),
          "phpPhone": \#(flagProfile("/php/login.php", account: "{phoneNational}")),
          "phpRSA": \#(flagProfile("/php/login_rsa.php", fetchedKey)),
          "phpOAEP": \#(flagProfile("/php/login_oaep.php", configuredKey)),
          "mail": {"provider": "rest", "rest": {
            "baseURL": "\#(url)",
            "login": {"path": "/mail/session", "encoding": "form",
                      "body": {"email": "{email}", "password": "{password}"}},
            "user": {"path": "/mail/me"},
            "response": {"accessToken": "access_token", "expiresIn": "expires_in", "user": "user"},
            "userFields": {"id": "email", "username": "email", "displayName": "name"}}}
        }}
        """#
    }

    /// What the server received, oldest first: path and fields (passwords left out).
    func received() throws -> [(path: String, fields: [String: String])] {
      let answer = try LoopbackHTTP.get(server.url + "/_test/legacy/received")
      let entries = answer.json?["received"] as? [[String: Any]] ?? []
      return entries.map { ($0["path"] as? String ?? "", $0["fields"] as? [String: String] ?? [:]) }
    }

    /// The fields of the last request the server received at `path`.
    func lastReceived(_ path: String) throws -> [String: String]? {
      try received().last { $0.path == path }?.fields
    }
  }
}
