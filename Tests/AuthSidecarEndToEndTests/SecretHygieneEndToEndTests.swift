import Foundation
import Testing

extension StorageBarSuites {
  /// The product's promise: no secret ever appears in stdout outside its field, in stderr at any log level, in
  /// argv, or in any file except the encrypted store (a leaked log, core file or `ps` line must give nothing away).
  ///
  /// Canaries: unique `CANARY-<uuid>` passwords. Secrets collected: the canaries, every access token the
  /// sidecar answered, and every refresh token it stored (those never leave the sidecar, so the test decrypts
  /// them out of the store with the store key). Then stdout, stderr (at trace level), every file under the
  /// test's root (state dir with db, -wal, -shm, key and locks; config and XDG homes; the sidecar's working
  /// directory), /proc/<pid>/cmdline and /proc/<pid>/environ are searched for them.
  @Suite(.serialized) struct SecretHygieneEndToEndTests {
    static func canary() -> String { "CANARY-\(UUID().uuidString)" }

    /// The secrets to look for, each with a label for the failure message.
    struct Secrets {
      var canaries: [String: String] = [:]  // label → canary
      var accessTokens: Set<String> = []
      var refreshTokens: Set<String> = []

      /// Every secret, plus each access token's signature segment (unique by itself, so a token split or
      /// re-encoded around it is still caught).
      var all: [(label: String, value: String)] {
        var found = canaries.map { ($0.key, $0.value) }
        for token in accessTokens {
          found.append(("access token …\(token.suffix(8))", token))
          if let signature = token.split(separator: ".").last, signature.count >= 40 {
            found.append(("access token signature …\(signature.suffix(8))", String(signature)))
          }
        }
        for token in refreshTokens { found.append(("refresh token …\(token.suffix(4))", token)) }
        return found
      }

      /// Everything except the access tokens (which may appear in stdout, in `accessToken` fields only).
      var neverInStdout: [(label: String, value: String)] {
        canaries.map { ($0.key, $0.value) } + refreshTokens.map { ("refresh token …\($0.suffix(4))", $0) }
      }
    }

    /// The labels of the secrets found in `bytes`.
    static func leaks(in bytes: Data, of secrets: [(label: String, value: String)]) -> [String] {
      secrets.filter { bytes.range(of: Data($0.value.utf8)) != nil }.map(\.label)
    }

    static func leaks(in text: String, of secrets: [(label: String, value: String)]) -> [String] {
      leaks(in: Data(text.utf8), of: secrets)
    }

    /// Every file under the fixture's root that holds a secret in clear.
    static func fileLeaks(_ fixture: StateFixture, _ secrets: Secrets) -> [String] {
      let files = StateFixture.files(under: fixture.root)
      return files.flatMap { file in
        leaks(in: file.bytes, of: secrets.all).map { "\(file.path): \($0)" }
      }
    }

    /// Walks every answer on stdout: a string outside an `accessToken` field must hold no secret at all; an
    /// `accessToken` field must hold one of the issued tokens (and nothing else).
    static func stdoutFieldLeaks(_ lines: [String], _ secrets: Secrets) -> [String] {
      var problems: [String] = []
      func walk(_ value: Any, key: String, path: String) {
        switch value {
        case let object as [String: Any]:
          for (name, child) in object { walk(child, key: name, path: path + "." + name) }
        case let array as [Any]:
          for (index, child) in array.enumerated() { walk(child, key: key, path: path + "[\(index)]") }
        case let string as String:
          if key == "accessToken" {
            if !secrets.accessTokens.contains(string) { problems.append("\(path): an accessToken never recorded") }
          } else {
            let everything = secrets.neverInStdout + secrets.accessTokens.map { ("access token …\($0.suffix(8))", $0) }
            for leak in leaks(in: string, of: everything) { problems.append("\(path): \(leak)") }
          }
        default: break
        }
      }
      for (index, line) in lines.enumerated() {
        guard let message = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else {
          problems.append("stdout line \(index) is not JSON")
          continue
        }
        walk(message, key: "", path: "line\(index)")
      }
      return problems
    }

