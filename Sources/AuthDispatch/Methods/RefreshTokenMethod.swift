import AuthJSON
import AuthProtocol
import AuthSession

/// `refreshToken`: refreshes inside the refresh margin, or always with `force: true`. One
/// network refresh however many callers, in this process or in others sharing the store.
package struct RefreshTokenMethod: AsyncMethod {
  package static let name = "refreshToken"
  package let ordering = SessionOrdering.changesSession

  private let sessions: SessionService

  package init(sessions: SessionService) { self.sessions = sessions }

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(["force"])
    let snapshot = try await sessions.refreshToken(profile: context.profile, force: try params.bool("force") ?? false)
    return .object(["session": .object(snapshot.session)])
  }
}
