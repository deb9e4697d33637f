#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthConfig
import AuthCrypto
import AuthStorage
import AuthSupport

/// `auth-sidecar store rekey --to keyring|file|env`: moves the store's key to another home (see `Rekey`).
///
/// It refuses while another process has the store open (see `StoreInUse`): that one would keep sealing with the
/// key it opened the store with.
struct StoreCommand {
  enum Action: Equatable {
    case rekey(to: KeySource)

    static func parse(_ words: [String], target: String?) throws(UsageError) -> Action {
      guard words == ["rekey"], let target, let source = KeySource(settingName: target) else {
        throw UsageError("store takes: rekey --to keyring|file|env")
      }
      return .rekey(to: source)
    }
  }

  /// Test mode only: `AUTH_SIDECAR_TEST_REKEY_PAUSE=<step>` stops the rekey at that step (see `Rekey.Step`), says so
  /// on stderr and waits to be killed, so tests can interrupt it between its writes with kill -9.
  static let pauseVariable = "AUTH_SIDECAR_TEST_REKEY_PAUSE"

  /// The store's variables, and the test mode's: read one by one, as the store does.
  static func processEnvironment() -> [String: String] {
    var environment = StateDirectory.processEnvironment()
    for name in ["AUTH_SIDECAR_TEST_MODE", pauseVariable] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return environment
  }

  let options: SidecarOptions
  let storage: StorageConfig

  /// - Returns: the exit code: 0 done, 1 refused (the reason is on stderr).
  func run(_ action: Action, environment: [String: String]) -> Int32 {
    guard case .rekey(let target) = action else { return 1 }
    // The store's secrets are sealed with libcrypto, opened here on first need: say so if it cannot be.
    if let reason = LibCrypto.missingReason {
      Logger.standardError("auth-sidecar store: \(reason)\n")
      return 1
    }
    do {
      let directory = try StateDirectory(explicitPath: options.stateDirectory, environment: environment)
      let keyring = Wiring.keySelection(storage).keyring
      let notes = try Rekey.run(
        directory: directory, to: target, environment: environment, keyring: keyring, pause: pauseHook(environment))
      for note in notes { Logger.standardError("auth-sidecar store: \(note)\n") }
      if let setting = storage.keySource, setting != target {
        Logger.standardError(
          "auth-sidecar store: the config's storage.keySource is \"\(setting.settingName)\": set it to "
            + "\"\(target.settingName)\" or \"auto\"\n")
      }
      return 0
    } catch let error as StorageError {
      Logger.standardError("auth-sidecar store: \(error.message)\n")
    } catch {
      Logger.standardError("auth-sidecar store: failed (\(type(of: error)))\n")
    }
    return 1
  }

  private func pauseHook(_ environment: [String: String]) -> (Rekey.Step) -> Void {
    guard environment["AUTH_SIDECAR_TEST_MODE"] == "1", let name = environment[Self.pauseVariable],
      let step = Rekey.Step(rawValue: name)
    else { return { _ in } }
    return { reached in
      guard reached == step else { return }
      Logger.standardError("auth-sidecar store: test pause at \(step.rawValue)\n")
      while true { pause() }
    }
  }
}