    @Test func aWholeSessionAtTraceLevelLeaksNoSecret() throws {
      let fixture = try StateFixture("hygiene")
      defer { fixture.remove() }
      var secrets = Secrets()
      let password = Self.canary()
      let wrongPassword = Self.canary()
      let validatedPassword = Self.canary()
      let malformedPassword = Self.canary()
      secrets.canaries = [
        "password": password, "wrong password": wrongPassword, "validated password": validatedPassword,
        "malformed-request password": malformedPassword,
      ]
      let username = "hygiene_user"

      let sidecar = try LiveSidecar(
        ["--log-level", "trace"] + StateFixture.cheapKDF, environment: fixture.environment,
        workingDirectory: fixture.workingDirectory, captureStderr: true)
      var stdout: [String] = []
      /// Sends one line and reads up to the answer with `id` (notifications on the way are kept too).
      func exchange(_ line: String, id: Int?) -> [String: Any] {
        sidecar.send(line)
        while let text = sidecar.readLine(timeout: 30) {
          stdout.append(text)
          let message = SidecarProcess.json(text)
          if message["method"] == nil, id == nil || message["id"] as? Int == id { return message }
        }
        Issue.record("no answer to \(id.map(String.init) ?? "a malformed line")")
        return [:]
      }
      func call(_ id: Int, _ method: String, _ params: [String: Any] = [:]) -> [String: Any] {
        exchange(RPCLine.line(id, method, params), id: id)
      }
      func recordTokens(_ answer: [String: Any]) throws {
        if let token = answer.accessToken { secrets.accessTokens.insert(token) }
        if let refresh = try StoreInspector.refreshToken(stateDirectory: fixture.stateDirectory) {
          secrets.refreshTokens.insert(refresh)
        }
      }

      let registered = call(
        1, "register", ["username": username, "password": password, "email": "hygiene@example.com"])
      #expect(registered.result != nil, "register: \(registered)")
      let login = call(2, "login", ["username": username, "password": password])
      #expect(login.accessToken != nil, "login: \(login)")
      try recordTokens(login)

      // The running process, with every secret in memory: argv and environment hold none of them.
      let argv = sidecar.commandLine(once: "--log-level trace")
      #expect(argv.contains("--log-level trace"), "argv: \(argv)")
      #expect(Self.leaks(in: argv, of: secrets.all).isEmpty, "argv: \(argv)")
      #expect(Self.leaks(in: sidecar.environmentBlock, of: secrets.all).isEmpty, "environ leaks a secret")

      #expect(call(3, "getUser").result != nil)
      let fetched = call(4, "getUser", ["refresh": true])
      #expect(fetched.result != nil, "getUser refresh: \(fetched)")
      try recordTokens(fetched)
      let refreshed = call(5, "refreshToken", ["force": true])
      #expect(refreshed.accessToken != nil, "refreshToken: \(refreshed)")
      try recordTokens(refreshed)
      #expect(secrets.refreshTokens.count == 2, "the forced refresh rotated the refresh token")

      let wrong = call(6, "login", ["username": username, "password": wrongPassword])
      #expect(wrong.errorKind == "invalid_credentials", "wrong password: \(wrong)")
      let validated = call(7, "validate", ["username": username, "password": validatedPassword])
      #expect(validated.result != nil, "validate: \(validated)")
      let validatedLogin = call(8, "validate", ["account": username, "password": password, "purpose": "login"])
      #expect(validatedLogin.result?["valid"] as? Bool == true, "validate login: \(validatedLogin)")
      // Malformed and refused requests that carry a canary: the errors must not quote it.
      let unterminated = exchange(
        #"{"jsonrpc":"2.0","id":9,"method":"login","params":{"username":"\#(username)","password":"\#(malformedPassword)""#,
        id: nil)
      #expect((unterminated["error"] as? [String: Any])?["code"] as? Int == -32700, "\(unterminated)")
      let unknownParameter = call(
        10, "login", ["username": username, "password": malformedPassword, "remember": malformedPassword])
      #expect(unknownParameter.errorKind != nil, "\(unknownParameter)")
      let wrongType = exchange(
        #"{"jsonrpc":"2.0","id":11,"method":"login","params":{"username":["\#(malformedPassword)"],"password":"\#(malformedPassword)"}}"#,
        id: 11)
      #expect(wrongType["error"] != nil, "\(wrongType)")
      let taken = call(12, "register", ["username": username, "password": malformedPassword])
      #expect(taken.errorKind != nil, "\(taken)")
      let badUTF8 = exchange(
        #"{"jsonrpc":"2.0","id":13,"method":"login","params":{"username":"\#(username)","password":"\#(malformedPassword)\ud800"}}"#,
        id: nil)
      #expect(badUTF8["error"] != nil, "\(badUTF8)")

      // While the sidecar is still up (the -wal holds the latest pages), no file holds a secret in clear.
      let whileRunning = Self.fileLeaks(fixture, secrets)
      #expect(whileRunning.isEmpty, "while running: \(whileRunning)")

      let logout = call(14, "logout")
      #expect(logout.result?["loggedOut"] as? Bool == true, "logout: \(logout)")
      let afterLogout = call(15, "getUser")
      #expect(afterLogout.errorKind == "not_logged_in", "\(afterLogout)")
      #expect(sidecar.finish() == 0)
      let stderr = sidecar.stderrText()

      // stdout: access tokens only in their field; no canary, no refresh token anywhere.
      let stdoutText = stdout.joined(separator: "\n")
      #expect(
        Self.leaks(in: stdoutText, of: secrets.neverInStdout).isEmpty,
        "stdout: \(Self.leaks(in: stdoutText, of: secrets.neverInStdout))")
      let misplaced = Self.stdoutFieldLeaks(stdout, secrets)
      #expect(misplaced.isEmpty, "stdout outside accessToken: \(misplaced)")
      // Error messages (checked above as part of stdout, and here on their own for a precise failure).
      let errorAnswers = stdout.map(SidecarProcess.json).filter { $0["error"] != nil }
      #expect(errorAnswers.count >= 6)
      for answer in errorAnswers {
        let text = RPCLine.json(answer)
        #expect(Self.leaks(in: text, of: secrets.all).isEmpty, "error answer leaks: \(text)")
      }
      // stderr at trace level: logged something, leaked nothing.
      #expect(!stderr.isEmpty, "trace level wrote nothing to stderr")
      let stderrLeaks = Self.leaks(in: stderr, of: secrets.all)
      #expect(stderrLeaks.isEmpty, "stderr: \(stderrLeaks)")
      // Files after exit (the -wal checkpointed into the db), and nothing left in the working directory.
      let afterExit = Self.fileLeaks(fixture, secrets)
      #expect(afterExit.isEmpty, "after exit: \(afterExit)")
      let droppings = (try? FileManager.default.contentsOfDirectory(atPath: fixture.workingDirectory)) ?? []
      #expect(droppings.isEmpty, "files left in the working directory: \(droppings)")
      #expect(secrets.accessTokens.count >= 2)
      let scanned = StateFixture.files(under: fixture.stateDirectory).map {
        URL(fileURLWithPath: $0.path).lastPathComponent
      }
      #expect(scanned.contains("store.sqlite3") && scanned.contains("store.key"), "scanned \(scanned)")
    }

