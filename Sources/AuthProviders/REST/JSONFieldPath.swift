import AuthConfig
import AuthJSON

extension JSONValue {
  /// The value at `path` (`data.token`): each component names an object member, or indexes an array when it is
  /// a decimal number. Nil when any step is missing.
  func value(at path: RESTProviderConfig.FieldPath) -> JSONValue? {
    var current = self
    for component in path.components {
      switch current {
      case .object(let object):
        guard let next = object[component] else { return nil }
        current = next
      case .array(let elements):
        guard let index = Int(component), elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }

  /// A string, or a number's text (ids are often numbers); nil for anything else or an empty string.
  var scalarText: String? {
    switch self {
    case .string(let text): return text.isEmpty ? nil : text
    case .number(let number): return number.description
    default: return nil
    }
  }

  /// Whole seconds from a number (`3600`, `3600.0`) or a numeric string (`"3600"`); nil otherwise.
  var seconds: Int64? {
    switch self {
    case .number(let number):
      if let whole = number.int64Value { return whole }
      guard let value = number.doubleValue, value >= 0, value < 1e15 else { return nil }
      return Int64(value)
    case .string(let text):
      return Int64(text)
    default:
      return nil
    }
  }
}
