import AuthCrypto
import AuthHTTP
import AuthJSON
import AuthValidation

/// The `rest` keys that shape a login request for older backends:
///
/// ```json
/// "accountKinds": {"phone": "Telephone", "email": "EmailAddress", "username": "NormalName"},
/// "context": ["deviceId", "appVersion"],
/// "passwordEncryption": {"publicKeyURL": "https://api.example.com/public_key.pem", "padding": "pkcs1",
///                        "encoding": "base64"}
/// ```
///
/// A `publicKey` given inline is decoded here, so a key OpenSSL cannot read stops the sidecar at start rather
/// than failing every login later.
enum RESTLoginRequestDecoder {
  static let keys = ["accountKinds", "context", "passwordEncryption"]
  static let encryptionKeys = ["publicKey", "publicKeyURL", "padding", "encoding"]
  static let contextNameRule =
    "must be a name of ASCII letters, digits and _ starting with a letter, at most "
    + "\(RESTProviderConfig.LoginRequest.contextNameMaxLength) characters"

  static func settings(_ object: ConfigObject, baseURL: String) throws(SettingError)
    -> RESTProviderConfig.LoginRequest
  {
    RESTProviderConfig.LoginRequest(
      accountKinds: try accountKinds(object), contextNames: try contextNames(object),
      passwordEncryption: try passwordEncryption(object, baseURL: baseURL))
  }

  static func accountKinds(_ object: ConfigObject) throws(SettingError) -> [AccountKind: String] {
    let allowed = AccountKind.allCases.map(\.rawValue)
    guard let kinds = try object.object("accountKinds", allowedKeys: allowed) else { return [:] }
    var names: [AccountKind: String] = [:]
    for kind in AccountKind.allCases {
      guard let name = try kinds.string(kind.rawValue) else { continue }
      guard !name.isEmpty else { throw SettingError(kinds.path.appending(kind.rawValue), "must not be empty") }
      names[kind] = name
    }
    return names
  }

  static func contextNames(_ object: ConfigObject) throws(SettingError) -> [String] {
    guard let value = object.value("context") else { return [] }
    let path = object.path.appending("context")
    guard case .array(let items) = value else {
      throw SettingError(path, "must be an array of names, not \(ConfigObject.describe(value))")
    }
    var names: [String] = []
    for (index, item) in items.enumerated() {
      let itemPath = path.appending(String(index))
      guard case .string(let name) = item, isContextName(name) else { throw SettingError(itemPath, contextNameRule) }
      guard !names.contains(name) else { throw SettingError(itemPath, "appears more than once") }
      names.append(name)
    }
    return names
  }

  static func isContextName(_ name: String) -> Bool {
    let bytes = name.utf8
    guard let first = bytes.first, isLetter(first),
      bytes.count <= RESTProviderConfig.LoginRequest.contextNameMaxLength
    else { return false }
    return bytes.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") }
  }

  private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

  // MARK: - passwordEncryption

  static func passwordEncryption(_ object: ConfigObject, baseURL: String) throws(SettingError)
    -> RESTProviderConfig.PasswordEncryption?
  {
    guard let settings = try object.object("passwordEncryption", allowedKeys: encryptionKeys) else { return nil }
    let key = try self.key(settings, baseURL: baseURL)
    typealias Encryption = RESTProviderConfig.PasswordEncryption
    guard let paddingName = try settings.string("padding") else {
      throw SettingError(
        settings.path.appending("padding"), #"is required: "pkcs1" or "oaep-sha256", as the server decrypts"#)
    }
    guard let padding = Encryption.Padding(rawValue: paddingName) else {
      throw SettingError(settings.path.appending("padding"), #"must be "pkcs1" or "oaep-sha256""#)
    }
    let encodingName = try settings.string("encoding") ?? Encryption.Encoding.base64.rawValue
    guard let encoding = Encryption.Encoding(rawValue: encodingName) else {
      throw SettingError(settings.path.appending("encoding"), #"must be "base64""#)
    }
    return Encryption(key: key, padding: padding, encoding: encoding)
  }

  private static func key(_ settings: ConfigObject, baseURL: String) throws(SettingError)
    -> RESTProviderConfig.PasswordEncryption.Key
  {
    let pem = try settings.string("publicKey")
    let target = try settings.url("publicKeyURL", allowQuery: true)
    switch (pem, target) {
    case (let pem?, nil):
      do {
        _ = try RSAPublicKey(pem: pem)
      } catch let error as CryptoError where error.isLibraryUnavailable {
        throw SettingError(settings.path.appending("publicKey"), "cannot be read here: \(error.message)")
      } catch {
        throw SettingError(
          settings.path.appending("publicKey"),
          "must be an RSA public key of at least \(RSAPublicKey.minimumBits) bits in PEM "
            + "(-----BEGIN PUBLIC KEY----- or -----BEGIN RSA PUBLIC KEY-----)")
      }
      return .pem(pem)
    case (nil, let target?):
      // The key decides where the password can be read: it must come from the API's own origin, like every
      // other request of this provider.
      guard let base = try? RequestTarget(baseURL), base.origin == target.origin else {
        throw SettingError(settings.path.appending("publicKeyURL"), "must be on baseURL's origin")
      }
      return .url(target.url)
    default:
      throw SettingError(settings.path, "needs exactly one of publicKey (the PEM) and publicKeyURL")
    }
  }
}
