internal import CCurl
import Synchronization

/// What one attempt produced.
enum AttemptOutcome: Sendable {
  case response(status: Int, head: ResponseHead, body: [UInt8])
  case failure(TransportFailure)
}

/// One attempt: a configured easy handle, what libcurl's callbacks received, and the outcome the caller awaits.
///
/// The first outcome wins, whoever reports it: completion on the engine's thread, the size cap in the write
/// callback, or the caller's cancellation. Later reports are dropped.
final class CurlTransfer: @unchecked Sendable {
  // `head` and `body` are written by libcurl's callbacks, under the engine's lock, and read by `complete` once
  // the handle has left the multi handle; the shared part is `state`, behind its own lock. The easy handle is
  // configured before the transfer is submitted and goes back to the pool when the last reference goes, after the
  // engine has removed it from the multi.
  private struct State {
    var outcome: AttemptOutcome?
    /// Unchecked: `finish` resumes it at most once, under `state`'s lock, and the checked kind cost an allocation and
    /// its own bookkeeping on every request.
    var waiter: UnsafeContinuation<AttemptOutcome, Never>?
  }

  let easy: OpaquePointer
  private let curl: LibCurl
  /// Where the easy handle goes back when the transfer is gone, and under which TLS settings it was used.
  private let handles: EasyHandlePool
  private let tls: TLSSettings
  private let maxBytes: Int
  private var requestHeaders: UnsafeMutablePointer<curl_slist>?
  private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
  private var head = ResponseHead()
  private var body: [UInt8] = []
  private let state = Mutex(State())

  init(curl: LibCurl, easy: OpaquePointer, from handles: EasyHandlePool, tls: TLSSettings, maxBytes: Int) {
    self.curl = curl
    self.easy = easy
    self.handles = handles
    self.tls = tls
    self.maxBytes = maxBytes
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    curl.set(easy, CURLOPT_ERRORBUFFER, pointer: errorBuffer)
    let context = Unmanaged.passUnretained(self).toOpaque()
    curl.set(easy, CURLOPT_WRITEFUNCTION, pointer: unsafeBitCast(Self.onBody, to: UnsafeRawPointer.self))
    curl.set(easy, CURLOPT_WRITEDATA, pointer: context)
    curl.set(easy, CURLOPT_HEADERFUNCTION, pointer: unsafeBitCast(Self.onHeader, to: UnsafeRawPointer.self))
    curl.set(easy, CURLOPT_HEADERDATA, pointer: context)
  }

  deinit {
    // Reset first: until then the handle still points at the header list and the error buffer freed below.
    handles.give(easy, for: tls)
    curl.slistFree(requestHeaders)
    errorBuffer.deallocate()
  }

  /// The request's header lines (`name: value`, or `name;` for an empty value, as libcurl wants it), then an empty
  /// `Expect:`, which stops libcurl from waiting for a `100 Continue` before a large body. The list lives as long as
  /// the transfer. Each line is written as bytes into one buffer: string interpolation ran a good deal more code.
  func setHeaders(_ headers: [HTTPHeader]) {
    var line: [UInt8] = []
    line.reserveCapacity(512)
    for header in headers {
      line.removeAll(keepingCapacity: true)
      line.append(contentsOf: header.name.utf8)
      if header.value.isEmpty {
        line.append(UInt8(ascii: ";"))
      } else {
        line.append(UInt8(ascii: ":"))
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: header.value.utf8)
      }
      line.append(0)
      line.withUnsafeBytes { bytes in
        requestHeaders = curl.slistAppend(requestHeaders, bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
      }
    }
    requestHeaders = curl.slistAppend(requestHeaders, "Expect:")
    curl.set(easy, CURLOPT_HTTPHEADER, pointer: requestHeaders)
  }

  var isFinished: Bool { state.withLock { $0.outcome != nil } }

  /// libcurl's write and header callbacks: bytes, item size, item count, the transfer.
  private typealias Callback = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int

  private static let onBody: Callback = { data, size, count, context in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
  }

  private static let onHeader: Callback = { data, size, count, context in
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    transfer.head.take(line: UnsafeRawBufferPointer(start: data, count: size * count))
    return size * count
  }

  /// Keeps body bytes. False stops the transfer: they pass the cap (checked as they arrive, so a flood is never
  /// held), or the outcome is already decided.
  private func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard !isFinished else { return false }
    guard body.count + bytes.count <= maxBytes else {
      finish(.failure(TransportFailure(HTTPError(.responseTooLarge, "body over \(maxBytes) bytes"))))
      return false
    }
    body.append(contentsOf: bytes)
    return true
  }

  /// libcurl finished the transfer with `code`, and the engine took it away from libcurl.
  func complete(_ code: CURLcode) {
    if code == CURLE_OK {
      let status = curl.info(easy, CURLINFO_RESPONSE_CODE)
      finish(.response(status: status, head: head, body: body))
    } else {
      finish(.failure(CurlFailure.failure(code, message: errorMessage(code))))
    }
    body = []
  }

  /// libcurl's own text for the failure: it names at most a host and port, never a path or header.
  private func errorMessage(_ code: CURLcode) -> String {
    let buffered = String(cString: errorBuffer)
    return String((buffered.isEmpty ? curl.describe(code) : buffered).prefix(160))
  }

  /// Records `outcome` unless one is already recorded.
  /// - Returns: true when this call decided the outcome.
  @discardableResult
  func finish(_ outcome: AttemptOutcome) -> Bool {
    let (decided, waiter) = state.withLock { state -> (Bool, UnsafeContinuation<AttemptOutcome, Never>?) in
      guard state.outcome == nil else { return (false, nil) }
      state.outcome = outcome
      defer { state.waiter = nil }
      return (true, state.waiter)
    }
    waiter?.resume(returning: outcome)
    return decided
  }

  /// Waits for the outcome; returns at once if it is already known.
  func outcome() async -> AttemptOutcome {
    await withUnsafeContinuation { continuation in
      let known = state.withLock { state -> AttemptOutcome? in
        if let outcome = state.outcome { return outcome }
        state.waiter = continuation
        return nil
      }
      if let known { continuation.resume(returning: known) }
    }
  }
}
