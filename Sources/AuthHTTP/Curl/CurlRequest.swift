internal import CCurl

/// One exchange as libcurl options on a new easy handle.
struct CurlRequest {
  let exchange: Exchange
  let policy: HTTPPolicy
  let tls: TLSSettings
  let proxy: ProxySettings

  /// - Parameter timeout: what is left of the request's total time, for this attempt.
  /// - Throws: `HTTPError.transportUnavailable` when libcurl cannot make a handle.
  func transfer(curl: LibCurl, handles: EasyHandlePool, timeout: Duration) throws(HTTPError) -> CurlTransfer {
    if !exchange.targetChecked, !CheckedURLs.shared.isChecked(exchange.target) {
      guard curl.origin(of: exchange.target.url) == exchange.target.origin else {
        throw HTTPError(.invalidURL, "libcurl reads another origin than \(exchange.target.origin.host) from the URL")
      }
      CheckedURLs.shared.remember(exchange.target)
    }
    guard let easy = handles.take(for: tls) else {
      throw HTTPError(.transportUnavailable, "curl_easy_init failed")
    }
    let transfer = CurlTransfer(curl: curl, easy: easy, from: handles, tls: tls, maxBytes: policy.maxResponseBytes)
    curl.set(easy, CURLOPT_URL, exchange.target.url)
    // Defence in depth behind `RequestTarget`: nothing but http(s), never a redirect, no signals (threads).
    curl.set(easy, CURLOPT_PROTOCOLS_STR, "http,https")
    curl.set(easy, CURLOPT_FOLLOWLOCATION, 0)
    curl.set(easy, CURLOPT_NOSIGNAL, 1)
    curl.set(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
    setTimeouts(curl, easy, total: timeout)
    // A declared length over the cap fails at the headers; `CurlTransfer` cuts a streamed one as it arrives.
    curl.set(easy, CURLOPT_MAXFILESIZE_LARGE, large: Int64(policy.maxResponseBytes))
    setTrust(curl, easy)
    setProxy(curl, easy)
    setMethodAndBody(curl, easy)
    transfer.setHeaders(exchange.headers)
    return transfer
  }

  private func setTimeouts(_ curl: LibCurl, _ easy: OpaquePointer, total: Duration) {
    curl.set(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(max(1, policy.connectTimeout.wholeMilliseconds)))
    curl.set(easy, CURLOPT_TIMEOUT_MS, Int(max(1, total.wholeMilliseconds)))
    // Idle bound once connected: under 1 byte/s for this many whole seconds (libcurl's unit) ends the transfer.
    let idleSeconds = (policy.connectTimeout.wholeMilliseconds + 999) / 1000
    curl.set(easy, CURLOPT_LOW_SPEED_LIMIT, 1)
    curl.set(easy, CURLOPT_LOW_SPEED_TIME, Int(max(1, idleSeconds)))
  }

  private func setTrust(_ curl: LibCurl, _ easy: OpaquePointer) {
    curl.set(easy, CURLOPT_SSL_VERIFYPEER, 1)
    curl.set(easy, CURLOPT_SSL_VERIFYHOST, 2)
    if let caFile = tls.caFile {
      curl.set(easy, CURLOPT_CAINFO, caFile)
      // No CA directory either: the bundle replaces the system store rather than adding to it.
      curl.set(easy, CURLOPT_CAPATH, pointer: nil)
    }
    if let pin = tls.pinnedPublicKey { curl.set(easy, CURLOPT_PINNEDPUBLICKEY, pin) }
  }

  private func setProxy(_ curl: LibCurl, _ easy: OpaquePointer) {
    // Both set explicitly, even when empty: libcurl reads http_proxy, https_proxy and no_proxy only for
    // options left unset.
    curl.set(easy, CURLOPT_NOPROXY, "")
    curl.set(easy, CURLOPT_PRE_PROXY, "")
    guard let url = proxy.proxy(for: exchange.target.origin) else {
      curl.set(easy, CURLOPT_PROXY, "")
      return
    }
    curl.set(easy, CURLOPT_PROXY, url)
    curl.set(easy, CURLOPT_HTTPPROXYTUNNEL, 1)
    curl.set(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
  }

  private func setMethodAndBody(_ curl: LibCurl, _ easy: OpaquePointer) {
    let method = exchange.method
    switch method {
    case .get: curl.set(easy, CURLOPT_HTTPGET, 1)
    case .head: curl.set(easy, CURLOPT_NOBODY, 1)
    case .post: curl.set(easy, CURLOPT_POST, 1)
    case .put, .patch, .delete, .options: curl.set(easy, CURLOPT_CUSTOMREQUEST, method.rawValue)
    }
    guard method.allowsBody, method == .post || exchange.body != nil else { return }
    let body = exchange.body ?? []
    curl.set(easy, CURLOPT_POSTFIELDSIZE_LARGE, large: Int64(body.count))
    // Copied by libcurl, so the bytes need not outlive this call; an empty body still needs a valid pointer.
    guard !body.isEmpty else {
      "".withCString { _ = curl.set(easy, CURLOPT_COPYPOSTFIELDS, pointer: $0) }
      return
    }
    body.withUnsafeBytes { _ = curl.set(easy, CURLOPT_COPYPOSTFIELDS, pointer: $0.baseAddress) }
  }
}
