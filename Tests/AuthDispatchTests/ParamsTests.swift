import AuthJSON
import AuthProtocol
import AuthValidation
import Testing

@testable import AuthDispatch

@Suite struct ParamsTests {
  static func params(_ text: String) throws(RPCError) -> Params { try Params(json(text)) }

  static func failure(_ body: () throws -> Void) -> RPCError? {
    do {
      try body()
      return nil
    } catch let error as RPCError {
      return error
    } catch {
      return nil
    }
  }

  @Test func absentParamsAreAnEmptyObject() throws {
    let params = try Params(nil)
    #expect(params.object.count == 0)
    #expect(try params.profile() == "default")
    #expect(try params.locale() == .en)
  }

  @Test func anEmptyArrayIsNoParams() throws {
    let params = try Self.params("[]")
    #expect(params.object.count == 0)
    #expect(try params.profile() == "default")
    #expect(Self.failure { try params.allowOnly([]) } == nil)
  }

  @Test(arguments: ["[1]", "[{}]", "[[]]", #""x""#, "1", "null", "true"])
  func paramsMustBeAnObject(text: String) {
    let error = Self.failure { _ = try Self.params(text) }
    #expect(error?.kind == .invalidParams)
    #expect(error?.code == -32602)
  }

  @Test func duplicateKeysAreInvalid() {
    let error = Self.failure { _ = try Self.params(#"{"email":"a@b.co","email":"c@d.co"}"#) }
    #expect(error?.kind == .invalidParams)
  }

  @Test func unknownKeysAreInvalidAndNamed() throws {
    let params = try Self.params(#"{"email":"a@b.co","emial":"x","profile":"p","locale":"en"}"#)
    let error = Self.failure { try params.allowOnly(["email"]) }
    #expect(error?.kind == .invalidParams)
    #expect(error?.details["field"] == "emial")
    #expect(Self.failure { try params.allowOnly(["email", "emial"]) } == nil, "profile and locale are always allowed")
  }

  @Test func longUnknownKeysAreShortened() throws {
    let key = String(repeating: "k", count: 1_000)
    let params = try Self.params(#"{""# + key + #"":1}"#)
    let error = Self.failure { try params.allowOnly([]) }
    #expect(error?.details["field"]?.stringValue?.count == 40)
    #expect((error?.message.count ?? .max) < 100)
  }

  @Test func typedAccessorsAreStrict() throws {
    let params = try Self.params(#"{"s":"x","b":true,"n":1,"z":null}"#)
    #expect(try params.string("s") == "x")
    #expect(try params.string("missing") == nil)
    #expect(try params.bool("b") == true)
    #expect(Self.failure { _ = try params.string("n") }?.details["field"] == "n")
    #expect(Self.failure { _ = try params.string("z") }?.message.contains("null") == true, "null is not absent")
    #expect(Self.failure { _ = try params.bool("s") }?.message.contains("string") == true)
  }

  @Test func choiceAcceptsOnlyItsCases() throws {
    let params = try Self.params(#"{"purpose":"login","bad":"Login","n":1}"#)
    #expect(try params.choice("purpose", as: ValidationPurpose.self) == .login)
    #expect(try params.choice("absent", as: ValidationPurpose.self) == nil)
    #expect(Self.failure { _ = try params.choice("bad", as: ValidationPurpose.self) }?.details["field"] == "bad")
    #expect(Self.failure { _ = try params.choice("n", as: ValidationPurpose.self) }?.kind == .invalidParams)
  }

  @Test(arguments: ["default", "work", "a", "A-Z_0.9", String(repeating: "p", count: 64)])
  func validProfileNames(name: String) throws {
    #expect(try Self.params(#"{"profile":""# + name + #""}"#).profile() == name)
  }

  @Test(arguments: ["", "../etc", "a b", "a/b", "é", String(repeating: "p", count: 65), "a\\u0000", "tab\\t"])
  func invalidProfileNames(name: String) throws {
    let params = try Self.params(#"{"profile":""# + name + #""}"#)
    let error = Self.failure { _ = try params.profile() }
    #expect(error?.kind == .invalidParams)
    #expect(error?.details["field"] == "profile")
  }

  @Test func profileOfTheWrongTypeIsInvalid() throws {
    let params = try Self.params(#"{"profile":1}"#)
    #expect(Self.failure { _ = try params.profile() }?.details["field"] == "profile")
  }

  @Test func localeFallsBackToEnglishButMustBeAString() throws {
    #expect(try Self.params(#"{"locale":"zh-Hans"}"#).locale() == .zhHans)
    #expect(try Self.params(#"{"locale":"fr"}"#).locale() == .en)
    let params = try Self.params(#"{"locale":["en"]}"#)
    #expect(Self.failure { _ = try params.locale() }?.details["field"] == "locale")
  }

  @Test func invalidParamsErrorShape() {
    let error = RPCError.invalidParams("\"x\" must be a string", field: "x")
    #expect(
      JSONWriter.string(error.json)
        == #"{"code":-32602,"message":"Invalid params: \"x\" must be a string.","data":{"kind":"invalid_params","retryable":false,"field":"x"}}"#
    )
  }

  // MARK: Through the server

  @Test(arguments: [
    (#"{"username":"alice","nickname":"x"}"#, "nickname"),
    (#"{"email":1}"#, "email"),
    (#"{"email":"a@b.co","profile":"../x"}"#, "profile"),
    (#"{"email":"a@b.co","profile":7}"#, "profile"),
    (#"{"email":"a@b.co","purpose":"signup"}"#, "purpose"),
    (#"{"password":null}"#, "password"),
  ])
  func serverAnswersInvalidParamsNamingTheField(params: String, field: String) {
    let harness = ServerHarness()
    harness.request("validate", id: "1", params: params)
    let answer = harness.sender.messages.first
    #expect(answer?.errorCode == -32602)
    #expect(answer?.errorKind == "invalid_params")
    #expect(answer?.errorData?["field"] == .string(field))
  }

  @Test(arguments: ["[]", #"{"username":"a","username":"b"}"#, "{}", #""x""#])
  func serverAnswersInvalidParamsForBadShapes(params: String) {
    let harness = ServerHarness()
    harness.receive(#"{"jsonrpc":"2.0","id":1,"method":"validate","params":"# + params + "}")
    let answer = harness.sender.messages.first
    #expect(answer?.id == 1)
    // A params string is not a request at all (-32600); the others are requests with bad params.
    #expect(answer?.errorCode == (params == #""x""# ? -32600 : -32602))
  }

  @Test func asyncMethodsGetTheSameStrictness() async throws {
    let harness = ServerHarness()
    harness.request("sleep", id: "1", params: #"{"ms":0,"extra":true}"#)
    harness.request("record", id: "2", params: #"{"tag":"t","profile":""}"#)
    let answers = try await harness.sender.wait(for: 2)
    #expect(answer(1, in: answers)?.errorData?["field"] == "extra")
    #expect(answer(2, in: answers)?.errorData?["field"] == "profile")
    #expect(harness.log.all.isEmpty, "a bad profile is refused before the method runs")
  }
}
