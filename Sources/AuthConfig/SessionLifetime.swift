/// `sessionLifetimeSeconds`, shared by the providers whose server never says when a session ends (a `form`
/// provider's browser-session cookie, a `rest` token without `expiresIn` or JWT `exp`, a tokenless `rest`
/// session): how long such a session is taken to last before the sidecar checks it again with the server. A
/// re-check the server accepts extends it by as much again; it never logs anyone out on its own.
package enum SessionLifetime {
  /// At least a minute, so a session is never re-checked on every call; at most a year.
  package static let secondsRange = 60...31_536_000
  /// A day: long enough that a re-check costs nothing noticeable, short enough that a session the server ended
  /// is noticed the same day.
  package static let defaultSeconds = 86_400
  package static let key = "sessionLifetimeSeconds"
}

extension ConfigObject {
  /// The `sessionLifetimeSeconds` of a provider's settings object, or the default.
  func sessionLifetimeSeconds() throws(SettingError) -> Int {
    try integer(SessionLifetime.key, in: SessionLifetime.secondsRange) ?? SessionLifetime.defaultSeconds
  }
}
