/// What the `rest` provider keeps sealed with a session besides its tokens: whether the session's `expiresAt` is
/// a real expiry or only the time of its next re-check.
///
/// A token that came with `expiresIn` or a JWT `exp` is dead at the server once that time passes; without a
/// refresh endpoint the session then ends, and the server is not asked again. A token the server gave no end
/// (a database token that lives until logout) and a tokenless session have no such time: `expiresAt` is then
/// `sessionLifetimeSeconds` away, and reaching it re-checks the session with the server instead of ending it.
/// Only the provider that made the session can tell the two apart, so it says so here.
enum RESTSessionState {
  /// The marker of a session of unknown expiry. JSON, so a later version can add to it.
  static let recheck = Array(#"{"expiry":"recheck"}"#.utf8)

  static func isRecheck(_ providerState: [UInt8]?) -> Bool { providerState == recheck }
}
