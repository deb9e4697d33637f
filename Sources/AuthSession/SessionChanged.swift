import AuthJSON

/// What changed about a profile's session.
package enum SessionChange: String, Sendable {
  case loggedIn, refreshed, loggedOut, expired
}

/// The `sessionChanged` notification `{profile, state}`, which `SessionService` sends whenever a profile's
/// session begins, is refreshed, is logged out or expires, so a host never has to poll for it. The executable
/// only hands it to the transport.
package struct SessionChanged: Sendable, Equatable {
  package static let method = "sessionChanged"

  package let profile: String
  package let state: SessionChange

  package init(profile: String, state: SessionChange) {
    self.profile = profile
    self.state = state
  }

  package var params: JSONObject { ["profile": .string(profile), "state": .string(state.rawValue)] }
}
