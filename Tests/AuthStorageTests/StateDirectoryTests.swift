import Foundation
import Testing

@testable import AuthStorage

@Suite struct StateDirectoryTests {
  @Test func resolutionOrder() throws {
    let all = [
      "AUTH_SIDECAR_STATE_DIR": "/env/dir", "XDG_STATE_HOME": "/xdg", "HOME": "/home/u",
    ]
    #expect(try StateDirectory.resolvePath(explicitPath: "/explicit/", environment: all) == "/explicit")
    #expect(try StateDirectory.resolvePath(explicitPath: nil, environment: all) == "/env/dir")
    #expect(try StateDirectory.resolvePath(explicitPath: "", environment: all) == "/env/dir")
    var environment = all
    environment["AUTH_SIDECAR_STATE_DIR"] = ""
    #expect(try StateDirectory.resolvePath(explicitPath: nil, environment: environment) == "/xdg/auth-sidecar")
    environment["XDG_STATE_HOME"] = "relative/ignored"
    #expect(
      try StateDirectory.resolvePath(explicitPath: nil, environment: environment) == "/home/u/.local/state/auth-sidecar"
    )
    environment["HOME"] = nil
    let error = storageError { try StateDirectory.resolvePath(explicitPath: nil, environment: environment) }
    #expect(error?.code == .invalidConfiguration)
  }

  @Test func relativeExplicitPathBecomesAbsolute() throws {
    let resolved = try StateDirectory.resolvePath(explicitPath: "some/dir", environment: [:])
    #expect(resolved.hasPrefix("/") && resolved.hasSuffix("/some/dir"))
  }

  @Test func createsMissingParentsAndTheDirectoryAs0700() throws {
    try withTemporaryDirectory { parent in
      let path = parent + "/a/b/state"
      let directory = try withUmask(0) { try StateDirectory(path: path) }
      #expect(directory.path == path)
      #expect(mode(path) == 0o700)
      #expect(mode(parent + "/a") == 0o755)
      #expect(directory.notes.isEmpty)
    }
  }

  @Test func tightensALooseDirectoryAndSaysSo() throws {
    try withTemporaryDirectory { parent in
      let path = parent + "/state"
      mkdir(path, 0o755)
      chmod(path, 0o755)
      let directory = try StateDirectory(path: path)
      #expect(mode(path) == 0o700)
      #expect(directory.notes.count == 1)
      #expect(directory.notes.first?.contains("0755") == true)
    }
  }

  @Test func refusesASymlink() throws {
    try withTemporaryDirectory { parent in
      mkdir(parent + "/real", 0o700)
      symlink(parent + "/real", parent + "/state")
      let error = storageError { try StateDirectory(path: parent + "/state") }
      #expect(error?.code == .unavailable)
      #expect(error?.message.contains("symlink") == true)
    }
  }

  @Test func refusesAFile() throws {
    try withTemporaryDirectory { parent in
      writeFile(parent + "/state", [])
      let error = storageError { try StateDirectory(path: parent + "/state") }
      #expect(error?.code == .unavailable)
      #expect(error?.message.contains("not a directory") == true)
    }
  }

  @Test func refusesADirectoryOwnedBySomeoneElse() throws {
    try withTemporaryDirectory { parent in
      let path = parent + "/state"
      mkdir(path, 0o700)
      // We run as root in CI, so chown works; elsewhere this test has nothing to check.
      guard chown(path, 12345, 12345) == 0 else { return }
      let error = storageError { try StateDirectory(path: path) }
      #expect(error?.code == .unavailable)
      #expect(error?.message.contains("12345") == true)
      #expect(mode(path) == 0o700)
    }
  }
}
