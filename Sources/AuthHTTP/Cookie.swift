/// One stored cookie (RFC 6265 §5.3).
struct Cookie: Sendable, Equatable {
  let name: String
  let value: String
  /// Lower-case host or domain; with `hostOnly`, the exact host that set it.
  let domain: String
  /// No `Domain` attribute: sent back to that exact host only, never to its subdomains.
  let hostOnly: Bool
  let path: String
  /// Sent over https only.
  let secure: Bool
  /// Kept for fidelity; this client has no scripts to hide it from.
  let httpOnly: Bool
  /// Unix seconds; nil for a session cookie, which lives as long as the jar.
  let expires: Int64?
  /// Unix seconds of first storage: orders cookies of equal path length in the `Cookie` header.
  let created: Int64

  func isExpired(at now: Int64) -> Bool { expires.map { $0 <= now } ?? false }

  /// Same cookie slot: a new cookie with these replaces the old one (§5.3 step 11).
  func sameSlot(as other: Cookie) -> Bool { name == other.name && domain == other.domain && path == other.path }
}
