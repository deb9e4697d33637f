import Testing

@testable import AuthProviders

/// The rest provider's memory of pending step-ups: who a challenge is for, until it expires, is spent, or is
/// pushed out by a flood of newer ones.
@Suite struct RESTChallengesTests {
  static let phone = LoginAccount(kind: .phone, text: "+8613900139001")

  @Test func aChallengeIsKnownUntilItExpiresOrIsSpent() {
    let challenges = RESTChallenges()
    challenges.remember("ch_one", account: Self.phone, until: 100, now: 0)
    #expect(challenges.account(for: "ch_one", now: 99) == Self.phone)
    #expect(challenges.account(for: "ch_one", now: 100) == nil, "expired")
    #expect(challenges.account(for: "ch_two", now: 0) == nil, "never seen")
    challenges.forget("ch_one")
    #expect(challenges.account(for: "ch_one", now: 0) == nil, "spent")
  }

  @Test func aFloodOfStepUpsKeepsTheNewestWithinTheCapacity() {
    let challenges = RESTChallenges()
    for index in 0...RESTChallenges.capacity {
      challenges.remember("ch_\(index)", account: Self.phone, until: Int64(1000 + index), now: 0)
    }
    #expect(challenges.account(for: "ch_0", now: 0) == nil, "the soonest to expire made room")
    #expect(challenges.account(for: "ch_1", now: 0) == Self.phone)
    #expect(challenges.account(for: "ch_\(RESTChallenges.capacity)", now: 0) == Self.phone)
  }
}
