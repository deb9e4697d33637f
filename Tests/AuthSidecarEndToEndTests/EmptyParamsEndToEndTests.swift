import Foundation
import Testing

/// `"params": []` is "no params" for every method, because Neovim's JSON encoder (and other Lua and
/// PHP encoders) writes an empty table as `[]`; an array with anything in it is still invalid params.
@Suite struct EmptyParamsEndToEndTests {
  @Test func anEmptyArrayActsAsAbsentParamsAndAnythingInItStaysInvalid() throws {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("empty-params-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: state) }
    let account = #""username":"alice","password":"correct horse battery staple""#
    let requests = [
      #"{"jsonrpc":"2.0","id":0,"method":"register","params":{\#(account)}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"login","params":{\#(account)}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"getUser","params":[]}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"status","params":[]}"#,
      #"{"jsonrpc":"2.0","id":4,"method":"rpc.discover","params":[]}"#,
      #"{"jsonrpc":"2.0","id":5,"method":"status","params":[1]}"#,
      #"{"jsonrpc":"2.0","id":6,"method":"status","params":[{}]}"#,
      #"{"jsonrpc":"2.0","id":7,"method":"logout","params":[]}"#,
      #"{"jsonrpc":"2.0","id":8,"method":"getUser","params":[]}"#,
    ]
    let output = try SidecarProcess.runLockstep(
      ["--test-clock", "2027-01-01T00:00:00Z", "--test-kdf-iterations", "1000", "--state-dir", state.path],
      input: Data((requests.joined(separator: "\n") + "\n").utf8),
      environment: ["AUTH_SIDECAR_TEST_MODE": "1"])
    var answers: [Int: [String: Any]] = [:]
    for line in output.lines {
      let message = SidecarProcess.json(line)
      if let id = message["id"] as? Int { answers[id] = message }
    }
    func kind(_ id: Int) -> String? {
      ((answers[id]?["error"] as? [String: Any])?["data"] as? [String: Any])?["kind"] as? String
    }
    func result(_ id: Int) -> [String: Any]? { answers[id]?["result"] as? [String: Any] }

    #expect(answers.count == requests.count, "\(output.lines)")
    #expect(result(1)?["session"] != nil)
    #expect((result(2)?["user"] as? [String: Any])?["username"] as? String == "alice", "the default profile's user")
    #expect(result(3)?["version"] != nil)
    #expect(result(4)?["openrpc"] != nil)
    #expect(kind(5) == "invalid_params")
    #expect(kind(6) == "invalid_params")
    #expect(result(7)?["loggedOut"] as? Bool == true)
    #expect(kind(8) == "not_logged_in", "the logout with [] params ended the default profile's session")
  }
}
