/// Generates `validate`-shaped request lines for the differential test: every field with values that pass
/// and fail each rule, both locales, every params error, escapes, surrogates, duplicate keys, huge numbers,
/// white space, member orders, ids of every type, batches, and byte-level mutations of all of these.
struct RequestLineGenerator {
  private var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  /// One line: mostly well-formed requests, some batches, some mutated.
  mutating func line() -> [UInt8] {
    switch random.below(20) {
    case 0...1: return Array(batch().utf8)
    case 2...5: return mutated(Array((random.below(4) == 0 ? batch() : message()).utf8))
    default: return Array(message().utf8)
    }
  }

  // MARK: Messages

  private mutating func message() -> String {
    var members: [String] = []
    let version = random.below(12) == 0 ? pick(Self.versions) : #""2.0""#
    if random.below(40) != 0 { members.append(member("jsonrpc", version)) }
    let id = random.below(3) == 0 ? pick(Self.ids) : String(random.below(100_000))
    if random.below(30) != 0 { members.append(member("id", id)) }
    let method = random.below(6) == 0 ? pick(Self.methods) : #""validate""#
    if random.below(40) != 0 { members.append(member("method", method)) }
    if random.below(25) != 0 { members.append(member("params", params())) }
    if random.below(40) == 0 { members.append(member(pick(["extra", "id", "method", "jsonrpc"]), pick(Self.ids))) }
    shuffle(&members)
    return "{" + ws() + members.joined(separator: ws() + "," + ws()) + ws() + "}"
  }

  private mutating func batch() -> String {
    let count = random.below(8) == 0 ? 0 : 1 + random.below(5)
    var elements: [String] = []
    for _ in 0..<count { elements.append(message()) }
    return ws() + "[" + ws() + elements.joined(separator: ws() + "," + ws()) + ws() + "]" + ws()
  }

