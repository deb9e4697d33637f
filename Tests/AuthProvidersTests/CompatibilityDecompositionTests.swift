import Testing

@testable import AuthProviders

/// NFKC without Foundation: NFC after the generated compatibility decompositions.
@Suite struct CompatibilityDecompositionTests {
  @Test(arguments: [
    ("\u{FF41}\u{FF42}\u{FF43}", "abc"), ("\u{FB01}x", "fix"), ("x\u{00B2}", "x2"), ("\u{2460}", "1"),
    ("e\u{301}", "\u{E9}"), ("\u{1E9B}\u{323}", "\u{1E69}"), ("\u{3000}", " "), ("\u{2126}", "\u{3A9}"),
    ("\u{FF76}\u{FF9E}", "\u{30AC}"), ("plain ascii", "plain ascii"), ("\u{1D400}", "A"), ("\u{33A1}", "m2"),
  ])
  func matchesUnicodeNFKC(input: String, expected: String) {
    let result = CompatibilityDecomposition.nfkc(input)
    #expect(Array(result.unicodeScalars) == Array(expected.unicodeScalars))
  }

  @Test func theTableIsComplete() {
    let table = CompatibilityDecomposition.parse(CompatibilityMappings.text)
    // Unicode 14 has 3,750 code points whose NFKD differs from their NFD.
    #expect(table.count == 3_750)
  }
}
