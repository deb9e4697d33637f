import AuthJSON

/// A test on a `rest` API's JSON answer, from `response.success` or `response.unknownAccount`: every condition
/// must hold. Login APIs say "yes" in many shapes — a boolean `success`, a `"1"` flag, a `code` of `0` — so a
/// condition compares one field with any JSON value the config names:
///
/// ```json
/// "success": "success"                                                   // the field is the boolean true
/// "success": {"path": "loginOKOrNotFlag", "equals": "1"}                 // the field equals this value
/// "success": [{"path": "code", "equals": 0}, {"path": "data.ok", "equals": true}]   // all of them
/// ```
///
/// A rule is never empty: an empty one would hold for every answer, and a `success` rule that can never be
/// false would turn a refused password into a login.
package struct AnswerRule: Sendable, Equatable, CustomStringConvertible {
  /// One field of the answer and the value it must equal.
  package struct Condition: Sendable, Equatable {
    package let path: RESTProviderConfig.FieldPath
    /// Compared as JSON values: numbers by value (`1` equals `1.0`), objects whatever their member order; a
    /// string never equals a number (`"1"` is not `1`), as the server's own type says what it meant.
    package let expected: JSONValue

    package init(_ path: RESTProviderConfig.FieldPath, equals expected: JSONValue = .bool(true)) {
      self.path = path
      self.expected = expected
    }
  }

  package let conditions: [Condition]

  package init(_ conditions: [Condition]) {
    precondition(!conditions.isEmpty, "an answer rule holds at least one condition")
    self.conditions = conditions
  }

  /// The paths only: an expected value is config text, but it says what a server's answer means.
  package var description: String { conditions.map(\.path.description).joined(separator: " and ") }
}
