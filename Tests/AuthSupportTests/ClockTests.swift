import AuthSupport
import Testing

@Suite struct ClockTests {
  @Test func manualClockOnlyMovesWhenAdvanced() {
    let clock = ManualClock(1_000)
    #expect(clock.now() == 1_000)
    clock.advance(by: 61)
    #expect(clock.now() == 1_061)
  }

  @Test func systemClockIsAfter2025() {
    #expect(SystemClock().now() > 1_735_689_600)
  }

  @Test func loggerFiltersByLevelAndNeverWritesBelowIt() {
    final class Lines: @unchecked Sendable {
      // Appended only from the test's own thread.
      var items: [String] = []
    }
    let lines = Lines()
    let logger = Logger(level: .info, sink: { lines.items.append($0) })
    logger.debug("hidden")
    logger.info("shown")
    logger.error("also shown")
    #expect(lines.items == ["auth-sidecar[info]: shown\n", "auth-sidecar[error]: also shown\n"])
  }
}
