import AuthConfig
import AuthJSON
import Testing

@testable import AuthProviders

/// `response.success` and `response.unknownAccount` read against real answer shapes: every condition must hold,
/// values compare as JSON (numbers by value, never across types), and a missing field holds nothing.
@Suite struct RESTAnswerRuleTests {
  static func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

  static func rule(_ conditions: [(String, String)]) throws -> AnswerRule {
    AnswerRule(
      try conditions.map { path, expected in
        AnswerRule.Condition(RESTProviderConfig.FieldPath(parsing: path)!, equals: try json(expected))
      })
  }

  static let flagAnswer = #"{"accountBeingOrNotFlag": "1", "loginOKOrNotFlag": "0"}"#

  @Test func aFlagAnswerIsReadByItsValues() throws {
    let answer = try Self.json(Self.flagAnswer)
    #expect(try !Self.rule([("loginOKOrNotFlag", #""1""#)]).holds(in: answer))
    #expect(try Self.rule([("loginOKOrNotFlag", #""0""#)]).holds(in: answer))
    // A string flag is not the number: the server's type says what it meant.
    #expect(try !Self.rule([("loginOKOrNotFlag", "0")]).holds(in: answer))
    #expect(try !Self.rule([("accountBeingOrNotFlag", #""0""#)]).holds(in: answer))
  }

  @Test func everyConditionMustHold() throws {
    let answer = try Self.json(#"{"code": 0, "data": {"ok": true, "roles": ["a", "b"]}}"#)
    #expect(try Self.rule([("code", "0"), ("data.ok", "true"), ("data.roles.1", #""b""#)]).holds(in: answer))
    #expect(try !Self.rule([("code", "0"), ("data.ok", "false")]).holds(in: answer))
  }

  @Test func aMissingFieldHoldsNothingAndContradictsNothing() throws {
    let rule = try Self.rule([("success", "true")])
    for text in ["{}", #"{"data": {}}"#, "[]", #""text""#] {
      let answer = try Self.json(text)
      #expect(!rule.holds(in: answer), "\(text)")
      #expect(!rule.isContradicted(by: answer), "\(text)")
    }
    #expect(!rule.isContradicted(by: nil))
    #expect(rule.isContradicted(by: try Self.json(#"{"success": "true"}"#)))
    // `null` is a value like any other: a field that must be null holds when it is.
    #expect(try Self.rule([("error", "null")]).holds(in: Self.json(#"{"error": null}"#)))
    #expect(try !Self.rule([("error", "null")]).holds(in: Self.json("{}")))
  }

  @Test(arguments: [
    ("1", "1.0", true), ("1", "1e0", true), ("100", "1E2", true), ("0", "-0", true), ("1", "2", false),
    ("12345678901234567890", "12345678901234567890", true), (#""1""#, "1", false), ("true", "1", false),
    ("null", "false", false), (#"{"a": 1, "b": [2]}"#, #"{"b": [2.0], "a": 1}"#, true),
    (#"{"a": 1}"#, #"{"a": 1, "b": 2}"#, false), ("[1, 2]", "[2, 1]", false), (#""é""#, #""\u00e9""#, true),
  ])
  func jsonEquivalence(_ left: String, _ right: String, equal: Bool) throws {
    #expect(try Self.json(left).isEquivalent(to: Self.json(right)) == equal)
    #expect(try Self.json(right).isEquivalent(to: Self.json(left)) == equal)
  }
}
