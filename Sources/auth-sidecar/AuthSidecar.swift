#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthConfig
import AuthDispatch
import AuthHTTP
import AuthStorage
import AuthSupport
import AuthTransport
import CBuildInfo

/// The entry point: parses options and hands over to the command. No logic of its own.
@main
enum AuthSidecar {
  /// From the VERSION file, through the build (see Package.swift).
  static let version = String(cString: auth_sidecar_version())

  /// `--version`: the version, and the commit when the build recorded one (release builds do).
  static var versionLine: String {
    let commit = String(cString: auth_sidecar_commit())
    return "auth-sidecar \(version) (\(commit.isEmpty ? "commit not recorded" : "commit \(commit)"))"
  }

  static func main() {
    // First of all: from the first request on, memory holds passwords, tokens and the store key, which must
    // never reach a core file or a crash report.
    ProcessHardening.disableCoreDumps()
    ProcessHardening.installCrashReport(program: "auth-sidecar")
    // libcurl's OpenSSL would append every TLS session's keys to SSLKEYLOGFILE: gone before any thread starts.
    HTTPEnvironment.scrubDebugVariables()
    let options: SidecarOptions
    do {
      let testMode = getenv("AUTH_SIDECAR_TEST_MODE").map { String(cString: $0) }
      options = try SidecarOptions.parse(
        Array(CommandLine.arguments.dropFirst()), environment: testMode.map { ["AUTH_SIDECAR_TEST_MODE": $0] } ?? [:])
    } catch {
      Logger.standardError("auth-sidecar: \(error.message)\n\n\(SidecarOptions.usage)\n")
      exit(64)
    }
    switch options.command {
    case .help:
      print(SidecarOptions.usage)
    case .version:
      print(versionLine)
    case .serve:
      serve(options, Wiring(options: options, config: remoteReady(loadConfig(options))))
    case .call(let method, let params):
      let wiring = Wiring(options: options, config: remoteReady(loadConfig(options)))
      exit(CallCommand(wiring: wiring).run(method: method, paramsArgument: params))
    case .users(let command):
      let wiring = Wiring(options: options, config: loadConfig(options))
      exit(UsersCommand(wiring: wiring).run(command))
    case .store(let action):
      let environment = StoreCommand.processEnvironment()
      ProcessHardening.scrubEnvironmentVariable(StoreKey.environmentVariable)
      exit(StoreCommand(options: options, storage: loadConfig(options).storage).run(action, environment: environment))
    }
  }

  /// The config, or exit 78 (EX_CONFIG) with the reason: a bad config is never half-applied.
  static func loadConfig(_ options: SidecarOptions) -> SidecarConfig {
    do {
      return try ConfigLoader.load(explicitPath: options.configPath, environment: ConfigEnvironment.variable)
    } catch {
      Logger.standardError("auth-sidecar: config error: \(error)\n")
      exit(78)
    }
  }

  /// `config`, or exit 78 when it has a remote profile and this machine cannot send HTTP (libcurl is missing):
  /// said at start, naming the library and how to install it, rather than as an error on every remote login.
  static func remoteReady(_ config: SidecarConfig) -> SidecarConfig {
    let remote = config.profileNames.filter { config.profiles[$0]?.provider.kind.isRemote == true }
    guard let first = remote.first, let reason = CurlHTTPClient.unavailableReason else { return config }
    let provider = config.profiles[first]!.provider.kind
    Logger.standardError(
      "auth-sidecar: config error: profiles.\(first) uses the \(provider) provider, which needs libcurl: \(reason)\n")
    exit(78)
  }

  static func serve(_ options: SidecarOptions, _ wiring: Wiring) {
    let protocolFD = StdioGuard.takeStdout()
    var transportOptions = StdioTransport.Options()
    // The drain bound in whole seconds, counted from the stop: past it the process exits even while a write
    // to a host that no longer reads is blocked.
    let drainSeconds = UInt32((transportOptions.drainTimeoutMilliseconds + 999) / 1000)
    let stopFD = ShutdownSignal.install(hardExitAfterSeconds: drainSeconds)
    // A host that closed stdout gets no more requests run: stop reading, drain, exit.
    let output = OutputWriter(fd: protocolFD, mode: options.framing) { ShutdownSignal.requestStop() }
    let server = wiring.makeServer(sender: output)
    transportOptions.framing = options.framing
    transportOptions.maxMessageBytes = options.maxMessageBytes
    StdioTransport(inputFD: STDIN_FILENO, stopFD: stopFD, output: output, options: transportOptions)
      .run(receiver: server)
    // Answers are written and the drain is over, but work past its bound, a background revocation or a scrub may
    // still run. exit() would first run libcrypto's atexit cleanup, which frees what such a thread may be using
    // (seen as a crash at exit); nothing else registered there needs to run, so only stdio is flushed.
    fflush(nil)
    _exit(0)
  }
}
