#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthConfig
import AuthCrypto
import AuthJSON
import AuthProviders
import AuthStorage
import AuthSupport
import AuthValidation
import Dispatch

/// `auth-sidecar users add|list|remove|passwd|unlock`: the local provider's accounts from a shell.
///
/// Passwords come from a no-echo prompt on a terminal or the first line of stdin otherwise —
/// never from argv, which every user of the machine can read in /proc.
struct UsersCommand {
  enum Action: Equatable {
    case add(String)
    case list
    case remove(String)
    case passwd(String)
    case unlock(String)
    case totpEnable(String)
    case totpDisable(String)

    static func parse(_ words: [String]) throws(UsageError) -> Action {
      switch (words.first, words.count) {
      case ("add", 2): return .add(words[1])
      case ("list", 1): return .list
      case ("remove", 2): return .remove(words[1])
      case ("passwd", 2): return .passwd(words[1])
      case ("unlock", 2): return .unlock(words[1])
      case ("totp", 3) where words[1] == "enable": return .totpEnable(words[2])
      case ("totp", 3) where words[1] == "disable": return .totpDisable(words[2])
      default:
        throw UsageError(
          "users takes: add USERNAME | list | remove USERNAME | passwd USERNAME | unlock USERNAME"
            + " | totp enable|disable USERNAME")
      }
    }
  }

  let wiring: Wiring

  /// - Returns: the exit code: 0 done, 1 refused (the reason is on stderr).
  func run(_ action: Action) -> Int32 {
    // Passwords are hashed and the store sealed with libcrypto, opened here on first need.
    if let reason = LibCrypto.missingReason {
      Logger.standardError("auth-sidecar users: \(reason)\n")
      return 1
    }
    do {
      _ = try localProfile()
      switch action {
      case .add(let username): try add(username)
      case .list: try list()
      case .remove(let username): try remove(username)
      case .passwd(let username): try passwd(username)
      case .unlock(let username):
        guard try provider.unlock(username: username) else { throw Refusal(message: "no account named \(username)") }
      case .totpEnable(let username): try enableAuthenticator(username)
      case .totpDisable(let username): try disableAuthenticator(username)
      }
      return 0
    } catch let error as Refusal {
      Logger.standardError("auth-sidecar users: \(error.message)\n")
    } catch let error as StorageError {
      Logger.standardError("auth-sidecar users: \(error.message)\n")
    } catch let error as ProviderError {
      if case .alreadyExists(let field) = error.code {
        Logger.standardError("auth-sidecar users: that \(field ?? "account") is already taken\n")
      } else {
        Logger.standardError("auth-sidecar users: \(error.detail)\n")
      }
    } catch {
      Logger.standardError("auth-sidecar users: failed (\(type(of: error)))\n")
    }
    return 1
  }

  struct Refusal: Error {
    let message: String
  }

  /// The profile `--profile` names (`default` without it): it must be in the config and use the local provider,
  /// whose accounts these are; its validation policy and token lifetimes apply.
  private func localProfile() throws -> (ProfileConfig, LocalProviderConfig) {
    let name = wiring.options.profile ?? ProfileName.default.rawValue
    guard let profile = wiring.config.profile(name) else { throw Refusal(message: "no profile \(name) in the config") }
    guard case .local(let local) = profile.provider else {
      throw Refusal(
        message: "profile \(name) uses the \(profile.provider.kind) provider; users manages local accounts only")
    }
    return (profile, local)
  }

  private func add(_ username: String) throws {
    var input = ValidationInput()
    input.username = username
    input.email = wiring.options.email
    input.phone = wiring.options.phone
    let (profile, _) = try localProfile()
    let fields = Validator(policy: profile.validation).validate(input, purpose: .register, locale: .en)
    try refuseInvalid(fields)
    let password = try readNewPassword()
    let registration = Registration(
      username: fields[.username]?.value ?? username, email: fields[.email]?.value, phone: fields[.phone]?.value,
      displayName: wiring.options.displayName)
    let user = try waitFor { [provider] in try await provider.register(registration, password: password) }
    print(JSONWriter.string(.object(user.json)))
  }

