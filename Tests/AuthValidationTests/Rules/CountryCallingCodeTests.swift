import Testing

@testable import AuthValidation

@Suite struct CountryCallingCodeTests {
  /// One-, two- and three-digit country codes: the prefix code decides where the national number starts.
  @Test(arguments: [
    ("+8613812345678", "13812345678"), ("+14155552671", "4155552671"), ("+442079460958", "2079460958"),
    ("+35312345678", "12345678"), ("+79161234567", "9161234567"), ("+85291234567", "91234567"),
  ])
  func theNationalNumberDropsTheCountryCode(_ e164: String, _ national: String) {
    #expect(CountryCallingCode.nationalNumber(e164) == national)
  }

  @Test func onlyE164NumbersHaveOne() {
    for text in ["13812345678", "+86", "+86 138", "", "+"] {
      #expect(CountryCallingCode.nationalNumber(text) == nil, "\(text)")
    }
  }
}
