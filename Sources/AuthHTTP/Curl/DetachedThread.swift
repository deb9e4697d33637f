#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A POSIX thread of its own, for a loop that blocks for the life of the process (libcurl's poll loop): never on
/// the cooperative pool (two threads here) or Dispatch's queues, whose idle threads may also exit at any time.
enum DetachedThread {
  private final class Body: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// - Returns: false when no thread could be created.
  static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
      }, context)
    guard status == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      return false
    }
    pthread_detach(thread)
    return true
  }
}