  /// The local provider as these commands use it: accounts and authenticators only, no tokens are issued. Account
  /// administration goes through it because it hashes passwords and keeps the login throttle.
  private var provider: LocalProvider {
    LocalProvider(
      stores: wiring.stores, clock: wiring.clock, random: wiring.random, hasher: wiring.hasher,
      accessTokenTTLSeconds: 900, refreshTokenTTLDays: 30)
  }

  /// Prints the `otpauth://` URI (for the app, or a QR code of it) and the ten recovery codes, shown this once:
  /// the store keeps only their hashes. This is the one place they are ever printed, on the operator's terminal.
  private func enableAuthenticator(_ username: String) throws {
    let enrolled = try waitFor { [provider] in
      try await provider.enrollAuthenticator(username: username, issuer: "auth-sidecar")
    }
    print(enrolled.uri)
    for code in enrolled.recovery { print(code) }
  }

  private func disableAuthenticator(_ username: String) throws {
    guard try waitFor({ [provider] in try await provider.removeAuthenticator(username: username) }) else {
      throw Refusal(message: "\(username) has no authenticator")
    }
  }

  private func list() throws {
    let accounts = try wiring.stores.get().read { try $0.accounts() }
    for account in accounts {
      var entry: JSONObject = ["id": .string(account.id), "username": .string(account.username)]
      if let email = account.email { entry["email"] = .string(email) }
      if let phone = account.phone { entry["phone"] = .string(phone) }
      if let name = account.displayName { entry["displayName"] = .string(name) }
      entry["disabled"] = .bool(account.disabled)
      entry["createdAt"] = .string(RFC3339.format(account.createdAt))
      print(JSONWriter.string(.object(entry)))
    }
  }

  private func remove(_ username: String) throws {
    let removed = try wiring.stores.get().write { tx -> Bool in
      guard let account = try tx.account(username: username) else { return false }
      return try tx.deleteAccount(id: account.id)
    }
    guard removed else { throw Refusal(message: "no account named \(username)") }
  }

  private func passwd(_ username: String) throws {
    let store = try wiring.stores.get()
    guard try store.read({ try $0.account(username: username) }) != nil else {
      throw Refusal(message: "no account named \(username)")
    }
    let password = try readNewPassword()
    // A new password ends every session of the account and lifts its login lock.
    guard try provider.changePassword(username: username, to: password) else {
      throw Refusal(message: "no account named \(username)")
    }
  }

  private func readNewPassword() throws -> String {
    let password: String
    if isatty(STDIN_FILENO) == 1 {
      let first = try PasswordPrompt.read("New password: ")
      guard try PasswordPrompt.read("Repeat it: ") == first else { throw Refusal(message: "the passwords differ") }
      password = first
    } else {
      password = PasswordPrompt.readLineFromStandardInput()
    }
    var input = ValidationInput()
    input.password = password
    let policy = try localProfile().0.validation
    try refuseInvalid(Validator(policy: policy).validate(input, purpose: .register, locale: .en))
    return password
  }

  private func refuseInvalid(_ report: ValidationReport) throws {
    guard !report.valid else { return }
    let problems = report.fields.flatMap { field in field.issues.map { "\(field.field.rawValue): \($0.message)" } }
    throw Refusal(message: problems.joined(separator: "; "))
  }

  /// Runs async work from this synchronous command and waits for it.
  private func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
      box.set(await Result { try await work() })
      done.signal()
    }
    done.wait()
    return try box.get()
  }
}

/// Carries a task's result to the waiting thread.
private final class ResultBox<T: Sendable>: @unchecked Sendable {
  // Written once by the task before the semaphore is signalled; read once after waiting on it.
  private var result: Result<T, any Error>?
  func set(_ value: Result<T, any Error>) { result = value }
  func get() throws -> T { try result!.get() }
}

extension Result where Failure == any Error {
  init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}
