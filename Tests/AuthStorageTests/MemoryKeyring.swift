import AuthCrypto
import Synchronization

@testable import AuthStorage

/// An in-memory `Keyring`, for the choice of key source and for `Rekey` without a Secret Service (the real one is
/// tested end to end in Tests/Python/test_keyring.py). `state` switches how it answers.
final class MemoryKeyring: Keyring {
  enum State { case open, locked, unreachable }

  private let items = Mutex<[String: [UInt8]]>([:])
  let state: Mutex<State>
  /// Every call, in order: "lookup", "store", "remove".
  let calls = Mutex<[String]>([])

  init(_ state: State = .open) { self.state = Mutex(state) }

  func lookup(_ directory: String) throws -> KeyringLookup {
    calls.withLock { $0.append("lookup") }
    try refuse()
    if state.withLock({ $0 }) == .unreachable { return .unreachable(Self.unreachableError) }
    guard let bytes = items.withLock({ $0[directory] }) else { return .missing }
    return .found(SecretBytes(bytes))
  }

  func store(_ key: SecretBytes, for directory: String) throws {
    calls.withLock { $0.append("store") }
    try refuse()
    if state.withLock({ $0 }) == .unreachable { throw Self.unreachableError }
    items.withLock { $0[directory] = key.withUnsafeBytes { Array($0) } }
  }

  func remove(for directory: String) throws -> Bool {
    calls.withLock { $0.append("remove") }
    try refuse()
    if state.withLock({ $0 }) == .unreachable { throw Self.unreachableError }
    return items.withLock { $0.removeValue(forKey: directory) != nil }
  }

  func holdsKey(for directory: String) -> Bool { items.withLock { $0[directory] != nil } }

  private func refuse() throws {
    if state.withLock({ $0 }) == .locked {
      throw StorageError(.unavailable, "locked (test)", reason: "keyring_locked")
    }
  }

  static let unreachableError = StorageError(.unavailable, "no keyring (test)", reason: "keyring_no_session")
}

/// Selections that never reach the machine's own keyring.
let noKeyring = KeySelection(keyring: MemoryKeyring(.unreachable))
