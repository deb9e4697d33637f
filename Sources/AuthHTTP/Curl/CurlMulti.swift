internal import CCurl

/// libcurl's multi handle driven through its socket interface: libcurl says which sockets to watch and when its
/// next timer is due (the two callbacks), `CurlEngine`'s thread waits for those in epoll, and whoever holds the
/// engine's lock tells libcurl what happened (`act`).
///
/// Used only by the thread that holds `CurlEngine`'s lock, which libcurl requires of a multi handle (one thread
/// at a time); the callbacks run inside the calls made under it.
final class CurlMulti {
  let curl: LibCurl
  private let handle: OpaquePointer
  private let epoll: Int32
  private let timer: Int32
  /// The transfers in libcurl's hands, a handful at most: a list searched in order rather than a dictionary, whose
  /// hashing ran on every request and every answer.
  private var active: [CurlTransfer] = []
  /// What libcurl last asked of its timer and is not applied yet: milliseconds from now, or negative for none.
  private var requestedTimeout: Int?

  init(curl: LibCurl, handle: OpaquePointer, epoll: Int32, timer: Int32) {
    self.curl = curl
    self.handle = handle
    self.epoll = epoll
    self.timer = timer
    let context = Unmanaged.passUnretained(self).toOpaque()
    let socketFunction = unsafeBitCast(Self.onSocket, to: UnsafeRawPointer.self)
    let timerFunction = unsafeBitCast(Self.onTimer, to: UnsafeRawPointer.self)
    _ = auth_curl_multi_setopt_pointer(curl.multiSetopt, handle, CURLMOPT_SOCKETFUNCTION, socketFunction)
    _ = auth_curl_multi_setopt_pointer(curl.multiSetopt, handle, CURLMOPT_SOCKETDATA, context)
    _ = auth_curl_multi_setopt_pointer(curl.multiSetopt, handle, CURLMOPT_TIMERFUNCTION, timerFunction)
    _ = auth_curl_multi_setopt_pointer(curl.multiSetopt, handle, CURLMOPT_TIMERDATA, context)
    // HTTP/2 streams share one connection per origin where the server offers it (libcurl's default, explicit).
    _ = auth_curl_multi_setopt_long(curl.multiSetopt, handle, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
  }

  /// libcurl's socket callback: easy handle, socket, CURL_POLL_*, its data, the socket's data.
  private typealias SocketCallback =
    @convention(c) (OpaquePointer?, curl_socket_t, Int32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
  /// libcurl's timer callback: multi handle, milliseconds from now (-1: no timer), its data.
  private typealias TimerCallback = @convention(c) (OpaquePointer?, Int, UnsafeMutableRawPointer?) -> Int32

  private static let onSocket: SocketCallback = { _, socket, what, context, _ in
    let multi = Unmanaged<CurlMulti>.fromOpaque(context!).takeUnretainedValue()
    // Removing a socket libcurl closed already fails harmlessly: epoll forgot it with the close.
    _ = auth_epoll_watch(multi.epoll, socket, what)
    return 0
  }

  private static let onTimer: TimerCallback = { _, milliseconds, context in
    // Applied after the call that asked (`act`): libcurl must not be called from its own callback.
    Unmanaged<CurlMulti>.fromOpaque(context!).takeUnretainedValue().requestedTimeout = milliseconds
    return 0
  }

  /// Hands `transfer` to libcurl; false when libcurl refuses it.
  func add(_ transfer: CurlTransfer) -> Bool {
    guard curl.multiAdd(handle, transfer.easy) == CURLM_OK else { return false }
    active.append(transfer)
    return true
  }

  /// Takes `transfer` away from libcurl if it is still there (its connection is closed, not reused).
  func remove(_ transfer: CurlTransfer) {
    guard takeActive(transfer.easy) != nil else { return }
    _ = curl.multiRemove(handle, transfer.easy)
    applyTimer()
  }

  /// Tells libcurl that `socket` is ready (`CURL_CSELECT_*` bits), or with `CURL_SOCKET_TIMEOUT` that its timer is
  /// due. A transfer added since the last call starts here: on a kept-alive connection the request is sent
  /// before this returns.
  func act(on socket: curl_socket_t, bits: Int32) {
    var running: Int32 = 0
    _ = curl.multiSocketAction(handle, socket, bits, &running)
    applyTimer()
  }

  /// A timer due at once runs now, on this thread; a later one is left to the engine's timer descriptor.
  private func applyTimer() {
    var rounds = 0
    while requestedTimeout == 0, rounds < 8 {
      requestedTimeout = nil
      var running: Int32 = 0
      _ = curl.multiSocketAction(handle, CURL_SOCKET_TIMEOUT, 0, &running)
      rounds += 1
    }
    guard let milliseconds = requestedTimeout else { return }
    requestedTimeout = nil
    _ = auth_timer_arm(timer, milliseconds)
  }

  /// The transfers libcurl finished since the last call, with their results, taken away from libcurl.
  func finished() -> [(CurlTransfer, CURLcode)] {
    var done: [(CurlTransfer, CURLcode)] = []
    while true {
      let before = done.count
      var left: Int32 = 0
      while let message = curl.multiInfoRead(handle, &left) {
        guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
          let transfer = takeActive(easy)
        else { continue }
        let result = message.pointee.data.result
        _ = curl.multiRemove(handle, easy)
        done.append((transfer, result))
      }
      guard done.count > before else { return done }
      // Removing a handle may move libcurl's timer, and a timer due at once may finish another transfer.
      applyTimer()
    }
  }

  /// Removes and returns the active transfer on `easy`, if any.
  private func takeActive(_ easy: OpaquePointer) -> CurlTransfer? {
    guard let index = active.firstIndex(where: { $0.easy == easy }) else { return nil }
    return active.remove(at: index)
  }
}
