internal import CSecretService
import AuthCrypto
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The store key kept as an item of the desktop keyring's `default` collection, through the Secret Service
/// (libsecret over the D-Bus session bus), with the attributes `application=auth-sidecar` and
/// `state-directory=<path>` so each state directory has its own item.
///
/// A locked collection is unlocked by the service's own prompt. Each call waits at most `timeout` for the service
/// (and the person at the prompt): past it the call is cancelled — libsecret dismisses the prompt — and answers
/// `StorageError.unavailable` with reason `keyring_timeout`, so a request is answered instead of hanging.
package struct SecretServiceKeyring: Keyring {
  package static let defaultTimeout: Duration = .seconds(30)
  static let application = "auth-sidecar"
  static let collection = "default"

  package let timeout: Duration

  package init(timeout: Duration = defaultTimeout) { self.timeout = timeout }

  package func lookup(_ directory: String) throws -> KeyringLookup {
    if let unreachable = Self.sessionBusMissing() { return .unreachable(unreachable) }
    let library: LibSecret
    switch LibSecret.shared {
    case .success(let opened): library = opened
    case .failure(let error): return .unreachable(error)
    }
    // Found without unlocking first: a locked item that does not unlock is then told apart from a missing one
    // (libsecret's lookup answers both with nothing).
    let (found, searchError, searchTimedOut) = call(library) { cancellable, error in
      let list = auth_secret_search(
        library.search, library.schema, 1 << 1, cancellable, error, LibSecret.attributeNames.0, Self.application,
        LibSecret.attributeNames.1, directory)
      let count = Self.count(list)
      library.listFreeFull(list, library.objectUnref)
      return count
    }
    if let searchError {
      if let unreachable = Self.unreachable(searchError) { return .unreachable(unreachable) }
      throw failure(searchError, timedOut: searchTimedOut, "look up the store key of \(directory)")
    }
    guard found > 0 else { return .missing }
    let (text, lookupError, timedOut) = call(library) { cancellable, error -> [UInt8]? in
      guard
        let password = auth_secret_lookup(
          library.lookup, library.schema, cancellable, error, LibSecret.attributeNames.0, Self.application,
          LibSecret.attributeNames.1, directory)
      else { return nil }
      defer { library.passwordFree(password) }  // which wipes it
      return Array(UnsafeRawBufferPointer(start: password, count: strlen(password)))
    }
    if let lookupError { throw failure(lookupError, timedOut: timedOut, "read the store key of \(directory)") }
    guard var text else {
      throw StorageError(
        .unavailable, "the keyring holding the store key of \(directory) is locked and was not unlocked (the "
          + "unlock prompt was dismissed or could not be shown); unlock it and retry", reason: "keyring_locked")
    }
    defer { text.wipe() }
    return .found(try KeyringItem.key(from: text, directory: directory))
  }

  package func store(_ key: SecretBytes, for directory: String) throws {
    let library = try reachableLibrary()
    var text = KeyringItem.text(of: key)
    text.append(0)
    defer { text.wipe() }
    let label = "auth-sidecar store key (\(directory))"
    let (stored, error, timedOut) = call(library) { cancellable, error in
      text.withUnsafeBufferPointer { password in
        password.withMemoryRebound(to: CChar.self) { password in
          auth_secret_store(
            library.store, library.schema, Self.collection, label, password.baseAddress, cancellable, error,
            LibSecret.attributeNames.0, Self.application, LibSecret.attributeNames.1, directory)
        }
      }
    }
    if let error {
      if let unreachable = Self.unreachable(error) { throw unreachable }
      throw failure(error, timedOut: timedOut, "keep the store key of \(directory) in the keyring")
    }
    guard stored != 0 else {
      throw StorageError(
        .unavailable, "the keyring did not keep the store key of \(directory)", reason: "keyring_error")
    }
  }

  package func remove(for directory: String) throws -> Bool {
    let library = try reachableLibrary()
    let (removed, error, timedOut) = call(library) { cancellable, error in
      auth_secret_clear(
        library.clear, library.schema, cancellable, error, LibSecret.attributeNames.0, Self.application,
        LibSecret.attributeNames.1, directory)
    }
    if let error {
      if let unreachable = Self.unreachable(error) { throw unreachable }
      throw failure(error, timedOut: timedOut, "remove the store key of \(directory) from the keyring")
    }
    return removed != 0
  }

  private func reachableLibrary() throws -> LibSecret {
    if let unreachable = Self.sessionBusMissing() { throw unreachable }
    return try LibSecret.shared.get()
  }

  /// Runs one libsecret call with a `GCancellable` that is cancelled when `timeout` passes first.
  /// - Returns: what `body` returned, the error it reported, and whether the deadline cancelled it.
  private func call<T>(
    _ library: LibSecret,
    _ body: (UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutablePointer<auth_g_error>?>) -> T
  ) -> (T, GLibError?, Bool) {
    let cancellable = library.cancellableNew()
    let deadline = Deadline(cancellable: cancellable, library: library)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout / .milliseconds(1)))) {
      deadline.expire()
    }
    var error: UnsafeMutablePointer<auth_g_error>?
    let result = body(cancellable, &error)
    let timedOut = deadline.finish()
    return (result, library.take(error), timedOut)
  }

  /// Cancels the call when it expires before the call finishes; the last of the two releases the cancellable.
  private final class Deadline: Sendable {
    private struct State {
      var finished = false
      var expired = false
      var cancelled = false
    }
    private let state = Mutex(State())
    nonisolated(unsafe) private let cancellable: UnsafeMutableRawPointer?
    private let library: LibSecret

    init(cancellable: UnsafeMutableRawPointer?, library: LibSecret) {
      self.cancellable = cancellable
      self.library = library
    }

    func expire() {
      let release = state.withLock { state -> Bool in
        state.expired = true
        // g_cancellable_cancel is thread-safe; under the lock so `finish` cannot release it meanwhile.
        if !state.finished {
          library.cancellableCancel(cancellable)
          state.cancelled = true
        }
        return state.finished
      }
      if release { library.objectUnref(cancellable) }
    }

    /// - Returns: whether the deadline cancelled the call.
    func finish() -> Bool {
      let (release, cancelled) = state.withLock { state in
        state.finished = true
        return (state.expired, state.cancelled)
      }
      if release { library.objectUnref(cancellable) }
      return cancelled
    }
  }

  private static func count(_ list: UnsafeMutablePointer<auth_g_list>?) -> Int {
    var count = 0
    var node = list
    while let current = node {
      count += 1
      node = current.pointee.next
    }
    return count
  }

  /// Without a session bus GIO would try to autolaunch one (through X11), so its absence is found here first.
  private static func sessionBusMissing() -> StorageError? {
    if let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 { return nil }
    if let runtime = getenv("XDG_RUNTIME_DIR"), access(String(cString: runtime) + "/bus", F_OK) == 0 { return nil }
    return StorageError(
      .unavailable, "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set and there is no "
        + "$XDG_RUNTIME_DIR/bus), so there is no keyring to keep the store key in", reason: "keyring_no_session")
  }

  /// The errors that mean nobody is there to ask: no bus to connect to, or no Secret Service on it.
  private static func unreachable(_ error: GLibError) -> StorageError? {
    switch error.domain {
    case "g-io-error-quark" where !error.isCancelled:
      return StorageError(
        .unavailable, "cannot connect to the D-Bus session bus: \(error.message)", reason: "keyring_no_session")
    // SERVICE_UNKNOWN, NAME_HAS_NO_OWNER, NO_SERVER, and every SPAWN_* (the service failed to start).
    case "g-dbus-error-quark" where [2, 3, 11].contains(error.code) || (23...34).contains(error.code):
      return StorageError(
        .unavailable, "no Secret Service (keyring) answers on the D-Bus session bus: \(error.message)",
        reason: "keyring_no_service")
    default:
      return nil
    }
  }

  private func failure(_ error: GLibError, timedOut: Bool, _ action: String) -> StorageError {
    if timedOut || error.isCancelled {
      return StorageError(
        .unavailable, "the keyring did not answer within \(timeout) (a locked keyring waiting for its unlock "
          + "prompt, or a service that hangs) while trying to \(action); retry, or unlock it first",
        reason: "keyring_timeout")
    }
    if error.domain == "secret-error", error.code == 2 {
      return StorageError(
        .unavailable, "the keyring's default collection is locked and was not unlocked while trying to "
          + "\(action); unlock it and retry", reason: "keyring_locked")
    }
    return StorageError(
      .unavailable, "the keyring refused to \(action): \(error.message)", reason: "keyring_error")
  }
}
