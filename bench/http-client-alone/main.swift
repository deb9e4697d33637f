import AuthHTTP
import AuthJSON
import AuthSupport
import Dispatch

// auth-http-bench: the sidecar's HTTP client and nothing else of the sidecar, for bench/remote_login.py's third
// side. One JSON request per stdin line, `{"method", "url", "headers": [[name, value]], "body"?}` (bodies are
// UTF-8 text), answered by one line `{"status", "body"}` on stdout, one request at a time. Not installed.
#if canImport(Glibc)
  import Glibc
#endif

func request(_ line: String) -> HTTPRequest? {
  guard let object = (try? JSONParser.parse(line))?.objectValue, let method = object["method"]?.stringValue.flatMap(HTTPMethod.init(rawValue:)),
    let url = object["url"]?.stringValue
  else { return nil }
  let headers = (object["headers"]?.arrayValue ?? []).compactMap { pair -> HTTPHeader? in
    guard let parts = pair.arrayValue, parts.count == 2, let name = parts[0].stringValue,
      let value = parts[1].stringValue
    else { return nil }
    return HTTPHeader(name, value)
  }
  return HTTPRequest(
    method: method, url: url, headers: headers, body: object["body"]?.stringValue.map { Array($0.utf8) })
}

let client = CurlHTTPClient(log: .disabled)
// Detached: top-level code runs on the main actor, which `done.wait()` blocks.
let done = DispatchSemaphore(value: 0)
while let line = readLine() {
  guard let request = request(line) else { fatalError("not a request line") }
  // On the HTTP thread once the first request started it, as the sidecar runs a remote request's task; and, as
  // the sidecar's reader does, this thread runs the task up to its first wait, so the request is sent from here
  // and only its answer wakes the HTTP thread.
  let executor = CurlHTTPClient.preferredExecutor
  startHere(on: executor) { run(request, with: client, on: executor, then: done) }
  done.wait()
}

func startHere(on executor: (any TaskExecutor)?, _ start: () -> Void) {
  guard let starting = executor as? any StartingThreadExecutor else { return start() }
  starting.startHere(start)
}

func run(
  _ request: HTTPRequest, with client: CurlHTTPClient, on executor: (any TaskExecutor)?, then done: DispatchSemaphore
) {
  Task.detached(executorPreference: executor) {
    let answer: JSONValue
    do {
      let response = try await client.send(request)
      answer = .object(["status": .number(JSONNumber(response.status)), "body": .string(response.text)])
    } catch {
      answer = .object(["status": .number(JSONNumber(0)), "body": .string("\(error)")])
    }
    // One unbuffered write per answer: the bench reads it at once.
    let line = JSONWriter.encode(answer) + [UInt8(ascii: "\n")]
    _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    done.signal()
  }
}

extension HTTPResponse {
  var text: String { String(decoding: body, as: UTF8.self) }
}
