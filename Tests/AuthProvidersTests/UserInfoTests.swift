import AuthJSON
import Testing

@testable import AuthProviders

@Suite struct UserInfoTests {
  @Test func jsonPutsTheStandardMembersFirstAndKeepsExtras() {
    let user = UserInfo(
      id: "u1", username: "alice", email: "a@example.com", displayName: "Alice",
      extra: ["roles": ["admin"], "id": "spoofed", "locale": "en"])
    let json = user.json
    #expect(json.keys == ["id", "username", "email", "displayName", "roles", "locale"])
    #expect(json["id"] == "u1")
    #expect(json["phone"] == nil)
  }

  @Test(arguments: [
    UserInfo(id: "u1", username: "alice"),
    UserInfo(id: "u2", username: "bob", email: "b@example.com", phone: "+15555550100", displayName: "Bob"),
    UserInfo(id: "u3", username: "carol", extra: ["roles": ["a", "b"], "verified": true]),
  ])
  func jsonRoundTrips(_ user: UserInfo) throws {
    let parsed = try JSONParser.parse(JSONWriter.encode(.object(user.json)))
    #expect(UserInfo(json: try #require(parsed.objectValue)) == user)
  }

  @Test(arguments: [[:], ["id": "u1"], ["username": "alice"], ["id": 1, "username": "alice"]] as [JSONObject])
  func jsonWithoutAStringIDAndUsernameIsNoUser(_ object: JSONObject) {
    #expect(UserInfo(json: object) == nil)
  }
}
