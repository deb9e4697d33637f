internal import CCurl

extension LibCurl {
  /// Scheme, host and port as libcurl's own URL parser reads `url`, or nil when it refuses it.
  ///
  /// The transport rules (https, loopback, one origin per login) were checked on `RequestTarget`'s parse, but
  /// libcurl connects where its parse says: a URL the two read differently is refused rather than sent.
  func origin(of url: String) -> RequestTarget.Origin? {
    guard let handle = urlNew() else { return nil }
    defer { urlCleanup(handle) }
    guard urlSet(handle, CURLUPART_URL, url, 0) == CURLUE_OK,
      let scheme = part(handle, CURLUPART_SCHEME), let host = part(handle, CURLUPART_HOST),
      let port = part(handle, CURLUPART_PORT, flags: UInt32(CURLU_DEFAULT_PORT)).flatMap({ Int($0) })
    else { return nil }
    let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    return RequestTarget.Origin(scheme: scheme.lowercased(), host: bare.lowercased(), port: port)
  }

  private func part(_ handle: OpaquePointer, _ which: CURLUPart, flags: UInt32 = 0) -> String? {
    var value: UnsafeMutablePointer<CChar>?
    guard urlGet(handle, which, &value, flags) == CURLUE_OK, let value else { return nil }
    defer { free(value) }
    return String(cString: value)
  }
}
