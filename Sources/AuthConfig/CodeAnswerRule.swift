import AuthJSON

/// A test on a `rest` API's JSON answer for the one-time code flows (`response.verificationRequired`, `tooSoon`,
/// `invalidCode`, `codeExpired`): every condition must hold. Servers say "a code is needed" or "too soon" in many
/// shapes — an `error` string, a numeric `code`, a flag — so a condition compares one field with any JSON value:
///
/// ```json
/// "verificationRequired": "needsCode"                                          // the field is the boolean true
/// "verificationRequired": {"path": "error", "equals": "SMS_REQUIRED"}          // the field equals this value
/// "tooSoon": [{"path": "ok", "equals": false}, {"path": "error", "equals": "TOO_SOON"}]   // all of them
/// ```
///
/// The same three forms as a login's `success` rule, so one config language describes every answer. Never empty:
/// an empty rule would hold for every answer, turning each login into a step-up or each send into "too soon".
package struct CodeAnswerRule: Sendable, Equatable, CustomStringConvertible {
  /// One field of the answer and the value it must equal.
  package struct Condition: Sendable, Equatable {
    package let path: RESTProviderConfig.FieldPath
    /// Compared as JSON values: numbers by value, never across types (`"1"` is not `1`).
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

  /// The paths only: what a server's answer means is config, not for the log.
  package var description: String { conditions.map(\.path.description).joined(separator: " and ") }
}
