import AuthJSON
import AuthProtocol
import AuthSession

/// `getUser`: the profile's user and session from the store, refreshing an expiring access
/// token transparently; `refresh: true` fetches the user from the server first.
package struct GetUserMethod: AsyncMethod {
  package static let name = "getUser"
  package let ordering = SessionOrdering.readsSession

  private let sessions: SessionService

  package init(sessions: SessionService) { self.sessions = sessions }

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(["refresh"])
    let (snapshot, stale) = try await sessions.getUser(
      profile: context.profile, fetchFromServer: try params.bool("refresh") ?? false)
    return .object(["user": .object(snapshot.user), "session": .object(snapshot.session), "stale": .bool(stale)])
  }
}
