import AuthJSON
import AuthProtocol

/// `login`'s `context` param: values the host supplies for the login API (a device id, an app version), which a
/// `rest` profile sends as `{context.name}`. Strings only, under names the profile declares; anything else is
/// refused before a byte is sent, so a value the config never named cannot reach the server.
enum LoginContext {
  static let key = "context"

  /// - Parameter declared: the profile's `rest.context` names.
  /// - Throws: `RPCError.invalidParams` naming `context` or `context.<name>`.
  static func read(_ params: Params, declared: [String]) throws(RPCError) -> [String: String] {
    guard let value = params.object[key] else { return [:] }
    guard case .object(let object) = value, !object.hasDuplicateKeys else {
      throw .invalidParams("\"context\" must be an object of strings without repeated names", field: key)
    }
    var context: [String: String] = [:]
    for member in object.members {
      let name = String(member.key.prefix(64))
      guard declared.contains(member.key) else {
        let names = declared.isEmpty ? "none" : declared.joined(separator: ", ")
        throw .invalidParams(
          "context \"\(name)\" is not declared by this profile (its rest.context names: \(names))",
          field: key + "." + name)
      }
      guard case .string(let text) = member.value else {
        throw .invalidParams(
          "context \"\(name)\" must be a string, not \(member.value.typeName)", field: key + "." + name)
      }
      context[member.key] = text
    }
    return context
  }
}
