import Testing

@testable import AuthHTTP

@Suite struct BackoffTests {
  let backoff = Backoff(HTTPPolicy())

  @Test func ceilingsDoubleFromTheBaseUpToTheCap() {
    let ceilings = (1...8).map { backoff.ceiling(afterFailures: $0) }
    #expect(
      ceilings == [
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4),
        .seconds(4),
      ])
    #expect(backoff.ceiling(afterFailures: 10_000) == .seconds(4))
  }

  @Test func fullJitterSpansZeroToTheCeiling() {
    #expect(backoff.delay(afterFailures: 3, unit: 0) == .zero)
    #expect(backoff.delay(afterFailures: 3, unit: 0.5) == .milliseconds(500))
    #expect(backoff.delay(afterFailures: 3, unit: 1) == .seconds(1))
    #expect(backoff.delay(afterFailures: 3, unit: 7) == .seconds(1))
    let random = (0..<200).map { _ in backoff.delay(afterFailures: 2) }
    #expect(random.allSatisfy { $0 >= .zero && $0 <= .milliseconds(500) })
    #expect(Set(random.map(\.components.attoseconds)).count > 100)
  }
}
