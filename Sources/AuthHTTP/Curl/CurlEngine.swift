internal import CCurl
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// libcurl's multi interface on a thread of its own: every transfer of the process runs here, so connections
/// (and HTTP/2 streams) are reused per origin across requests and profiles.
///
/// The thread blocks in `curl_multi_poll`, which waits on exactly the sockets and timers libcurl asks for: a
/// request stalled at the server costs no CPU while it waits. Other threads never touch the multi handle; they
/// hand transfers in (and cancellations) through `inbox` and wake the loop with `curl_multi_wakeup`, the one
/// multi call libcurl allows from any thread.
final class CurlEngine: Sendable {
  private struct Inbox {
    var added: [CurlTransfer] = []
    var cancelled: [CurlTransfer] = []
  }

  /// Started by the first remote request of the process; every client shares it.
  static let shared: Result<CurlEngine, HTTPError> = LibCurl.shared.flatMap(start)

  let curl: LibCurl
  /// The loop thread's kernel id, once it runs: tests read its CPU time in `/proc/self/task/<id>/stat`.
  let threadID = Atomic<Int32>(0)
  private let multi: MultiHandle
  private let inbox = Mutex(Inbox())

  /// The multi handle, used by the loop's thread only (and `curl_multi_wakeup`, which any thread may call).
  private struct MultiHandle: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  private init(curl: LibCurl, multi: OpaquePointer) {
    self.curl = curl
    self.multi = MultiHandle(pointer: multi)
  }

  private static func start(_ curl: LibCurl) -> Result<CurlEngine, HTTPError> {
    guard let multi = curl.multiInit() else {
      return .failure(HTTPError(.transportUnavailable, "curl_multi_init failed"))
    }
    // HTTP/2 streams share one connection per origin where the server offers it (libcurl's default, made explicit).
    _ = auth_curl_multi_setopt_long(curl.multiSetopt, multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
    let engine = CurlEngine(curl: curl, multi: multi)
    guard DetachedThread.start({ engine.run() }) else {
      return .failure(HTTPError(.transportUnavailable, "could not start the HTTP thread"))
    }
    return .success(engine)
  }

  /// Starts `transfer`; its outcome arrives through the transfer itself.
  func submit(_ transfer: CurlTransfer) {
    inbox.withLock { $0.added.append(transfer) }
    _ = curl.multiWakeup(multi.pointer)
  }

  /// Stops `transfer` if it is still running: its easy handle leaves the multi handle at the loop's next turn,
  /// which the wake-up makes immediate, and the connection it used is closed rather than reused.
  func cancel(_ transfer: CurlTransfer) {
    inbox.withLock { $0.cancelled.append(transfer) }
    _ = curl.multiWakeup(multi.pointer)
  }

  private func run() {
    threadID.store(auth_thread_id(), ordering: .releasing)
    // Only this thread reads or writes `active`.
    var active: [OpaquePointer: CurlTransfer] = [:]
    var running: Int32 = 0
    var ready: Int32 = 0
    while true {
      let (added, cancelled) = inbox.withLock { inbox in
        defer { inbox = Inbox() }
        return (inbox.added, inbox.cancelled)
      }
      for transfer in added where !transfer.isFinished {
        if curl.multiAdd(multi.pointer, transfer.easy) == CURLM_OK {
          active[transfer.easy] = transfer
        } else {
          transfer.complete(CURLE_FAILED_INIT)
        }
      }
      for transfer in cancelled where active.removeValue(forKey: transfer.easy) != nil {
        _ = curl.multiRemove(multi.pointer, transfer.easy)
      }
      _ = curl.multiPerform(multi.pointer, &running)
      var left: Int32 = 0
      while let message = curl.multiInfoRead(multi.pointer, &left) {
        guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
          let transfer = active.removeValue(forKey: easy)
        else { continue }
        let result = message.pointee.data.result
        _ = curl.multiRemove(multi.pointer, easy)
        transfer.complete(result)
      }
      // libcurl shortens the wait to its own next timer; the wake-up ends it for new work.
      _ = curl.multiPoll(multi.pointer, nil, 0, 60_000, &ready)
    }
  }
}
