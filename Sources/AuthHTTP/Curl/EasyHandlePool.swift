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

  private let curl: LibCurl
  private let kept = Mutex<[TLSSettings: [Kept]]>([:])

  init(curl: LibCurl) { self.curl = curl }

  /// A reset handle made for `tls` before, or a new one; nil when libcurl cannot make one.
  func take(for tls: TLSSettings) -> OpaquePointer? {
    kept.withLock { $0[tls]?.popLast()?.easy } ?? curl.easyInit()
  }

  /// Takes back a handle that is in no multi handle any more: reset, and kept unless enough are.
  func give(_ easy: OpaquePointer, for tls: TLSSettings) {
    curl.easyReset(easy)
    let keptIt = kept.withLock { kept in
      guard kept[tls, default: []].count < Self.capacity else { return false }
      kept[tls, default: []].append(Kept(easy: easy))
      return true
    }
    if !keptIt { curl.easyCleanup(easy) }
  }
}
