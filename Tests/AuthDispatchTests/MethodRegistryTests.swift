import AuthValidation
import Testing

@testable import AuthDispatch

@Suite struct MethodRegistryTests {
  @Test func namesAreSortedAndLookupsKnowHowAMethodRuns() {
    var registry = MethodRegistry()
    registry.register(DiscoverMethod())
    registry.register(ValidateMethod(validators: ServerHarness.validators))
    registry.register(SleepMethod())
    #expect(registry.names == ["rpc.discover", "sleep", "validate"])
    if case .inline? = registry["validate"] {} else { Issue.record("validate runs inline") }
    if case .async? = registry["sleep"] {} else { Issue.record("sleep runs in a task") }
    #expect(registry["missing"] == nil)
  }
}
