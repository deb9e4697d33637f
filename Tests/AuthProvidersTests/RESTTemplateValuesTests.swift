import AuthConfig
import Testing

@testable import AuthProviders

/// What a `rest` login body carries: identities as typed, the normalized forms under names of their own, the
/// account's kind as the API names it, and host context.
@Suite struct RESTTemplateValuesTests {
  typealias Config = RESTProviderConfig

  static let request = Config.LoginRequest(
    accountKinds: [.phone: "Telephone", .email: "EmailAddress", .username: "NormalName"], contextNames: ["deviceId"])

  static func body(_ members: [(String, Config.Template.Segment)]) -> Config.Endpoint {
    Config.Endpoint(
      path: "/login", encoding: .form, body: members.map { Config.BodyField($0.0, Config.Template([$0.1])) })
  }

  static func form(_ account: LoginAccount, _ endpoint: Config.Endpoint) -> String {
    let values = RESTTemplateValues.login(account, password: "pw", request: request)
    return String(decoding: RESTBody.render(endpoint, values)?.bytes ?? [], as: UTF8.self)
  }

  @Test func aPhoneIsSentAsTypedWithItsOtherForms() {
    let account = LoginAccount(kind: .phone, text: "+8613542138562", typed: "13542138562", context: ["deviceId": "d-1"])
    let endpoint = Self.body([
      ("a", .placeholder(.account)), ("u", .placeholder(.username)), ("n", .placeholder(.accountNormalized)),
      ("e164", .placeholder(.phoneE164)), ("nat", .placeholder(.phoneNational)), ("k", .placeholder(.accountKind)),
      ("d", .context("deviceId")), ("p", .placeholder(.password)),
    ])
    #expect(
      Self.form(account, endpoint)
        == "a=13542138562&u=13542138562&n=%2B8613542138562&e164=%2B8613542138562&nat=13542138562&k=Telephone"
        + "&d=d-1&p=pw")
  }

  @Test func anEmailKeepsItsCaseAndScriptUnlessNormalizedIsAskedFor() {
    let account = LoginAccount(kind: .email, text: "Li.Na@example.com", typed: "Li.Na@Example.COM")
    let endpoint = Self.body([
      ("e", .placeholder(.email)), ("n", .placeholder(.emailNormalized)), ("k", .placeholder(.accountKind)),
      ("t", .placeholder(.phoneE164)), ("d", .context("deviceId")),
    ])
    // A value the account has not (a phone form of an email) or the host did not send leaves its member out; the
    // login method refuses an account of the wrong kind before it gets here.
    #expect(Self.form(account, endpoint) == "e=Li.Na%40Example.COM&n=Li.Na%40example.com&k=EmailAddress")
  }
}
