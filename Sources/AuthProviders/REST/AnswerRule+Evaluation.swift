import AuthConfig
import AuthJSON

extension AnswerRule {
  /// Whether every condition holds in `answer`. A field the answer lacks holds no condition: an answer that says
  /// nothing about success is not a success.
  func holds(in answer: JSONValue) -> Bool {
    conditions.allSatisfy { condition in
      answer.value(at: condition.path).map { $0.isEquivalent(to: condition.expected) } ?? false
    }
  }

  /// Whether `answer` says outright that the rule fails: one of its fields is there with another value. An empty
  /// answer (`204`, `{}`) contradicts nothing; a logout or user endpoint that answers so has not said "no".
  func isContradicted(by answer: JSONValue?) -> Bool {
    guard let answer else { return false }
    return conditions.contains { condition in
      answer.value(at: condition.path).map { !$0.isEquivalent(to: condition.expected) } ?? false
    }
  }
}

extension JSONValue {
  /// JSON equality as a reader means it: numbers by value (`1`, `1.0` and `1e0` are one number), objects as
  /// sets of members whatever their order, arrays in order, and never across types (`"1"` is not `1`).
  func isEquivalent(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.number(let a), .number(let b)):
      if let x = a.int64Value, let y = b.int64Value { return x == y }
      return a.text == b.text || (a.doubleValue != nil && a.doubleValue == b.doubleValue)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
    case (.object(let a), .object(let b)):
      return a.members.count == b.members.count
        && a.members.allSatisfy { member in b[member.key].map { member.value.isEquivalent(to: $0) } ?? false }
    default: return false
    }
  }
}
