/// Settings of the `simulated` provider: a made-up server for hosts' tests and demos, whose answers are chosen by
/// the account a test logs in with (see docs/simulated-provider.md). It never talks to a network.
package struct SimulatedProviderConfig: Sendable, Equatable {
  /// The same bound as the remote providers' timeouts, so a host can set the one it ships with.
  package static let timeoutSecondsRange = 1...30
  /// Short by default: without test mode a `slow@…` login really waits this long before answering `timeout`.
  package static let defaultTimeoutSeconds = 10

  /// Every setting at its default.
  package static let defaults = SimulatedProviderConfig()

  /// How long a `slow@…` login waits (on the test clock in test mode) before answering `timeout`.
  package let timeoutSeconds: Int

  /// - Important: `timeoutSeconds` must lie in its range; the loader checks it for files.
  package init(timeoutSeconds: Int = defaultTimeoutSeconds) {
    precondition(Self.timeoutSecondsRange.contains(timeoutSeconds), "timeoutSeconds out of range")
    self.timeoutSeconds = timeoutSeconds
  }
}
