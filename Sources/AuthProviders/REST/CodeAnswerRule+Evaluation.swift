import AuthConfig
import AuthJSON

extension CodeAnswerRule {
  /// Whether every condition holds in `answer`. A field the answer lacks holds no condition: an answer that says
  /// nothing about a step-up does not demand one.
  func holds(in answer: JSONValue?) -> Bool {
    guard let answer else { return false }
    return conditions.allSatisfy { condition in
      answer.value(at: condition.path).map { Self.equal($0, condition.expected) } ?? false
    }
  }

  /// JSON equality as a reader means it: numbers by value (`1` and `1.0` are one number), never across types
  /// (`"1"` is not `1`); anything else as written.
  private static func equal(_ found: JSONValue, _ expected: JSONValue) -> Bool {
    if case .number(let a) = found, case .number(let b) = expected {
      if let x = a.int64Value, let y = b.int64Value { return x == y }
      return a.doubleValue != nil && a.doubleValue == b.doubleValue
    }
    return found == expected
  }
}
