internal import CCurl

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// libcurl, opened with `dlopen` on the first remote request rather than linked.
///
/// Linked, libcurl and its dependencies (OpenSSL's libssl, nghttp2, libssh2, LDAP, Kerberos…) would be loaded
/// and relocated at every start of the sidecar, although a host that only validates input never sends a request;
/// and a machine without libcurl could not start the sidecar at all. Opened here, a missing library is an error
/// on remote requests only. The soname `libcurl.so.4` has kept its ABI since 2006; the functions used here exist
/// since 7.62 (`curl_url`).
struct LibCurl: @unchecked Sendable {
  // Function pointers into a library that is never closed; calling them is safe from any thread the way
  // libcurl documents (a multi handle used by one thread at a time: `CurlEngine` holds a lock around it).
  typealias EasyInit = @convention(c) () -> OpaquePointer?
  typealias EasyCleanup = @convention(c) (OpaquePointer?) -> Void
  typealias EasyReset = @convention(c) (OpaquePointer?) -> Void
  typealias StrError = @convention(c) (CURLcode) -> UnsafePointer<CChar>?
  typealias MultiInit = @convention(c) () -> OpaquePointer?
  typealias MultiHandle = @convention(c) (OpaquePointer?, OpaquePointer?) -> CURLMcode
  typealias MultiSocketAction =
    @convention(c) (OpaquePointer?, curl_socket_t, Int32, UnsafeMutablePointer<Int32>?) -> CURLMcode
  typealias MultiInfoRead =
    @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> UnsafeMutablePointer<CURLMsg>?
  typealias SlistAppend =
    @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?
  typealias SlistFree = @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void
  typealias GlobalInit = @convention(c) (Int) -> CURLcode
  typealias URLNew = @convention(c) () -> OpaquePointer?
  typealias URLSet = @convention(c) (OpaquePointer?, CURLUPart, UnsafePointer<CChar>?, UInt32) -> CURLUcode
  typealias URLGet =
    @convention(c) (OpaquePointer?, CURLUPart, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UInt32) -> CURLUcode
  typealias URLCleanup = @convention(c) (OpaquePointer?) -> Void
  typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

  let easyInit: EasyInit
  let easyCleanup: EasyCleanup
  let easyReset: EasyReset
  let strerror: StrError
  let multiInit: MultiInit
  let multiAdd: MultiHandle
  let multiRemove: MultiHandle
  let multiSocketAction: MultiSocketAction
  let multiInfoRead: MultiInfoRead
  let slistAppend: SlistAppend
  let slistFree: SlistFree
  let urlNew: URLNew
  let urlSet: URLSet
  let urlGet: URLGet
  let urlCleanup: URLCleanup
  let free: Free
  /// The variadic ones, called through the C shims (`auth_curl_setopt_long` and others).
  let easySetopt: UnsafeMutableRawPointer
  let easyGetinfo: UnsafeMutableRawPointer
  let multiSetopt: UnsafeMutableRawPointer

  /// The sonames tried in order: Debian and most distributions ship the OpenSSL build as `libcurl.so.4`.
  static let sonames = ["libcurl.so.4", "libcurl-gnutls.so.4"]
  static let missing =
    "libcurl could not be loaded (libcurl.so.4); install it: apt-get install libcurl4 (Debian, Ubuntu), "
    + "dnf install libcurl (Fedora), apk add libcurl (Alpine)"

  /// Opened and initialized once, by the first caller; every later one shares the result.
  static let shared: Result<LibCurl, HTTPError> = open()

  /// - Parameter sonames: tried in order; the first that loads is used.
  static func open(sonames: [String] = sonames) -> Result<LibCurl, HTTPError> {
    // RTLD_LOCAL: its symbols serve these lookups only, never the rest of the process.
    guard let handle = sonames.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else {
      return .failure(HTTPError(.transportUnavailable, missing))
    }
    func symbol<T>(_ name: String, _ type: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: type) } }
    guard let globalInit = symbol("curl_global_init", GlobalInit.self),
      let easyInit = symbol("curl_easy_init", EasyInit.self),
      let easyCleanup = symbol("curl_easy_cleanup", EasyCleanup.self),
      let easyReset = symbol("curl_easy_reset", EasyReset.self),
      let strerror = symbol("curl_easy_strerror", StrError.self),
      let multiInit = symbol("curl_multi_init", MultiInit.self),
      let multiAdd = symbol("curl_multi_add_handle", MultiHandle.self),
      let multiRemove = symbol("curl_multi_remove_handle", MultiHandle.self),
      let multiSocketAction = symbol("curl_multi_socket_action", MultiSocketAction.self),
      let multiInfoRead = symbol("curl_multi_info_read", MultiInfoRead.self),
      let slistAppend = symbol("curl_slist_append", SlistAppend.self),
      let slistFree = symbol("curl_slist_free_all", SlistFree.self),
      let urlNew = symbol("curl_url", URLNew.self), let urlSet = symbol("curl_url_set", URLSet.self),
      let urlGet = symbol("curl_url_get", URLGet.self), let urlCleanup = symbol("curl_url_cleanup", URLCleanup.self),
      let free = symbol("curl_free", Free.self),
      let easySetopt = dlsym(handle, "curl_easy_setopt"), let easyGetinfo = dlsym(handle, "curl_easy_getinfo"),
      let multiSetopt = dlsym(handle, "curl_multi_setopt")
    else {
      return .failure(HTTPError(.transportUnavailable, "the installed libcurl is older than 7.62; upgrade libcurl4"))
    }
    // Before any other call, once; the lazy static makes it once per process.
    guard globalInit(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
      return .failure(HTTPError(.transportUnavailable, "curl_global_init failed"))
    }
    return .success(
      LibCurl(
        easyInit: easyInit, easyCleanup: easyCleanup, easyReset: easyReset, strerror: strerror, multiInit: multiInit, multiAdd: multiAdd,
        multiRemove: multiRemove, multiSocketAction: multiSocketAction, multiInfoRead: multiInfoRead,
        slistAppend: slistAppend, slistFree: slistFree, urlNew: urlNew, urlSet: urlSet, urlGet: urlGet,
        urlCleanup: urlCleanup, free: free, easySetopt: easySetopt, easyGetinfo: easyGetinfo, multiSetopt: multiSetopt))
  }

  @discardableResult
  func set(_ easy: OpaquePointer, _ option: CURLoption, _ value: Int) -> CURLcode {
    auth_curl_setopt_long(easySetopt, easy, option, value)
  }

  @discardableResult
  func set(_ easy: OpaquePointer, _ option: CURLoption, _ value: String) -> CURLcode {
    // libcurl copies string options (since 7.17), so the C string only has to live through the call.
    value.withCString { auth_curl_setopt_pointer(easySetopt, easy, option, $0) }
  }

  @discardableResult
  func set(_ easy: OpaquePointer, _ option: CURLoption, pointer: UnsafeRawPointer?) -> CURLcode {
    auth_curl_setopt_pointer(easySetopt, easy, option, pointer)
  }

  @discardableResult
  func set(_ easy: OpaquePointer, _ option: CURLoption, large value: Int64) -> CURLcode {
    auth_curl_setopt_off(easySetopt, easy, option, curl_off_t(value))
  }

  func info(_ easy: OpaquePointer, _ info: CURLINFO) -> Int {
    var value = 0
    _ = auth_curl_getinfo_long(easyGetinfo, easy, info, &value)
    return value
  }

  func describe(_ code: CURLcode) -> String {
    strerror(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)"
  }
}
