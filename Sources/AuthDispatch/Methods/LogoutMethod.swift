import AuthJSON
import AuthProtocol
import AuthSession

/// `logout`: clears the local session, then revokes at the server (best effort, bounded), so a
/// crash in between leaves the profile logged out. Idempotent.
package struct LogoutMethod: AsyncMethod {
  package static let name = "logout"
  package let ordering = SessionOrdering.changesSession

  private let sessions: SessionService

  package init(sessions: SessionService) { self.sessions = sessions }

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly([])
    let revoked = try await sessions.logout(profile: context.profile)
    return .object(["loggedOut": true, "revoked": .bool(revoked)])
  }
}
