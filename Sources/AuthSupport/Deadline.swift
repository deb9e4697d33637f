/// Runs `work` against a deadline: whichever finishes first, `work` or `limit`, wins, and the other is
/// cancelled (and awaited, so nothing of `work` outlives the call).
///
/// The one deadline race of the sidecar: the remote providers bound each request by the profile's timeout on
/// top of the HTTP client's own (one client serves every profile), and a logout bounds its revocation.
/// - Returns: what `work` returned, or nil when `limit` passed first.
/// - Throws: what `work` threw, or `CancellationError` when the calling task is cancelled.
package func withDeadline<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async throws -> T)
  async throws -> T?
{
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask { try await work() }
    group.addTask {
      try await Task.sleep(for: limit)
      return nil
    }
    defer { group.cancelAll() }
    return try await group.next() ?? nil
  }
}
