import Synchronization

/// Request URLs that passed both checks before a transfer — the transport rules on our own parse
/// (`RequestTarget`) and the same origin on libcurl's (`LibCurl.origin`) — remembered by their text.
///
/// A profile sends to the same few configured endpoints again and again (a `rest` login: its token and user URLs);
/// both parses of such a URL always give the same answer, and together they were about a fifth of the client's own
/// work per request. Only URLs without a query or fragment are kept, since those parts may carry codes and tokens
/// that should not outlive their request in memory; and only a few, since nothing else should grow with use.
final class CheckedURLs: Sendable {
  /// The URLs of a handful of profiles; past this, URLs are checked each time as before.
  static let capacity = 64
  static let shared = CheckedURLs()

  private let targets = Mutex<[String: RequestTarget]>([:])

  /// The target `url` parsed to when it was last checked, or nil when it is not remembered.
  func target(for url: String) -> RequestTarget? {
    targets.withLock { $0[url] }
  }

  /// Whether `target` is remembered as checked by both parses.
  func isChecked(_ target: RequestTarget) -> Bool {
    targets.withLock { $0[target.url] == target }
  }

  /// Remembers `target`, which libcurl read with the same origin, unless it carries a query or fragment or enough
  /// are remembered already.
  func remember(_ target: RequestTarget) {
    guard !target.hasQuery, !target.hasFragment else { return }
    targets.withLock { targets in
      guard targets.count < Self.capacity else { return }
      targets[target.url] = target
    }
  }
}
