/// The `rest` provider's body templates: flat objects of strings with `{placeholder}`s and `{context.name}`s,
/// every name checked against what the endpoint can fill, so a typo fails at start-up rather than reaching the
/// server as literal text.
extension RESTProviderDecoder {
  static func require(
    _ placeholder: RESTProviderConfig.Placeholder, in body: [RESTProviderConfig.BodyField], _ endpoint: ConfigObject
  ) throws(SettingError) {
    guard body.contains(where: { $0.template.placeholders.contains(placeholder) }) else {
      throw SettingError(endpoint.path.appending("body"), "must use {\(placeholder.rawValue)} in one of its values")
    }
  }

  /// `{phoneE164}` and `{emailNormalized}` in one login body could never both have a value.
  static func requireOneAccountKind(_ body: [RESTProviderConfig.BodyField], _ endpoint: ConfigObject)
    throws(SettingError)
  {
    let kinds = Set(body.flatMap(\.template.placeholders).compactMap(\.requiredAccountKind))
    guard kinds.count <= 1 else {
      throw SettingError(
        endpoint.path.appending("body"), "uses values of a phone and of an email: no account has both")
    }
  }

  /// A flat object of string templates.
  static func body(_ endpoint: ConfigObject, role: Role, context: [String]) throws(SettingError)
    -> [RESTProviderConfig.BodyField]
  {
    guard let body = try endpoint.object("body", allowedKeys: nil) else { return [] }
    var fields: [RESTProviderConfig.BodyField] = []
    for member in body.members {
      let path = body.path.appending(member.key)
      guard !member.key.isEmpty else { throw SettingError(path, "a body member needs a name") }
      guard case .string(let text) = member.value else {
        throw SettingError(path, "must be a string, not \(ConfigObject.describe(member.value))")
      }
      let parsed = try template(text, allowed: role.placeholders, context: context, at: path)
      fields.append(RESTProviderConfig.BodyField(member.key, parsed))
    }
    return fields
  }

  /// Splits `text` at `{name}` placeholders and `{context.name}` values. A `{` that does not start `{name}` (a
  /// letter, then letters or digits) is literal text; a `{name}` that is not an allowed placeholder, or a
  /// `{context.name}` the profile does not declare, is an error (most likely a typo that would otherwise be sent
  /// to the server as it stands).
  static func template(
    _ text: String, allowed: [RESTProviderConfig.Placeholder], context: [String] = [], at path: JSONPath
  ) throws(SettingError) -> RESTProviderConfig.Template {
    var segments: [RESTProviderConfig.Template.Segment] = []
    var literal = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "{") {
      literal += rest[..<open]
      let afterOpen = rest.index(after: open)
      // Letters, then letters or digits (`{phoneE164}`).
      let name = rest[afterOpen...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber) }
      guard name.first?.isLetter ?? true else {
        literal += "{"
        rest = rest[afterOpen...]
        continue
      }
      if let (contextName, close) = contextReference(rest, name: name) {
        guard context.contains(contextName) else {
          throw SettingError(path, "uses {context.\(contextName)}, which is not in the profile's rest.context list")
        }
        if !literal.isEmpty { segments.append(.text(literal)) }
        literal = ""
        segments.append(.context(contextName))
        rest = rest[rest.index(after: close)...]
        continue
      }
      let close = name.endIndex
      guard !name.isEmpty, close < rest.endIndex, rest[close] == "}" else {
        literal += "{"
        rest = rest[afterOpen...]
        continue
      }
      guard let placeholder = RESTProviderConfig.Placeholder(rawValue: String(name)), allowed.contains(placeholder)
      else {
        let names = allowed.map { "{\($0.rawValue)}" }.joined(separator: ", ")
        throw SettingError(
          path,
          allowed.isEmpty ? "cannot use placeholders here" : "uses an unknown placeholder; this endpoint has \(names)")
      }
      if !literal.isEmpty { segments.append(.text(literal)) }
      literal = ""
      segments.append(.placeholder(placeholder))
      rest = rest[rest.index(after: close)...]
    }
    literal += rest
    if !literal.isEmpty { segments.append(.text(literal)) }
    return RESTProviderConfig.Template(segments)
  }

  /// `{context.name}` at `name` (the letters after `{`): the name and the index of its `}`.
  private static func contextReference(_ rest: Substring, name: Substring) -> (String, Substring.Index)? {
    guard name == "context", name.endIndex < rest.endIndex, rest[name.endIndex] == "." else { return nil }
    let nameStart = rest.index(after: name.endIndex)
    let contextName = rest[nameStart...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    guard !contextName.isEmpty, contextName.endIndex < rest.endIndex, rest[contextName.endIndex] == "}" else {
      return nil
    }
    return (String(contextName), contextName.endIndex)
  }
}
