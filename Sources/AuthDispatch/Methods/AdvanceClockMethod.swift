import AuthJSON
import AuthProtocol
import AuthSupport

/// `test.advanceClock {seconds}`: moves the fixed clock of test mode, so transcripts can
/// cross token expiry. Registered only in test mode.
package struct AdvanceClockMethod: AsyncMethod {
  package static let name = "test.advanceClock"
  package let ordering = SessionOrdering.independent

  private let clock: ManualClock

  package init(clock: ManualClock) { self.clock = clock }

  package func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(["seconds"])
    guard case .number(let number)? = params.object["seconds"], let seconds = number.int64Value,
      (0...31_536_000).contains(seconds)
    else { throw RPCError.invalidParams("\"seconds\" must be an integer from 0 to 31536000", field: "seconds") }
    clock.advance(by: seconds)
    return .object(["now": .string(RFC3339.format(clock.now()))])
  }
}