  private mutating func params() -> String {
    switch random.below(30) {
    case 0: return pick(["[]", #"["alice"]"#, #"[1,null,"x"]"#, "[[1]]"])
    case 1: return pick(["null", "5", #""username""#, "true"])
    case 2: return "{}"
    default: break
    }
    var members: [String] = []
    let fieldCount = 1 + random.below(4)
    for _ in 0..<fieldCount {
      let field = pick(Self.fields)
      members.append(member(key(field), value(for: field)))
    }
    if random.below(3) == 0 { members.append(member(key("purpose"), pick(Self.purposes))) }
    if random.below(3) == 0 { members.append(member(key("locale"), pick(Self.locales))) }
    if random.below(4) == 0 { members.append(member(key("profile"), pick(Self.profiles))) }
    if random.below(15) == 0 { members.append(member(pick(Self.unknownKeys), pick(Self.ids))) }
    if random.below(25) == 0 { members.append(member(pick(Self.fields), pick(Self.wrongTypes))) }
    shuffle(&members)
    return "{" + ws() + members.joined(separator: ws() + "," + ws()) + ws() + "}"
  }

  private mutating func value(for field: String) -> String {
    if random.below(25) == 0 { return pick(Self.wrongTypes) }
    // Mostly ASCII, as most form input is: the fast path's own ground, which this test must cover well.
    let ascii = random.below(4) != 0
    let pool = (ascii ? Self.asciiValues : Self.values)[field]!
    var text = pick(pool)
    if random.below(6) == 0 { text = pick(ascii ? [" ", "\t", "\n", "  "] : ["\u{00A0}", "\u{3000}"]) + text }
    if random.below(6) == 0 { text += pick(ascii ? [" ", "\r\n", "\t"] : ["\u{2003}", "\u{85}"]) }
    if random.below(8) == 0 { text = text.uppercased() }
    return jsonString(text)
  }

  /// A key, sometimes spelled with an escape (the same name to a JSON reader).
  private mutating func key(_ name: String) -> String {
    guard random.below(40) == 0, let first = name.unicodeScalars.first else { return name }
    return "\\u00" + String(first.value, radix: 16) + String(name.unicodeScalars.dropFirst())
  }

  private mutating func member(_ key: String, _ value: String) -> String {
    let name = key.hasPrefix("\"") ? key : "\"" + key + "\""
    return name + ws() + ":" + ws() + value
  }

  /// A JSON string literal of `text`, escaping the way different hosts do.
  private mutating func jsonString(_ text: String) -> String {
    let style = random.below(10)
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += style == 0 ? "\\u0009" : "\\t"
      case "\r": out += "\\r"
      case "\u{8}" where style < 5: out += "\\b"
      case "\u{C}" where style < 5: out += "\\f"
      case "/" where style == 1: out += "\\/"
      case _ where scalar.value < 0x20: out += "\\u00" + hex2(scalar.value)
      case _ where scalar.value >= 0x80 && style == 2: out += utf16Escapes(scalar)
      case _ where scalar.isASCII && style == 3 && random.below(8) == 0: out += "\\u00" + hex2(scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  private func hex2(_ value: UInt32) -> String {
    let text = String(value, radix: 16)
    return text.count == 1 ? "0" + text : text
  }

  private func utf16Escapes(_ scalar: Unicode.Scalar) -> String {
    String(scalar).utf16.map { unit in
      let text = String(unit, radix: 16)
      return "\\u" + String(repeating: "0", count: 4 - text.count) + text
    }.joined()
  }

  /// JSON white space, usually none.
  private mutating func ws() -> String {
    random.below(12) == 0 ? pick([" ", "\t", "  ", "\r", "\n", " \r\n "]) : ""
  }

  // MARK: Mutations

  private mutating func mutated(_ line: [UInt8]) -> [UInt8] {
    var bytes = line
    for _ in 0...random.below(3) {
      guard !bytes.isEmpty else { break }
      let at = random.below(bytes.count)
      switch random.below(5) {
      case 0: bytes.remove(at: at)
      case 1: bytes.insert(pick(Self.interestingBytes), at: at)
      case 2: bytes[at] = pick(Self.interestingBytes)
      case 3: bytes.removeSubrange(at...)
      default:
        let end = min(bytes.count, at + 1 + random.below(12))
        bytes.insert(contentsOf: bytes[at..<end], at: at)
      }
    }
    return bytes
  }

  // MARK: Randomness

  private mutating func pick<T>(_ choices: [T]) -> T { choices[random.below(choices.count)] }

  private mutating func shuffle<T>(_ items: inout [T]) {
    guard items.count > 1 else { return }
    for index in stride(from: items.count - 1, to: 0, by: -1) { items.swapAt(index, random.below(index + 1)) }
  }

  // MARK: Pools

  static let versions = [#""2.0""#, #""2.0""#, #""2.0""#, #""1.0""#, #""2\u002e0""#, "2.0", #""2.0 ""#]
  static let ids = [
    "1", "2", "17", "123456", #""abc""#, #""r-9""#, "1", "0", "-0", "42", "-7", "3.25", "1e3", "1E+2", "-1.5e-300",
    "12345678901234567890123456789012345678901234567890",
    "1e999", "01", "1.", "null", "true", "{}", "[]", #""a""#, #""""#, #""req-17""#, #""with \"quote\"""#,
    #""tab\there""#, #""\u0041\u00e9""#, #""😀""#, #""\ud83d\ude00""#, #""\ud800""#, #""/slash\/""#, #""\u001f""#,
  ]
  static let methods = [
    #""validate""#, #""validate""#, #""validate""#, #""validate""#, #""validate""#, #""validate""#, #""valid\u0061te""#,
    #""validateAll""#, #""Validate""#, #""rpc.discover""#, #""$/cancelRequest""#, #""login""#, #""""#, #""vålidate""#,
    "7", "null",
  ]
  static let fields = ["account", "username", "email", "phone", "password", "code"]
  static let unknownKeys = [
    #""nickname""#, #""user""#, #""usernames""#, #""x""#, #""a_very_long_unknown_parameter_name_longer_than_forty""#,
    #""é""#, #""Profile""#, #""code ""#,
  ]
  static let purposes = [#""register""#, #""login""#, #""login""#, #""signup""#, #""""#, #""log\u0069n""#, "1", "null"]
  static let locales = [
    #""en""#, #""zh-Hans""#, #""zh-Hans""#, #""zh""#, #""zh-CN""#, #""zh_TW""#, #""zh-Hant-CN""#, #""ZH-hans""#,
    #""fr""#, #""""#, #""zh-x-foo""#, #""z\u0068-Hans""#, "true", "[]",
  ]
  static let profiles = [
    #""default""#, #""default""#, #""default""#, #""work""#, #""work""#, #""short""#, #""short""#, #""pattern""#,
    #""missing""#, #""bad name""#, #""""#,
    #""d\u0065fault""#, "3",
  ]
  static let wrongTypes = ["5", "-1.5", "true", "false", "null", "[]", "{}", #"["a"]"#, #"{"a":1}"#, "1e400"]
  static let interestingBytes: [UInt8] = [
    0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x20, 0x09, 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xE4, 0x30, 0x31,
    0x61, 0x2D, 0x2E, 0x65, 0x75,
  ]
  static let asciiValues = values.mapValues { $0.filter { $0.unicodeScalars.allSatisfy(\.isASCII) } }
  static let values: [String: [String]] = [
    "username": [
      "alice_01", "al", "abc", String(repeating: "u", count: 30), String(repeating: "u", count: 31), "bad name!",
      "é!", "josé_1", "", "   ", "Bob-the-builder", "a\"b", "back\\slash", "ctl\u{1}x", "x\u{7F}y",
      "bs\u{8}ff\u{C}", "用户名",
      "e\u{301}e\u{301}e", "ab", "a-b_c", "A", "no/slash",
    ],
    "email": [
      "alice@example.com", "Alice.Smith+tag@Mail.Example.COM", "a_b%c-d@x-y.io", "alice.example.com",
      "a@b@example.com", "a..b@example.com", ".a@example.com", "a.@example.com",
      String(repeating: "l", count: 65) + "@example.com", "a@-example.com", "a@example..com", "a@example",
      "a@example.c", "a@example.c0m", "a b@example.com", "a@" + String(repeating: "b.", count: 130) + "com", "",
      "用户@例子.中国", "Bob@Example.ORG", "x@Ü.de", "a@b.co", "q\"uote@x.io", "a@b-.com", "a@B.CO",
    ],
    "phone": [
      "+14155552671", " +44 (20) 7946-0958 ", "138 0013 8000", "+12345678", "+123456789012345", "+1234567",
      "+1234567890123456", "+0123456789", "12812345678", "+1 415 CALL NOW", "12345", "", "138-0013-8000",
      "１３８００１３８０００", "(((", "+", "+86 138 0013 8000", "13800138000",
    ],
    "password": [
      "Tr4nslucent-0wl!", "zq8#Lm2p", String(repeating: "k", count: 128), "  hunter2  ",
      "😀😀😀😀😀😀😀😀",
      "e\u{301}e\u{301}e\u{301}e\u{301}", "😀😀😀😀", "short", String(repeating: "k", count: 129), "password",
      "PassWord", "12345678", "tab\there-ok", "ab\u{7F}", "nul\u{0}byte-here",
      "form\u{C}feed\u{8}back", "        ", "", "iloveyou", "abcdefgh",
      "12341234x", "密码密码密码密码", "NoDigitsHere", "1234567890", "qwerty123", "a\"b\\c-long-enough",
    ],
    "account": [
      " Bob@Example.ORG", "+1 415 555 2671", "13800138000", "alice_01", "12345678", "1234567", "bob@", "bob smith",
      "ab", "", "+86 138-0013-8000", "a@b.co", "++12345678", "1+2345678", "用户", "12 34 56 78 90",
    ],
    "code": ["123456", "12345", "1234567", "12a456", "", " 123456 ", "１２３４５６", "12345678", "000000"],
  ]
}

/// A small, fast, seedable generator, so a failure can be reproduced from the seed.
struct SplitMix64 {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
