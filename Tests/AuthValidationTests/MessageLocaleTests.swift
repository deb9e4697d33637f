import AuthValidation
import Testing

@Suite struct MessageLocaleTests {
  @Test(arguments: [
    "zh-Hans", "zh", "zh-CN", "zh-SG", "zh-Hans-CN", "zh-Hans-HK", "zh-Hans-TW", "ZH-HANS", "zh-cn", "zh_CN",
    "zh-cmn-Hans-CN", "zh-CN-u-ca-chinese", "zh-x-private",
  ])
  func simplifiedChineseTags(tag: String) {
    #expect(MessageLocale(tag: tag) == .zhHans)
  }

  @Test(arguments: [
    "zh-Hant", "zh-TW", "zh-HK", "zh-MO", "zh-Hant-CN", "zh-Hant-TW", "ZH-hant", "zh_TW", "zh-hk", "zh-yue-HK",
  ])
  func traditionalChineseTagsFallBackToEnglish(tag: String) {
    #expect(MessageLocale(tag: tag) == .en)
  }

  @Test(arguments: ["en", "en-US", "EN", "fr", "ja-JP", "zha", "zhx", "z", "", "-", "zh ", " zh", "x-zh", "i-zh"])
  func otherTagsGiveEnglish(tag: String) {
    #expect(MessageLocale(tag: tag) == .en)
  }

  @Test func missingTagGivesEnglish() {
    #expect(MessageLocale(tag: nil) == .en)
  }

  @Test func rawValuesAreTheWireTags() {
    #expect(MessageLocale.en.rawValue == "en")
    #expect(MessageLocale.zhHans.rawValue == "zh-Hans")
    for locale in MessageLocale.allCases {
      #expect(MessageLocale(tag: locale.rawValue) == locale)
    }
  }
}
