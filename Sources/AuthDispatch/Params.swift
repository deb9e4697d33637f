import AuthConfig
import AuthJSON
import AuthProtocol
import AuthValidation

/// A method's params object with typed, strict accessors.
///
/// Every accessor fails loudly: a wrong type or an unknown key is an invalid-params answer
/// naming the field, never a silent default (jwt-kit's BoolClaim rule).
package struct Params: Sendable {
  package let object: JSONObject

  /// Keys every method accepts.
  static let commonKeys = ["profile", "locale"]

  /// An empty array is "no params", like absent params: Neovim's and other Lua and PHP JSON encoders
  /// write an empty table or array as `[]`, so a host sending "nothing" cannot always send `{}`.
  ///
  /// - Throws: `RPCError.invalidParams` when params are not an object (or `[]`) or repeat a key.
  package init(_ value: JSONValue?) throws(RPCError) {
    switch value {
    case nil, .array([])?: object = JSONObject()
    case .object(let object)?:
      guard !object.hasDuplicateKeys else { throw Self.repeatedKey }
      self.object = object
    default: throw Self.notAnObject
    }
  }

  /// Rejects keys the method does not know, so a typo is an error instead of being ignored. A list, searched in
  /// order: a method knows a handful of keys, and building a set for each call cost more than the search.
  package func allowOnly(_ keys: [String]) throws(RPCError) {
    for key in object.keys where !keys.contains(key) && !Self.commonKeys.contains(key) {
      throw Self.unknownKey(key)
    }
  }

  package func string(_ key: String) throws(RPCError) -> String? {
    switch object[key] {
    case nil: return nil
    case .string(let s)?: return s
    case let other?: throw Self.notAString(key, other.typeName)
    }
  }

  package func bool(_ key: String) throws(RPCError) -> Bool? {
    switch object[key] {
    case nil: return nil
    case .bool(let b)?: return b
    case let other?: throw .invalidParams("\"\(key)\" must be a boolean, not \(other.typeName)", field: key)
    }
  }

  /// One of a fixed set of strings.
  package func choice<T: RawRepresentable>(_ key: String, as type: T.Type) throws(RPCError) -> T?
  where T.RawValue == String, T: CaseIterable {
    guard let raw = try string(key) else { return nil }
    guard let value = T(rawValue: raw) else {
      let allowed = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
      throw .invalidParams("\"\(key)\" must be one of \(allowed)", field: key)
    }
    return value
  }

  /// The profile name (`ProfileName`'s rule, the config's own); "default" when absent.
  package func profile() throws(RPCError) -> String {
    guard let text = try string("profile") else { return ProfileName.default.rawValue }
    guard let name = ProfileName(text) else { throw Self.invalidProfile }
    return name.rawValue
  }

  /// The message locale from `locale`, falling back to English for tags we do not translate.
  package func locale() throws(RPCError) -> MessageLocale {
    MessageLocale(tag: try string("locale"))
  }
}

/// The errors of the accessors above, also given by the request fast path, which reads params without a tree.
extension Params {
  static let repeatedKey = RPCError.invalidParams("params repeat a member name")
  static let notAnObject = RPCError.invalidParams("params must be an object")
  static let invalidProfile = RPCError.invalidParams(
    "\"profile\" must be 1–64 of A–Z, a–z, 0–9, _ . -", field: "profile")

  static func unknownKey(_ key: String) -> RPCError {
    .invalidParams("unknown parameter \"\(String(key.prefix(40)))\"", field: String(key.prefix(40)))
  }

  static func notAString(_ key: String, _ typeName: String) -> RPCError {
    .invalidParams("\"\(key)\" must be a string, not \(typeName)", field: key)
  }
}

extension RPCError {
  package static func invalidParams(_ detail: String, field: String? = nil) -> RPCError {
    var details: JSONObject = [:]
    if let field { details["field"] = .string(field) }
    return RPCError(.invalidParams, "Invalid params: \(detail).", details: details)
  }
}
