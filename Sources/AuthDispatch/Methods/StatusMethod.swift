import AuthConfig
import AuthJSON
import AuthProtocol
import AuthSession
import AuthSupport

/// `status`: version, capabilities, each profile's provider and logged-in state, and how the
/// store is protected.
package struct StatusMethod: AsyncMethod {
  package static let name = "status"
  package let ordering = SessionOrdering.independent

  private let sessions: SessionService
  private let version: String
  private let methods: [String]
  private let providers: [String]

  package init(sessions: SessionService, version: String, methods: [String], providers: [String]) {
    self.sessions = sessions
    self.version = version
    self.methods = methods
    self.providers = providers
  }

  /// Shown with every `simulated` profile, so nobody ships one believing it logs anyone in.
  static let simulatedWarning = "simulated provider: made-up answers for tests and demos; never use it in production"

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly([])
    let profiles = try await sessions.status()
    let protection = try sessions.storageProtection()
    let profileList: [JSONValue] = profiles.map { status in
      var entry: JSONObject = [
        "name": .string(status.name), "provider": .string(status.provider.rawValue),
        "loginFlows": .array(status.loginFlows.flows.map { .string($0.rawValue) }),
        "codeFlows": .array(status.codeFlows.map { .string($0.rawValue) }),
      ]
      if status.provider == .simulated { entry.appendNew(key: "warning", value: .string(Self.simulatedWarning)) }
      if let pending = status.loginFlows.discoveryPending {
        entry.appendNew(key: "discoveryPending", value: .bool(pending))
      }
      entry.appendNew(key: "loggedIn", value: .bool(status.loggedIn))
      if let expiresAt = status.expiresAt { entry.appendNew(key: "expiresAt", value: .string(RFC3339.format(expiresAt))) }
      if let username = status.username { entry.appendNew(key: "username", value: .string(username)) }
      return .object(entry)
    }
    return .object([
      "version": .string(version),
      "capabilities": .object([
        "methods": .array(methods.map { .string($0) }), "framing": ["ndjson", "lsp"],
        "providers": .array(providers.map { .string($0) }),
        "locales": ["en", "zh-Hans"],
      ]),
      "storage": .object(["protection": .string(protection), "encryption": "AES-256-GCM"]),
      "profiles": .array(profileList),
    ])
  }
}
