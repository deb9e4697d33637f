#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthDispatch
import AuthJSON
import AuthProtocol
import AuthTransport
import AuthValidation

/// The composition root: parses options, builds the modules and connects them. No logic
/// of its own lives here.
@main
enum AuthSidecar {
  static let version = "0.1.0"

  static func main() {
    let options: SidecarOptions
    do {
      options = try SidecarOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      writeStderr("auth-sidecar: \(error.message)\n\n\(SidecarOptions.usage)\n")
      exit(64)
    }
    switch options.command {
    case .help:
      print(SidecarOptions.usage)
    case .version:
      print("auth-sidecar \(version)")
    case .serve:
      serve(options)
    case .call(let method, let params):
      exit(CallCommand(options: options, makeServer: makeServer).run(method: method, paramsArgument: params))
    }
  }

  static func serve(_ options: SidecarOptions) {
    let protocolFD = StdioGuard.takeStdout()
    let stopFD = ShutdownSignal.install()
    let output = OutputWriter(fd: protocolFD, mode: options.framing)
    let server = makeServer(options, output)
    var transportOptions = StdioTransport.Options()
    transportOptions.framing = options.framing
    transportOptions.maxMessageBytes = options.maxMessageBytes
    StdioTransport(inputFD: STDIN_FILENO, stopFD: stopFD, output: output, options: transportOptions)
      .run(receiver: server)
    exit(0)
  }

  /// Builds the dispatcher with every method registered.
  static func makeServer(_ options: SidecarOptions, _ sender: any MessageSender) -> Server {
    let log = StderrLog(level: options.logLevel)
    let validator = Validator(policy: .standard)
    var registry = MethodRegistry()
    registry.register(ValidateMethod(validatorForProfile: { _ in validator }))
    registry.register(DiscoverMethod())
    var limits = Server.Limits()
    limits.maxDepth = options.maxDepth
    limits.maxInFlight = options.maxInFlight
    limits.maxBatchSize = options.maxBatchSize
    return Server(
      registry: registry, sender: sender, limits: limits,
      errors: ErrorTranslator(report: { log.log(.error, $0) }))
  }

  static func writeStderr(_ text: String) {
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
  }
}
