/// The built-in list of the most common passwords, rejected as `too_common` by the `standard` preset.
///
/// Gathered from published breach-corpus rankings, English and Chinese, lower-cased. Entries shorter than
/// the default minimum length still matter: a profile may lower `passwordMinLength`.
enum CommonPasswords {
  /// The longest entry, so longer passwords skip the lookup and its lower-casing.
  static let maxLength = entries.reduce(0) { max($0, $1.utf8.count) }

  /// Built once, on first use, from `entries`.
  static let set = Set(entries)

  /// Whether `password` is on the list, ignoring ASCII case (every entry is ASCII).
  static func contains(_ password: String) -> Bool {
    let utf8 = password.utf8
    guard utf8.count <= maxLength else { return false }
    guard utf8.contains(where: ASCII.isUppercase) else { return set.contains(password) }
    return set.contains(ASCII.lowercased(utf8))
  }

  static let entries: [String] = [
    "123456", "password", "123456789", "12345678", "12345", "qwerty", "1234567", "111111", "1234567890", "123123",
    "abc123", "1234", "password1", "iloveyou", "1q2w3e4r", "000000", "qwerty123", "zaq12wsx", "dragon", "sunshine",
    "princess", "letmein", "654321", "monkey", "1qaz2wsx", "123321", "qwertyuiop", "superman", "asdfghjkl", "666666",
    "121212", "football", "baseball", "welcome", "welcome1", "admin", "admin123", "administrator", "1234qwer",
    "qwer1234", "passw0rd", "p@ssw0rd", "p@ssword", "pa$$word", "password123", "password12", "password!", "password2",
    "password01", "pass1234", "pass123", "passpass", "88888888", "11111111", "00000000", "12341234", "87654321",
    "987654321", "123123123", "1111111111", "0000000000", "111111111", "000000000", "99999999", "999999999", "22222222",
    "33333333", "44444444", "55555555", "66666666", "77777777", "12121212", "11223344", "12344321", "123654789",
    "147258369", "789456123", "963852741", "741852963", "159753", "159357", "147852369", "123qwe", "123qweasd",
    "123qweasdzxc", "qweasd", "qweasdzxc", "qazwsx", "qazwsxedc", "1qazxsw2", "zxcvbnm", "zxcvbnm123", "asdfgh",
    "asdfghjk", "asdf1234", "asdfasdf", "asdasdasd", "qwertyui", "qwerty1", "qwerty12", "qwerty1234", "1q2w3e",
    "1q2w3e4r5t", "1q2w3e4r5t6y", "q1w2e3r4", "q1w2e3r4t5", "a1b2c3d4", "a1b2c3", "abc12345", "abcd1234", "abcdefg",
    "abcdefgh", "abcdef", "abc123456", "a123456", "a12345678", "a123456789", "aa123456", "aa12345678", "123456a",
    "123456aa", "123456abc", "123456789a", "12345678a", "woaini", "woaini1314", "woaini520", "5201314", "1314520",
    "520520", "5201314520", "1314520520", "520520520", "woainima", "iloveyou1", "iloveyou2", "loveyou", "lovely",
    "lovelove", "loveme", "love123", "ilovegod", "110110", "110110110", "123456123", "123456123456", "123321123",
    "qq123456", "qq5201314", "qwe123", "qwe123456", "zxc123", "zxc123456", "asd123", "asd123456", "aaa111", "aaaaaa",
    "aaaaaaaa", "qqqqqq", "qqqqqqqq", "1111", "0000", "1212", "7777777", "11111", "222222", "333333", "444444",
    "555555", "777777", "888888", "999999", "101010", "112233", "121314", "123abc", "123456789abc", "0123456789",
    "01234567", "9876543210", "98765432", "147258", "258369", "369258", "159951", "1231234", "12345qwert", "12qwaszx",
    "1qaz2wsx3edc", "zaq1xsw2", "zaq1zaq1", "xsw2zaq1", "trustno1", "master", "hello", "hello123", "freedom",
    "whatever", "shadow", "michael", "jennifer", "jordan", "jordan23", "michelle", "charlie", "andrew", "daniel",
    "thomas", "jessica", "ashley", "nicole", "hunter", "hunter2", "killer", "batman", "spiderman", "starwars",
    "pokemon", "pikachu", "naruto", "cookie", "cheese", "chocolate", "computer", "internet", "secret", "secret123",
    "summer", "winter", "spring", "autumn", "flower", "flowers", "soccer", "hockey", "basketball", "tennis", "golf",
    "mustang", "ferrari", "porsche", "corvette", "harley", "yankees", "cowboys", "eagles", "lakers", "liverpool",
    "chelsea", "arsenal", "barcelona", "juventus", "google", "facebook", "youtube", "linkedin", "twitter", "instagram",
    "samsung", "apple", "iphone", "android", "nintendo", "playstation", "xbox360", "minecraft", "roblox", "fortnite",
    "matrix", "merlin", "ginger", "tigger", "buster", "pepper", "maggie", "sophie", "bailey", "buddy", "daisy", "lucky",
    "angel", "angels", "angel1", "babygirl", "baby123", "princess1", "sunshine1", "football1", "baseball1", "monkey1",
    "dragon1", "shadow1", "master1", "superman1", "batman1", "michael1", "charlie1", "qwerty12345", "123qwe123",
    "1234abcd", "abcd123", "abc1234", "test", "test123", "test1234", "testing", "guest", "guest123", "root", "toor",
    "user", "user123", "login", "login123", "access", "access14", "changeme", "default", "demo", "temp", "temp123",
    "temp1234", "letmein1", "letmein123", "welcome123", "welcome2", "hello1", "hello1234", "hellokitty", "iloveu",
    "imissyou", "mylove", "myspace", "mypassword", "yourpassword", "nopassword", "password321", "1password",
    "12password", "passwort", "motdepasse", "contrasena", "senha", "parola", "wachtwoord", "haslo", "salasana",
    "qwertz", "qwertzuiop", "azerty", "azertyuiop", "asdfghjkl1", "zxcvbnm1", "1234567a", "12345a", "1a2b3c4d",
    "1a2b3c", "11aa22bb", "aabbccdd", "abcabc", "abcabc123", "abcdabcd", "123abc123", "abc123abc", "123456qwerty",
    "qwerty123456", "1qaz1qaz", "2wsx3edc", "1qaz2wsx3edc4rfv", "qazxswedc", "zxcasdqwe", "1234512345", "12345654321",
    "123454321", "12345678910", "1234554321", "123456654321", "11112222", "12312312", "13131313", "14141414",
    "15151515", "16161616", "17171717", "18181818", "19191919", "20202020", "1q2w3e4r5", "qweqwe", "qweqweqwe",
    "asdasd", "zxczxc", "1qa2ws3ed", "12qw34er", "q1q1q1q1", "a1a1a1a1", "z1z1z1z1", "aaa123", "aaa123456", "abc666",
    "woaini123", "woaini521", "wangyang", "zhangwei", "liuyang", "wangwei", "lijun", "zhangjie", "5211314", "3344520",
    "7758521", "7758258", "584520", "521521", "1314521", "5845201314", "00000000a", "dearbook", "xiazhili", "31415926",
    "3.1415926", "123.com", "12345.com", "qq.com", "163.com", "sohu.com", "baidu", "baidu123", "taobao", "taobao123",
    "wangyi", "tiancai", "woshishui", "yangyang", "xiaoming", "123456789q", "123456789z", "987654321a", "88888888a",
    "66666666a", "iloveyou123", "password1234", "administrator1", "superuser", "sysadmin", "webmaster", "adminadmin",
    "admin1234", "admin12345", "root123", "rootroot", "oracle", "mysql", "postgres", "sqlserver", "ubuntu", "raspberry",
    "vagrant", "docker", "kubernetes", "monkey123", "dragon123", "shadow123", "sunshine123", "princess123",
    "football123", "baseball123", "soccer123", "charlie123", "michael123", "jesus", "jesus1", "jesuschrist", "blessed",
    "blessing", "faith", "christ", "heaven", "696969", "6969", "42424242", "424242", "0987654321", "09876543",
    "a1s2d3f4", "a1s2d3f4g5", "1z2x3c4v", "4rfv5tgb", "3edc4rfv", "2wsx3edc4rfv", "1qaz@wsx", "1qaz!qaz", "!qaz2wsx",
    "p4ssw0rd", "passw0rd1", "p455w0rd", "pa55word", "pa55w0rd", "1q2w3e4r!", "qwerty!", "qwerty1!", "password1!",
    "welcome1!", "abc123!", "123456!", "12345678!", "iloveyou!",
  ]
}
