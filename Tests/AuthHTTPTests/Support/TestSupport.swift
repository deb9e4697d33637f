import AuthHTTP
import AuthSupport
import Foundation
import Synchronization

/// Log lines kept in memory, to check what the client writes and what it never writes.
final class LogLines: Sendable {
  private let lines = Mutex<[String]>([])

  var logger: Logger { Logger(level: .trace, sink: { line in self.lines.withLock { $0.append(line) } }) }
  var all: [String] { lines.withLock { $0 } }
}

extension HTTPPolicy {
  /// Small bounds so that the slow cases finish in about a second.
  static func quick(connect: Duration = .seconds(2), total: Duration = .seconds(5)) -> HTTPPolicy {
    var policy = HTTPPolicy()
    policy.connectTimeout = connect
    policy.totalTimeout = total
    policy.backoffBase = .milliseconds(20)
    policy.backoffCap = .milliseconds(100)
    return policy
  }
}

extension HTTPResponse {
  var text: String { String(decoding: body, as: UTF8.self) }
}

/// Runs `body` and returns how long it took.
func measure<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
  let start = ContinuousClock.now
  let result = try await body()
  return (result, ContinuousClock.now - start)
}

/// The `HTTPError` `body` throws, or nil when it returns.
func httpError<T>(_ body: () async throws(HTTPError) -> T) async -> HTTPError? {
  do {
    _ = try await body()
    return nil
  } catch {
    return error
  }
}

/// The process's peak resident set so far, in bytes (`getrusage` reports KiB on Linux).
func peakResidentBytes() -> Int {
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  return usage.ru_maxrss * 1024
}
