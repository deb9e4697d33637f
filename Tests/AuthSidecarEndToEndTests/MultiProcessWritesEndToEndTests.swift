import Foundation
import Testing

extension StorageBarSuites {
  /// Many sidecar processes may share one state dir: a writer waits its turn (a busy timeout) instead of failing
  /// with "database is locked". Eight sidecars on one state dir each register 100 accounts of their own and
  /// log each one in, all at the same time: every call succeeds and all 800 accounts are there at the end.
  @Suite(.serialized) struct MultiProcessWritesEndToEndTests {
    static let processes = 8
    static let accountsPerProcess = 100
    /// Requests each process keeps in flight (under the sidecar's default limit of 64).
    static let window = 8

    static func username(_ process: Int, _ index: Int) -> String { "w\(process)_user_\(index)" }
    static func password(_ process: Int, _ index: Int) -> String { "Writes-pw-\(process)-\(index)-Zq" }

    @Test func eightProcessesRegisteringAndLoggingInLoseNoWrite() throws {
      let fixture = try StateFixture("writes")
      defer { fixture.remove() }
      let fleet = try (0..<Self.processes).map { _ in
        try LiveSidecar(
          ["--log-level", "warning"] + StateFixture.cheapKDF, environment: fixture.environment,
          workingDirectory: fixture.workingDirectory, captureStderr: true)
      }
      let failures = Locked<[String]>([])
      let registeredIDs = Locked<[String: String]>([:])  // username → id from the register answer
      let done = DispatchGroup()
      let elapsed = measure {
        for (process, sidecar) in fleet.enumerated() {
          done.enter()
          Thread {
            defer { done.leave() }
            // register u0, login u0, register u1, login u1, …: every login needs the register before it.
            var requests: [(id: Int, line: String)] = []
            for index in 0..<Self.accountsPerProcess {
              let (name, secret) = (Self.username(process, index), Self.password(process, index))
              requests.append(
                (2 * index + 1, RPCLine.line(2 * index + 1, "register", ["username": name, "password": secret])))
              requests.append(
                (2 * index + 2, RPCLine.line(2 * index + 2, "login", ["username": name, "password": secret])))
            }
            var next = 0
            var answered = 0
            while answered < requests.count {
              while next < requests.count, next - answered < Self.window {
                sidecar.send(requests[next].line)
                next += 1
              }
              guard let answer = sidecar.readAnswer(timeout: 60) else {
                failures.withLock { $0.append("process \(process): no answer after \(answered)") }
                return
              }
              answered += 1
              guard let id = answer["id"] as? Int, id >= 1, id <= requests.count else {
                failures.withLock { $0.append("process \(process): stray answer \(answer)") }
                continue
              }
              let index = (id - 1) / 2
              let name = Self.username(process, index)
              guard let result = answer.result, let user = result["user"] as? [String: Any],
                user["username"] as? String == name
              else {
                failures.withLock {
                  $0.append("process \(process) \(id.isMultiple(of: 2) ? "login" : "register") \(name): \(answer)")
                }
                continue
              }
              if !id.isMultiple(of: 2), let userID = user["id"] as? String {
                registeredIDs.withLock { $0[name] = userID }
              } else if id.isMultiple(of: 2), (result["session"] as? [String: Any])?["accessToken"] == nil {
                failures.withLock { $0.append("process \(process) login \(name): no session") }
              }
            }
          }.start()
        }
        done.wait()
      }
      for (index, sidecar) in fleet.enumerated() {
        #expect(sidecar.finish() == 0, "process \(index) exit")
        // Contention is waited out (busy timeout), never reported, not even as a warning.
        let stderr = sidecar.stderrText()
        #expect(
          !stderr.contains("locked") && !stderr.contains("busy"), "process \(index) stderr: \(stderr.suffix(500))")
      }
      let problems = failures.withLock { $0 }
      #expect(problems.isEmpty, "\(problems.count) failed calls, first: \(problems.prefix(5))")

      // Every account is in the store, with the id its register answer gave.
      let lister = try LiveSidecar(
        ["users", "list"], environment: fixture.environment, workingDirectory: fixture.workingDirectory)
      lister.closeInput()
      let listed = lister.readToEnd().map(SidecarProcess.json)
      #expect(lister.finish() == 0)
      let stored = Dictionary(
        listed.compactMap { entry in
          (entry["username"] as? String).map { ($0, entry["id"] as? String ?? "") }
        }, uniquingKeysWith: { first, _ in first })
      let expected = registeredIDs.withLock { $0 }
      let total = Self.processes * Self.accountsPerProcess
      #expect(listed.count == total, "users list printed \(listed.count) accounts")
      #expect(expected.count == total)
      #expect(stored == expected, "\(Set(expected.keys).subtracting(stored.keys).count) registered accounts missing")
      #expect(StoreInspector.integrityCheck(fixture.databasePath) == "ok")

      // The store still serves a login of an account written under contention.
      let last = (Self.processes - 1, Self.accountsPerProcess - 1)
      let login = try SidecarCommand.call(
        "login", ["username": Self.username(last.0, last.1), "password": Self.password(last.0, last.1)],
        fixture: fixture)
      #expect(login.status == 0, "\(login.stdout)")
      print(
        "MultiProcessWritesEndToEndTests: \(Self.processes) processes × \(2 * Self.accountsPerProcess) calls "
          + "(\(total) registers + \(total) logins) in \(String(format: "%.2f", elapsed)) s, "
          + "\(problems.count) failures, \(listed.count) accounts listed")
    }
  }
}
