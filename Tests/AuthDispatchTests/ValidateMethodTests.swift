import AuthJSON
import AuthProtocol
import AuthValidation
import Testing

@testable import AuthDispatch

@Suite struct ValidateMethodTests {
  static func validate(_ params: String) -> JSONValue? {
    let harness = ServerHarness()
    harness.request("validate", id: "1", params: params)
    return harness.sender.messages.first
  }

  @Test func validInputAnswersTheReport() {
    let answer = Self.validate(#"{"username":"alice_01","email":"Bob@Example.COM"}"#)
    #expect(answer?.result?["valid"] == true)
    let fields = answer?.result?["fields"]?.objectValue
    #expect(fields?.keys == ["username", "email"], "canonical field order")
    #expect(fields?["email"]?["value"] == "Bob@example.com")
    #expect(fields?["username"]?["errors"] == [])
  }

  @Test func invalidFieldsAreAResultNotAnError() {
    let answer = Self.validate(#"{"username":"a","password":"short"}"#)
    #expect(answer?["error"] == nil)
    #expect(answer?.result?["valid"] == false)
    let codes = answer?.result?["fields"]?["username"]?["errors"]?.arrayValue?.compactMap { $0["code"]?.stringValue }
    #expect(codes == ["too_short"])
  }

  @Test func accountIsClassified() {
    let answer = Self.validate(#"{"account":"+8613812345678","purpose":"login"}"#)
    #expect(answer?.result?["fields"]?["account"]?["kind"] == "phone")
  }

  @Test func localeChangesTheMessages() {
    let en = Self.validate(#"{"username":"a"}"#)?.result?["fields"]?["username"]?["errors"]?.arrayValue?.first?[
      "message"]
    let zh = Self.validate(#"{"username":"a","locale":"zh-Hans"}"#)?.result?["fields"]?["username"]?["errors"]?
      .arrayValue?
      .first?["message"]
    #expect(en != nil)
    #expect(zh != nil)
    #expect(en != zh)
  }

  @Test func atLeastOneFieldIsRequired() {
    #expect(Self.validate("{}")?.errorCode == -32602)
    #expect(Self.validate(#"{"purpose":"login"}"#)?.errorCode == -32602)
  }

  @Test func theValidatorOfTheProfileIsUsed() {
    // Letters only: fine for the standard preset, missing a digit for the classic one ("work").
    let password = #"{"password":"correct horse battery staple""#
    let standard = Self.validate(password + "}")
    let classic = Self.validate(password + #","profile":"work"}"#)
    #expect(standard?.result?["valid"] == true)
    let codes = classic?.result?["fields"]?["password"]?["errors"]?.arrayValue?.compactMap { $0["code"]?.stringValue }
    #expect(codes == ["missing_digit"])
  }

  @Test func anUnknownProfileIsAConfigError() {
    let answer = Self.validate(#"{"username":"alice","profile":"nobody"}"#)
    #expect(answer?.errorKind == "config_error")
    #expect(answer?.errorCode == -32015)
    #expect(answer?.errorData?["profile"] == "nobody")
  }

  /// The hand-written encoder and the tree builder must agree, byte for byte after a parse.
  @Test(arguments: [
    ValidationInput(username: "alice"),
    ValidationInput(account: "x@y.co", password: "password"),
    ValidationInput(username: "a\"b\\c\n", email: "bad", phone: "123", password: "é😀"),
    ValidationInput(account: "13812345678", username: "", email: "", phone: "", password: ""),
  ])
  func encoderMatchesTheTreeForm(input: ValidationInput) {
    for locale in MessageLocale.allCases {
      for purpose in [ValidationPurpose.register, .login] {
        let report = Validator().validate(input, purpose: purpose, locale: locale)
        let encoded = ValidateMethod.encode(report)
        let tree: JSONValue = .object([
          "valid": .bool(report.valid), "fields": .object(ValidateMethod.fieldsJSON(report)),
        ])
        #expect(encoded.bytes == JSONWriter.encode(tree))
      }
    }
  }
}