    /// `users add` takes the password on stdin (never argv) and stores only its hash; `call … -` passes a
    /// password the same way.
    @Test func passwordsFromStdinReachNoArgvAndNoFile() throws {
      let fixture = try StateFixture("hygiene-users")
      defer { fixture.remove() }
      var secrets = Secrets()
      let password = Self.canary()
      secrets.canaries = ["users add password": password]
      let username = "stdin_user"

      let adder = try LiveSidecar(
        ["users", "add", username, "--email", "stdin@example.com", "--display-name", "Stdin User"]
          + StateFixture.cheapKDF,
        environment: fixture.environment, workingDirectory: fixture.workingDirectory, captureStderr: true)
      // The process is waiting for its password: argv is final and must not hold it (it could not, but a
      // future option that takes one would fail here).
      let argv = adder.commandLine(once: "users add \(username)")
      #expect(argv.contains("users add \(username)"), "argv: \(argv)")
      adder.write(Data((password + "\n").utf8))
      adder.closeInput()
      let added = adder.readToEnd()
      #expect(adder.finish() == 0, "users add failed: \(adder.stderrText())")
      let addStderr = adder.stderrText()
      #expect((SidecarProcess.json(added.first ?? ""))["username"] as? String == username, "\(added)")
      #expect(Self.leaks(in: argv, of: secrets.all).isEmpty, "argv: \(argv)")
      #expect(Self.leaks(in: added.joined(separator: "\n") + addStderr, of: secrets.all).isEmpty, "users add output")

      // The password arrived intact: it logs in, through `call login -` (params on stdin, not argv).
      let caller = try LiveSidecar(
        ["call", "login", "-", "--log-level", "trace"] + StateFixture.cheapKDF, environment: fixture.environment,
        workingDirectory: fixture.workingDirectory, captureStderr: true)
      let callArgv = caller.commandLine(once: "call login -")
      #expect(callArgv.contains("call login -"), "call argv: \(callArgv)")
      caller.write(Data(RPCLine.json(["username": username, "password": password]).utf8))
      caller.closeInput()
      let answer = caller.readToEnd()
      #expect(caller.finish() == 0, "login with the users-add password: \(answer)")
      let session = (SidecarProcess.json(answer.first ?? "")["session"] as? [String: Any])
      if let token = session?["accessToken"] as? String { secrets.accessTokens.insert(token) }
      if let refresh = try StoreInspector.refreshToken(stateDirectory: fixture.stateDirectory) {
        secrets.refreshTokens.insert(refresh)
      }
      #expect(secrets.accessTokens.count == 1 && secrets.refreshTokens.count == 1)
      #expect(Self.leaks(in: callArgv, of: secrets.all).isEmpty, "call argv: \(callArgv)")
      #expect(Self.leaks(in: caller.stderrText(), of: secrets.all).isEmpty, "call stderr")
      #expect(Self.leaks(in: answer.joined(separator: "\n"), of: secrets.neverInStdout).isEmpty, "call stdout")

      let files = Self.fileLeaks(fixture, secrets)
      #expect(files.isEmpty, "files: \(files)")
      #expect(FileManager.default.fileExists(atPath: fixture.databasePath))
    }
  }
}
