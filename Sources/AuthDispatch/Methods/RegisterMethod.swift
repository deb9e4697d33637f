import AuthJSON
import AuthProtocol
import AuthProviders
import AuthSession
import AuthValidation

/// `register`: creates an account with the full registration policy. Params: `username`,
/// `password`, optional `email`, `phone`, `displayName`.
package struct RegisterMethod: AsyncMethod {
  package static let name = "register"
  package let ordering = SessionOrdering.changesSession
  static let maxDisplayNameLength = 64

  private let sessions: SessionService
  private let validators: ProfileValidators

  package init(sessions: SessionService, validators: ProfileValidators) {
    self.sessions = sessions
    self.validators = validators
  }

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(["username", "email", "phone", "password", "displayName"])
    var input = ValidationInput()
    input.username = try params.string("username") ?? ""
    input.password = try params.string("password") ?? ""
    input.email = try params.string("email")
    input.phone = try params.string("phone")
    let displayName = try Self.displayName(params)
    let report = try validators.validator(for: context.profile).validate(input, purpose: .register, locale: context.locale)
    guard report.valid, let username = report[.username]?.value else { throw ValidationFailure(report: report) }
    let registration = Registration(
      username: username, email: report[.email]?.value, phone: report[.phone]?.value, displayName: displayName)
    let user = try await sessions.register(profile: context.profile, registration, password: input.password ?? "")
    return .object(["user": .object(user.json)])
  }

  /// Trimmed, 1–64 characters, no control characters; free text otherwise (any script).
  private static func displayName(_ params: Params) throws(RPCError) -> String? {
    guard let raw = try params.string("displayName") else { return nil }
    let trimmed = raw.trimmingCharacters(in: \.properties.isWhitespace)
    guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= maxDisplayNameLength,
      !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      throw .invalidParams("\"displayName\" must be 1–\(maxDisplayNameLength) characters without control characters",
        field: "displayName")
    }
    return trimmed
  }
}

extension String {
  fileprivate func trimmingCharacters(in isTrimmed: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
      let last = scalars.lastIndex(where: { !isTrimmed($0) })
    else { return "" }
    return String(scalars[first...last])
  }
}
