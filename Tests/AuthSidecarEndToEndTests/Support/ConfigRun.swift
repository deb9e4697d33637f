import Foundation

extension StateFixture {
  /// Starts the real binary on `config` (written into this fixture), closes its stdin at once and waits: for
  /// tests of what the sidecar does with a config before serving anything.
  /// - Returns: the exit status and all of stderr.
  func run(config: String) throws -> (status: Int32, stderr: String) {
    let path = root + "/config.json"
    try Data(config.utf8).write(to: URL(fileURLWithPath: path))
    let live = try LiveSidecar(
      ["--config", path], environment: environment, workingDirectory: workingDirectory, captureStderr: true)
    let status = live.finish()
    return (status, live.stderrText())
  }
}
