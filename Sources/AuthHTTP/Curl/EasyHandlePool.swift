import Synchronization

/// Finished easy handles, reset and kept for the next transfers.
///
/// `curl_easy_init` allocates and clears a handle of several kilobytes and `curl_easy_cleanup` frees it again, for
/// every request; `curl_easy_reset` puts a finished handle back to its defaults (options, callbacks, headers) and
/// keeps its allocation. Connections are not in a handle once it has left the multi handle: they stay in the
/// multi's cache either way.
///
/// Kept apart per TLS settings: a reset handle keeps its TLS session cache, and a session resumed from it must
/// never let one profile's request skip the trust or pin decision another profile's settings made.
final class EasyHandlePool: Sendable {
  /// Handles kept per TLS settings; more are cleaned up. A login uses one at a time per profile; the rest cover
  /// concurrent requests.
  static let capacity = 8

  /// A handle that no thread uses while it is kept: only one transfer holds it at a time.
  private struct Kept: @unchecked Sendable {
    let easy: OpaquePointer
  }

  /// The handles kept for one TLS setting. A list searched in order rather than a dictionary: a process has a
  /// setting or two, and comparing two mostly-nil settings is less work than hashing one on every request.
  private struct Shelf {
    let tls: TLSSettings
    var handles: [Kept]
  }

  private let curl: LibCurl
  private let kept = Mutex<[Shelf]>([])

  init(curl: LibCurl) { self.curl = curl }

  /// A reset handle made for `tls` before, or a new one; nil when libcurl cannot make one.
  func take(for tls: TLSSettings) -> OpaquePointer? {
    let reused = kept.withLock { shelves -> OpaquePointer? in
      guard let index = shelves.firstIndex(where: { $0.tls == tls }) else { return nil }
      return shelves[index].handles.popLast()?.easy
    }
    return reused ?? curl.easyInit()
  }

  /// Takes back a handle that is in no multi handle any more: reset, and kept unless enough are.
  func give(_ easy: OpaquePointer, for tls: TLSSettings) {
    curl.easyReset(easy)
    let keptIt = kept.withLock { shelves in
      guard let index = shelves.firstIndex(where: { $0.tls == tls }) else {
        shelves.append(Shelf(tls: tls, handles: [Kept(easy: easy)]))
        return true
      }
      guard shelves[index].handles.count < Self.capacity else { return false }
      shelves[index].handles.append(Kept(easy: easy))
      return true
    }
    if !keptIt { curl.easyCleanup(easy) }
  }
}
