import AuthProtocol
import AuthProviders
import AuthValidation

/// The account a login-like request names (`login`, `sendCode`, `resetPassword`): exactly one of `account`,
/// `username`, `email`, `phone`, checked with the profile's login rules and normalized the same way everywhere,
/// so a code sent to `+86 138…` is found again when the user logs in as `13812345678`.
enum AccountParam {
  static let fields: [FieldName] = [.account, .username, .email, .phone]
  static let keys: [String] = fields.map(\.rawValue)

  /// The one account field sent and its text; `account` with an empty text when none was, which validation then
  /// reports as `required` next to the form's field.
  static func given(_ params: Params) throws(RPCError) -> (FieldName, String) {
    var given: [(FieldName, String)] = []
    for field in fields {
      if let text = try params.string(field.rawValue) { given.append((field, text)) }
    }
    guard given.count <= 1 else { throw RPCError.invalidParams("give only one of account, username, email, phone") }
    return given.first ?? (.account, "")
  }

  /// Whether any account field was sent at all.
  static func isPresent(_ params: Params) -> Bool { keys.contains { params.object[$0] != nil } }

  /// The normalized account from a `report` that checked `field`, with what the user `typed` (servers compare
  /// identities as their users typed them) and the host's login `context`.
  /// - Throws: `ValidationFailure` when the report has an invalid field.
  static func account(
    from report: ValidationReport, field: FieldName, typed: String, context: [String: String] = [:]
  ) throws -> LoginAccount {
    guard report.valid, let accountReport = report[field], let normalized = accountReport.value else {
      throw ValidationFailure(report: report)
    }
    let kind: LoginAccount.Kind
    switch accountReport.kind ?? Self.kind(of: field) {
    case .email: kind = .email
    case .phone: kind = .phone
    case .username: kind = .username
    }
    return LoginAccount(kind: kind, text: normalized, typed: String(trimmingWhitespace(typed)), context: context)
  }

  /// Reads and checks the account alone (a form with no password on it).
  static func read(_ params: Params, validator: Validator, locale: MessageLocale) throws -> LoginAccount {
    let (field, text) = try given(params)
    var input = ValidationInput()
    input[field] = text
    return try account(from: validator.validate(input, purpose: .login, locale: locale), field: field, typed: text)
  }

  static func kind(of field: FieldName) -> AccountKind {
    switch field {
    case .email: .email
    case .phone: .phone
    default: .username
    }
  }
}

/// A one-time code or a challenge as sent by the host. Both are secrets: a malformed one is refused without
/// echoing it, and its content is never put in a message.
enum SecretParam {
  /// Codes are short (digits, or a recovery code); challenges are the sidecar's or a server's opaque strings.
  static let maxLength = 512

  static func read(_ params: Params, _ key: String) throws(RPCError) -> String? {
    guard let text = try params.string(key) else { return nil }
    guard !text.isEmpty, text.utf8.count <= maxLength, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw RPCError.invalidParams("\"\(key)\" must be 1–\(maxLength) printable ASCII characters", field: key)
    }
    return text
  }

  static func required(_ params: Params, _ key: String) throws(RPCError) -> String {
    guard let text = try read(params, key) else { throw RPCError.invalidParams("\"\(key)\" is required", field: key) }
    return text
  }
}
