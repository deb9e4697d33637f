import AuthJSON

/// The user as hosts see it: `{id, username, email?, phone?, displayName?, …}`.
///
/// Remote providers may report more about the user; those members are kept in `extra` and
/// passed through after the standard ones. `displayName` is always neutralized (`DisplayName`), whoever set it.
package struct UserInfo: Sendable, Equatable {
  package var id: String
  package var username: String
  package var email: String?
  package var phone: String?
  package private(set) var displayName: String?
  package var extra: JSONObject

  package init(
    id: String, username: String, email: String? = nil, phone: String? = nil, displayName: String? = nil,
    extra: JSONObject = [:]
  ) {
    self.id = id
    self.username = username
    self.email = email
    self.phone = phone
    self.displayName = DisplayName.neutralized(displayName)
    self.extra = extra
  }

  package var json: JSONObject {
    var object: JSONObject = ["id": .string(id), "username": .string(username)]
    if let email { object.appendNew(key: "email", value: .string(email)) }
    if let phone { object.appendNew(key: "phone", value: .string(phone)) }
    if let displayName { object.appendNew(key: "displayName", value: .string(displayName)) }
    for member in extra.members where object[member.key] == nil { object.appendNew(key: member.key, value: member.value) }
    return object
  }

  /// Reads back what `json` wrote (the cached user in the store).
  package init?(json object: JSONObject) {
    guard case .string(let id)? = object["id"], case .string(let username)? = object["username"] else { return nil }
    self.id = id
    self.username = username
    email = object["email"]?.stringValue
    phone = object["phone"]?.stringValue
    // A user cached before names were neutralized is neutralized on the way out.
    displayName = DisplayName.neutralized(object["displayName"]?.stringValue)
    var extra = JSONObject()
    for member in object.members where !["id", "username", "email", "phone", "displayName"].contains(member.key) {
      extra.appendNew(key: member.key, value: member.value)
    }
    self.extra = extra
  }
}
