import AuthHTTP

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A profile's `tls` object, decoded into the HTTP client's own `TLSSettings`; only remote providers talk TLS.
///
/// ```json
/// "tls": {"caFile": "/etc/auth-sidecar/corp-ca.pem",
///         "pinnedPublicKey": "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="}
/// ```
enum TLSDecoder {
  static let keys = ["caFile", "pinnedPublicKey"]

  static func settings(in profile: ConfigObject, provider: ProviderKind) throws(SettingError) -> TLSSettings {
    guard let object = try profile.object("tls", allowedKeys: keys) else { return TLSSettings() }
    guard provider.isRemote else {
      throw SettingError(object.path, "only remote providers (rest, oauth2, form) use TLS settings")
    }
    let caFile = try object.string("caFile")
    if let caFile {
      // Checked now, so a login never fails later on a path the config could have been told about at start.
      guard caFile.hasPrefix("/") else {
        throw SettingError(object.path.appending("caFile"), "must be an absolute path")
      }
      guard access(caFile, R_OK) == 0 else {
        throw SettingError(object.path.appending("caFile"), "is not a readable file")
      }
    }
    let pin = try object.string("pinnedPublicKey")
    if let pin, !TLSSettings.isValidPin(pin) {
      throw SettingError(
        object.path.appending("pinnedPublicKey"),
        "must be sha256// and the base64 SHA-256 of the server's public key, several joined with ;")
    }
    return TLSSettings(caFile: caFile, pinnedPublicKey: pin)
  }
}
