import AuthSupport
import AuthTransport

/// The command line, parsed by hand (no ArgumentParser: we take no packages).
struct SidecarOptions {
  enum Command {
    case serve
    case call(method: String, params: String?)
    case users(UsersCommand.Action)
    case store(StoreCommand.Action)
    case help
    case version
  }

  var command = Command.serve
  var framing = FramingMode.auto
  var logLevel = LogLevel.warning
  var stateDirectory: String?
  var configPath: String?
  var maxMessageBytes = 1 << 20
  var maxDepth = 64
  var maxInFlight = 64
  var maxBatchSize = 10_000
  var maxBatchAnswerBytes = 16 << 20
  /// `--profile`: the profile `call` sends its request for (unless its params name one) and `users` works on;
  /// `default` when absent. The new account's details for `users add` follow.
  var profile: String?
  var email: String?
  var phone: String?
  var displayName: String?
  /// `--to`: where `store rekey` moves the store key.
  var rekeyTarget: String?
  /// Test mode (refused unless AUTH_SIDECAR_TEST_MODE=1): a fixed clock, seeded randomness and
  /// a cheaper password KDF, so golden transcripts of whole sessions are byte-stable.
  var testClock: Int64?
  var testSeed: UInt64?
  var testKDFIterations: Int?
  var isTestMode: Bool { testClock != nil || testSeed != nil || testKDFIterations != nil }

  static let usage = """
    Usage: auth-sidecar [options]                  serve JSON-RPC 2.0 on stdin/stdout
           auth-sidecar call METHOD [PARAMS_JSON|-] [--profile P] [options]
                                                   send one request (for profile P), print its answer
           auth-sidecar users add USERNAME [--email E] [--phone P] [--display-name N] [--profile P]
           auth-sidecar users list | users remove USERNAME | users passwd USERNAME | users unlock USERNAME
           auth-sidecar users totp enable USERNAME | users totp disable USERNAME
                                                   [--profile P] manage a local profile's accounts; passwords are
                                                   read from stdin or a no-echo prompt, never from argv
           auth-sidecar store rekey --to keyring|file|env
                                                   re-seal the store under a new key kept in the keyring, in
                                                   store.key or in AUTH_SIDECAR_KEY (not while a sidecar has it open)
           auth-sidecar --help | --version

    Options:
      --framing ndjson|lsp|auto   message framing (default auto: LSP if input starts with Content-Length)
      --log-level LEVEL           error, warning (default), info, debug or trace; logs go to stderr
      --state-dir DIR             where the session store lives
      --config FILE               the profiles config file
      --max-message-bytes N       largest accepted message (default 1048576)
      --max-depth N               deepest accepted JSON nesting (default 64)
      --max-in-flight N           most requests running at once (default 64)
      --max-batch N               most messages in one batch (default 10000)
      --max-batch-answer-bytes N  answer bytes of one batch past which the rest of it is not run and
                                  answers invalid_request (default 16777216)

    Test mode, only with AUTH_SIDECAR_TEST_MODE=1 in the environment (never in production):
      --test-clock RFC3339        a fixed clock, moved only by the test.advanceClock method
      --test-seed N               seeded, predictable randomness for tokens and ids
      --test-kdf-iterations N     PBKDF2 iterations for new password hashes (default 600000)

    `call` reads PARAMS_JSON from stdin when it is `-`: never put a password on the command line.
    Config: --config, else AUTH_SIDECAR_CONFIG, else $XDG_CONFIG_HOME/auth-sidecar/config.json.
    State: --state-dir, else AUTH_SIDECAR_STATE_DIR, else $XDG_STATE_HOME/auth-sidecar.
    Exit codes: 0 success; 1 `users` refused (reason on stderr); 2 `call` answered an error (printed as
    JSON); 64 usage error;
    78 invalid configuration.
    """

  /// - Throws: `UsageError` with a message for the user.
  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> SidecarOptions {
    var options = SidecarOptions()
    var positional: [String] = []
    var index = 0
    func value(_ name: String) throws(UsageError) -> String {
      index += 1
      guard index < arguments.count else { throw UsageError("\(name) needs a value") }
      return arguments[index]
    }
    func number(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
      let text = try value(name)
      guard let n = Int(text), range.contains(n) else { throw UsageError("\(name) must be a number in \(range)") }
      return n
    }
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--help", "-h": return SidecarOptions(command: .help)
      case "--version": return SidecarOptions(command: .version)
      case "--framing":
        let text = try value(argument)
        guard let mode = FramingMode(rawValue: text) else { throw UsageError("--framing must be ndjson, lsp or auto") }
        options.framing = mode
      case "--log-level":
        let text = try value(argument)
        guard let level = LogLevel(name: text) else {
          throw UsageError("--log-level must be error, warning, info, debug or trace")
        }
        options.logLevel = level
      case "--state-dir": options.stateDirectory = try value(argument)
      case "--config": options.configPath = try value(argument)
      case "--max-message-bytes": options.maxMessageBytes = try number(argument, 64...(1 << 30))
      case "--max-depth": options.maxDepth = try number(argument, 1...512)
      case "--max-in-flight": options.maxInFlight = try number(argument, 1...4096)
      case "--max-batch": options.maxBatchSize = try number(argument, 1...1_000_000)
      case "--max-batch-answer-bytes": options.maxBatchAnswerBytes = try number(argument, 1024...(1 << 30))
      case "--profile": options.profile = try value(argument)
      case "--email": options.email = try value(argument)
      case "--phone": options.phone = try value(argument)
      case "--display-name": options.displayName = try value(argument)
      case "--to": options.rekeyTarget = try value(argument)
      case "--test-clock":
        let text = try value(argument)
        guard let time = RFC3339.parse(text) else { throw UsageError("--test-clock must be an RFC 3339 time") }
        options.testClock = time
      case "--test-seed":
        let text = try value(argument)
        guard let seed = UInt64(text) else { throw UsageError("--test-seed must be a non-negative integer") }
        options.testSeed = seed
      case "--test-kdf-iterations": options.testKDFIterations = try number(argument, 1...10_000_000)
      default:
        if argument.hasPrefix("-"), argument != "-" { throw UsageError("unknown option \(argument)") }
        positional.append(argument)
      }
      index += 1
    }
    if options.isTestMode, environment["AUTH_SIDECAR_TEST_MODE"] != "1" {
      throw UsageError("test-mode options need AUTH_SIDECAR_TEST_MODE=1 in the environment")
    }
    switch positional.first {
    case nil: break
    case "call":
      guard positional.count == 2 || positional.count == 3 else { throw UsageError("call takes METHOD [PARAMS_JSON|-]") }
      options.command = .call(method: positional[1], params: positional.count == 3 ? positional[2] : nil)
    case "users":
      options.command = .users(try UsersCommand.Action.parse(Array(positional.dropFirst())))
    case "store":
      let words = Array(positional.dropFirst())
      options.command = .store(try StoreCommand.Action.parse(words, target: options.rekeyTarget))
    default:
      throw UsageError("unknown command \(positional[0])")
    }
    if case .users(.add) = options.command {} else if options.email != nil || options.phone != nil || options.displayName != nil {
      throw UsageError("--email, --phone and --display-name go with `users add`")
    }
    if case .store = options.command {} else if options.rekeyTarget != nil {
      throw UsageError("--to goes with `store rekey`")
    }
    return options
  }
}

/// A mistake on the command line: printed with the usage, exit 64 (EX_USAGE).
struct UsageError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
