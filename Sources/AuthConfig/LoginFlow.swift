/// How a user proves who they are in a `login`: the value of its `flow` param, of a profile's `loginFlows` in
/// `status`, and of an `oauth2` profile's `flows` setting. One type from the config file to the provider, so a
/// flow no part knows cannot be configured, requested or dropped on the way.
package enum LoginFlow: String, Sendable, CaseIterable, CustomStringConvertible {
  /// The host sends the account and password it collected.
  case password
  /// RFC 8628 device authorization: the user types a code on another device.
  case device
  /// RFC 6749 authorization code with PKCE and a loopback redirect (RFC 8252): the user logs in in a browser.
  case authorizationCode

  /// The flows where the user acts outside the host (a browser, another device), in the order `status` lists them.
  package static let interactive: [LoginFlow] = [.device, .authorizationCode]

  package var isInteractive: Bool { self != .password }

  package var description: String { rawValue }
}
