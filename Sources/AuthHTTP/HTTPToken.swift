/// RFC 9110 §5.6.2 `token`: one or more of ``!#$%&'*+-.^_`|~``, digits and letters. Method names, header
/// names, auth schemes and cookie names are tokens; anything else would not survive the trip (or would let a
/// value start a header of its own).
package enum HTTPToken {
  package static func isValid(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "A")...UInt8(ascii: "Z"):
          true
        default:
          "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
      }
  }
}
