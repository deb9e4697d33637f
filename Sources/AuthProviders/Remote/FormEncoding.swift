/// `application/x-www-form-urlencoded` serialization (WHATWG URL standard, as RFC 6749 Appendix B
/// requires): `*-._` and ASCII alphanumerics as they are, space as `+`, every other byte as `%XX`.
/// One implementation for every remote provider's form bodies.
enum FormEncoding {
  private static let hex = Array("0123456789ABCDEF".utf8)

  static func encode(_ input: some Sequence<UInt8>, into out: inout [UInt8]) {
    for byte in input {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"):
        out.append(byte)
      case UInt8(ascii: " "):
        out.append(UInt8(ascii: "+"))
      default:
        out.append(UInt8(ascii: "%"))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
      }
    }
  }
}
