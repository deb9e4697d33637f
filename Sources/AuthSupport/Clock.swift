#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import Synchronization

/// Wall-clock time in whole seconds since the Unix epoch: token expiry, throttling windows,
/// remembered accounts. A protocol so that test mode can fix and advance time.
package protocol Clock: Sendable {
  func now() -> Int64
  /// Milliseconds since the Unix epoch, for intervals where a whole second is too coarse (a "1 s" block begun at
  /// 12.999 s would end at 13 s). Defaults to `now()` in milliseconds, which is what a fixed test clock means.
  func nowMilliseconds() -> Int64
}

extension Clock {
  package func nowMilliseconds() -> Int64 { now() * 1000 }
}

package struct SystemClock: Clock {
  package init() {}

  package func now() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec)
  }

  package func nowMilliseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
  }
}

/// A clock that only moves when told to: golden transcripts see the same times every run.
package final class ManualClock: Clock {
  private let current: Mutex<Int64>

  package init(_ start: Int64) { current = Mutex(start) }

  package func now() -> Int64 { current.withLock { $0 } }

  package func advance(by seconds: Int64) { current.withLock { $0 += seconds } }
}
