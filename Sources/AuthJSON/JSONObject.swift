/// A JSON object: members in document order.
///
/// Lookups are linear on purpose: protocol objects have a handful of keys, and a scan over
/// a small array beats hashing every key of every request.
package struct JSONObject: Sendable, Equatable {
  package struct Member: Sendable, Equatable {
    package var key: String
    package var value: JSONValue
    package init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  package private(set) var members: [Member]
  /// True when the document repeated a key. RFC 8259 says names SHOULD be unique and leaves
  /// the meaning of repeats to implementations; callers reject such objects instead of guessing.
  package private(set) var hasDuplicateKeys: Bool

  package init() {
    members = []
    hasDuplicateKeys = false
  }


  package mutating func reserveCapacity(_ count: Int) { members.reserveCapacity(count) }

  /// Appends a member the caller knows is new (no lookup).
  package mutating func appendNew(key: String, value: JSONValue) {
    members.append(Member(key: key, value: value))
  }

  /// Appends a member as it was read, recording a repeated key instead of replacing it.
  package mutating func appendParsed(key: String, value: JSONValue) {
    if !hasDuplicateKeys, members.contains(where: { $0.key == key }) { hasDuplicateKeys = true }
    members.append(Member(key: key, value: value))
  }

  package var count: Int { members.count }
  package var keys: [String] { members.map(\.key) }

  /// The first member with this key; setting replaces it in place or appends it.
  package subscript(key: String) -> JSONValue? {
    get {
      for member in members where member.key == key { return member.value }
      return nil
    }
    set {
      if let index = members.firstIndex(where: { $0.key == key }) {
        if let newValue { members[index].value = newValue } else { members.remove(at: index) }
      } else if let newValue {
        members.append(Member(key: key, value: newValue))
      }
    }
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// Literal keys are written by us and distinct, so they are appended without lookups:
  /// answers are built from literals on the hot path.
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    members = elements.map { Member(key: $0.0, value: $0.1) }
    hasDuplicateKeys = false
  }
}
