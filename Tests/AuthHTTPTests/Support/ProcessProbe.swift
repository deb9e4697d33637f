import Foundation

/// What the tests need to know about a process they did not start themselves.
enum ProcessProbe {
  /// True once `pid` has exited: gone from /proc, or a zombie waiting for a reaper that is not us.
  static func isGone(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return true }
    let state = stat[stat.index(close, offsetBy: 2)...].first
    return state == "Z" || state == "X"
  }

  /// Waits up to `limit` for `pid` to exit.
  static func waitUntilGone(_ pid: Int32, within limit: Duration = .seconds(3)) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
      if isGone(pid) { return true }
      try await Task.sleep(for: .milliseconds(10))
    }
    return isGone(pid)
  }

  /// What each open descriptor of `pid` refers to (`socket:[…]`, a path, `pipe:[…]`), by number.
  static func descriptors(of pid: Int32) -> [Int: String] {
    let directory = "/proc/\(pid)/fd"
    var result: [Int: String] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
      guard let fd = Int(name),
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)")
      else { continue }
      result[fd] = target
    }
    return result
  }
}
