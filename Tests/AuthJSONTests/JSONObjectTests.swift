import Testing

@testable import AuthJSON

@Suite struct JSONObjectTests {
  @Test func literalKeepsOrder() {
    let object: JSONObject = ["b": 1, "a": 2, "c": 3]
    #expect(object.keys == ["b", "a", "c"])
    #expect(object.count == 3)
    #expect(!object.hasDuplicateKeys)
  }

  @Test func settingAnExistingKeyReplacesInPlace() {
    var object: JSONObject = ["b": 1, "a": 2, "c": 3]
    object["a"] = "x"
    #expect(object.keys == ["b", "a", "c"])
    #expect(object["a"] == "x")
  }

  @Test func settingANewKeyAppends() {
    var object: JSONObject = ["b": 1]
    object["a"] = true
    #expect(object.keys == ["b", "a"])
    #expect(JSONWriter.string(.object(object)) == #"{"b":1,"a":true}"#)
  }

  @Test func removingKeepsTheOthersInOrder() {
    var object: JSONObject = ["b": 1, "a": 2, "c": 3, "d": 4]
    object["a"] = nil
    #expect(object.keys == ["b", "c", "d"])
    object["zzz"] = nil
    #expect(object.keys == ["b", "c", "d"], "removing a missing key does nothing")
    object["a"] = 5
    #expect(object.keys == ["b", "c", "d", "a"], "a removed key comes back at the end")
  }

  @Test func settingNullIsNotRemoving() {
    var object: JSONObject = ["a": 1]
    object["a"] = .some(.null)
    #expect(object.keys == ["a"])
    #expect(object["a"] == .some(.null))
  }

  @Test func appendNewAppendsWithoutLookup() {
    var object: JSONObject = ["a": 1]
    object.reserveCapacity(8)
    object.appendNew(key: "b", value: 2)
    #expect(object.keys == ["a", "b"])
    #expect(object["b"] == 2)
    #expect(!object.hasDuplicateKeys)
  }

  @Test func appendParsedFlagsRepeatsAndKeepsBoth() {
    var object = JSONObject()
    object.appendParsed(key: "a", value: 1)
    object.appendParsed(key: "b", value: 2)
    #expect(!object.hasDuplicateKeys)
    object.appendParsed(key: "a", value: 3)
    #expect(object.hasDuplicateKeys)
    #expect(object.keys == ["a", "b", "a"])
    #expect(object["a"] == 1)
  }

  @Test func equalityIsOrderSensitive() {
    let ab: JSONObject = ["a": 1, "b": 2]
    let ab2: JSONObject = ["a": 1, "b": 2]
    let ba: JSONObject = ["b": 2, "a": 1]
    #expect(ab == ab2)
    #expect(ab != ba)
  }

  @Test func valueAccessorsAndTypeNames() {
    let values: [JSONValue] = [nil, true, 1, "s", [], .object([:])]
    #expect(values.map(\.typeName) == ["null", "boolean", "number", "string", "array", "object"])
    #expect(JSONValue.string("s").stringValue == "s")
    #expect(JSONValue.bool(true).boolValue == true)
    #expect(JSONValue.array([1]).arrayValue == [1])
    #expect(JSONValue.number(JSONNumber(1)).stringValue == nil)
    #expect(JSONValue.null.objectValue == nil)
  }
}
