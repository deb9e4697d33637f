internal import CSecretService

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// libsecret (the Secret Service client behind GNOME Keyring and KWallet's Secret Service), opened with `dlopen`
/// the first time a store key is kept in the keyring, never linked.
///
/// Linked, libsecret would load GLib, GObject and GIO at every start of the sidecar, although most stores never
/// use the keyring and a host that only validates never opens a store at all. The soname `libsecret-1.so.0` has
/// kept its ABI since 0.11; GLib's functions used here are resolved through libsecret's own dependencies.
struct LibSecret: @unchecked Sendable {
  // Function pointers into libraries that are never closed; libsecret's synchronous calls and GCancellable are
  // documented safe to use from any thread. The schema is allocated once and never freed.
  typealias PasswordFree = @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
  typealias ErrorFree = @convention(c) (UnsafeMutablePointer<auth_g_error>?) -> Void
  typealias QuarkToString = @convention(c) (UInt32) -> UnsafePointer<CChar>?
  typealias CancellableNew = @convention(c) () -> UnsafeMutableRawPointer?
  typealias ObjectFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void
  typealias ListFreeFull = @convention(c) (UnsafeMutablePointer<auth_g_list>?, ObjectFunction?) -> Void

  let store: UnsafeMutableRawPointer
  let lookup: UnsafeMutableRawPointer
  let search: UnsafeMutableRawPointer
  let clear: UnsafeMutableRawPointer
  let passwordFree: PasswordFree
  let errorFree: ErrorFree
  let quarkToString: QuarkToString
  let cancellableNew: CancellableNew
  let cancellableCancel: ObjectFunction
  let objectUnref: ObjectFunction
  let listFreeFull: ListFreeFull
  let schema: UnsafePointer<auth_secret_schema>

  static let schemaName = "org.auth-sidecar.StoreKey"
  static let attributeNames = ("application", "state-directory")

  /// Opened once, by the first caller; every later one shares the result (or the reason it failed).
  static let shared: Result<LibSecret, StorageError> = open()

  private static func open() -> Result<LibSecret, StorageError> {
    // RTLD_LOCAL: its symbols (and GLib's) serve these lookups only, never the rest of the process.
    guard let handle = dlopen("libsecret-1.so.0", RTLD_NOW | RTLD_LOCAL) else {
      return .failure(
        StorageError(
          .unavailable, "libsecret-1.so.0 could not be loaded, so the keyring cannot be reached; install libsecret "
            + "(apt-get install libsecret-1-0, dnf install libsecret, apk add libsecret)",
          reason: "keyring_unavailable"))
    }
    func symbol(_ name: String) -> UnsafeMutableRawPointer? { dlsym(handle, name) }
    guard let store = symbol("secret_password_store_sync"), let lookup = symbol("secret_password_lookup_sync"),
      let search = symbol("secret_password_search_sync"), let clear = symbol("secret_password_clear_sync"),
      let passwordFree = symbol("secret_password_free"), let errorFree = symbol("g_error_free"),
      let quark = symbol("g_quark_to_string"), let cancellableNew = symbol("g_cancellable_new"),
      let cancel = symbol("g_cancellable_cancel"), let unref = symbol("g_object_unref"),
      let listFreeFull = symbol("g_list_free_full")
    else {
      return .failure(
        StorageError(
          .unavailable, "libsecret-1.so.0 is older than 0.19 (it lacks secret_password_search_sync); the keyring "
            + "needs libsecret 0.19 or newer", reason: "keyring_unavailable"))
    }
    return .success(
      LibSecret(
        store: store, lookup: lookup, search: search, clear: clear,
        passwordFree: unsafeBitCast(passwordFree, to: PasswordFree.self),
        errorFree: unsafeBitCast(errorFree, to: ErrorFree.self),
        quarkToString: unsafeBitCast(quark, to: QuarkToString.self),
        cancellableNew: unsafeBitCast(cancellableNew, to: CancellableNew.self),
        cancellableCancel: unsafeBitCast(cancel, to: ObjectFunction.self),
        objectUnref: unsafeBitCast(unref, to: ObjectFunction.self),
        listFreeFull: unsafeBitCast(listFreeFull, to: ListFreeFull.self), schema: makeSchema()))
  }

  /// The schema every store key item is made with: its name is recorded on the item (`xdg:schema`), and both
  /// attributes are strings.
  private static func makeSchema() -> UnsafePointer<auth_secret_schema> {
    let schema = UnsafeMutablePointer<auth_secret_schema>.allocate(capacity: 1)
    schema.initialize(to: auth_secret_schema())
    schema.pointee.name = UnsafePointer(strdup(schemaName))
    schema.pointee.flags = 0
    schema.pointee.attributes.0 = auth_secret_schema_attribute(name: UnsafePointer(strdup(attributeNames.0)), type: 0)
    schema.pointee.attributes.1 = auth_secret_schema_attribute(name: UnsafePointer(strdup(attributeNames.1)), type: 0)
    return UnsafePointer(schema)
  }

  /// What a GError says, then frees it: the domain's name, the code and the message (libsecret's and GDBus's
  /// messages name services and paths, never secret values).
  func take(_ error: UnsafeMutablePointer<auth_g_error>?) -> GLibError? {
    guard let error else { return nil }
    defer { errorFree(error) }
    let domain = quarkToString(error.pointee.domain).map { String(cString: $0) } ?? ""
    let message = error.pointee.message.map { String(cString: $0) } ?? ""
    return GLibError(domain: domain, code: error.pointee.code, message: message)
  }
}

/// A GError, copied out of GLib's memory.
struct GLibError: Sendable {
  let domain: String
  let code: Int32
  let message: String

  var isCancelled: Bool { domain == "g-io-error-quark" && code == 19 }
}
