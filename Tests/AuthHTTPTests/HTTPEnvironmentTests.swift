import Foundation
import Testing

@testable import AuthHTTP

extension LiveServerTests {
  @Suite struct HTTPEnvironmentTests {
    @Test func scrubRemovesTheTrafficDumpingVariables() {
      for name in HTTPEnvironment.debugVariables { setenv(name, "1", 1) }
      #expect(HTTPEnvironment.hasDebugVariables)
      HTTPEnvironment.scrubDebugVariables()
      #expect(!HTTPEnvironment.hasDebugVariables)
      #expect(HTTPEnvironment.debugVariables.allSatisfy { ProcessInfo.processInfo.environment[$0] == nil })
    }
  }
}
