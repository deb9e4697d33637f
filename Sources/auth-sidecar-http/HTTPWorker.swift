#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
import AuthHTTP
import AuthHTTPURLSession
import AuthSupport
import CSubprocess

/// `auth-sidecar-http`: the sidecar's HTTP worker. `WorkerHTTPClient` starts it on the first request to a
/// remote provider, with a socket as its stdin and stdout, and talks `WorkerMessage` lines over it. It runs
/// each request through `URLSessionHTTPClient`, so that FoundationNetworking is loaded here and never in the
/// sidecar itself. Not meant to be run by hand.
@main
enum HTTPWorker {
  static func main() {
    // Its memory holds the requests it sends (passwords, tokens): never in a core file or a crash report.
    ProcessHardening.disableCoreDumps()
    ProcessHardening.installCrashReport(program: "auth-sidecar-http")
    // Then, before any thread exists (`unsetenv` is not thread-safe) and before FoundationNetworking's
    // first transfer reads them: they would dump every header, tokens and cookies included, to stderr.
    HTTPEnvironment.scrubDebugVariables()
    // Die with the sidecar, even one killed -9. End of input on stdin is the other way out, and covers a
    // sidecar that died before this line ran.
    _ = auth_set_parent_death_signal(SIGKILL)
    // A vanished sidecar must be an EPIPE on write, then an exit, not a signal mid-write.
    signal(SIGPIPE, SIG_IGN)

    // The hello line is small; requests are bounded only by what the sidecar sends, which it built itself.
    var input = LineReader(fd: STDIN_FILENO, maxLineBytes: Int(Int32.max))
    guard case .line(let first) = input.next() else { _exit(0) }
    guard case .hello(let policy, let level)? = try? WorkerMessage(line: first) else {
      Logger.standardError("auth-sidecar-http: the first line was not a hello this build understands\n")
      _exit(2)
    }
    let output = WorkerOutput(fd: STDOUT_FILENO)
    let log = Logger(level: level, sink: output.forwardLog)
    let server = WorkerServer(client: URLSessionHTTPClient(policy: policy, log: log), output: output, log: log)
    while true {
      switch input.next() {
      case .line(let line): server.handle(line)
      case .tooLong: log.error("http worker: skipped an over-long line")
      // The sidecar closed its end or died: nobody is left to answer. `_exit`, not `exit`: transfers are
      // still running on other threads, and atexit handlers would tear libcurl down under them.
      case .end: _exit(0)
      }
    }
  }
}
