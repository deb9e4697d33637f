import AuthValidation

extension RESTProviderConfig {
  /// What a `rest` login request carries beyond the account and password, for APIs shaped by older backends: the
  /// name they give each kind of account, values the host supplies (a device id), a password encrypted with the
  /// server's RSA key.
  package struct LoginRequest: Sendable, Equatable {
    package static let plain = LoginRequest()
    /// The longest a context name may be; names end up as form or JSON member names chosen by the config.
    package static let contextNameMaxLength = 64

    /// `{accountKind}`'s value for each kind of account; a kind not listed is sent as its own name.
    package let accountKinds: [AccountKind: String]
    /// The names a host may send in `login {context: {…}}`, used in login bodies as `{context.name}`.
    package let contextNames: [String]
    /// How `{password}` is encrypted before it is sent; nil sends it as typed.
    package let passwordEncryption: PasswordEncryption?

    package init(
      accountKinds: [AccountKind: String] = [:], contextNames: [String] = [],
      passwordEncryption: PasswordEncryption? = nil
    ) {
      self.accountKinds = accountKinds
      self.contextNames = contextNames
      self.passwordEncryption = passwordEncryption
    }

    /// The text `{accountKind}` stands for.
    package func name(of kind: AccountKind) -> String { accountKinds[kind] ?? kind.rawValue }
  }

  /// `{password}` encrypted with the server's RSA public key, for APIs that refuse a password in clear.
  package struct PasswordEncryption: Sendable, Equatable {
    package enum Key: Sendable, Equatable {
      /// The key itself, checked when the config loads.
      case pem(String)
      /// Where the server publishes it: on `baseURL`'s origin, fetched at the first login that needs it.
      case url(String)
    }

    package enum Padding: String, Sendable, Equatable, CaseIterable {
      /// RSAES-PKCS1-v1_5, what most of these backends decrypt with.
      case pkcs1
      /// RSAES-OAEP with SHA-256 and MGF1-SHA-256.
      case oaepSHA256 = "oaep-sha256"
    }

    package enum Encoding: String, Sendable, Equatable, CaseIterable {
      /// Standard base64 with padding.
      case base64
    }

    package let key: Key
    package let padding: Padding
    package let encoding: Encoding

    package init(key: Key, padding: Padding, encoding: Encoding = .base64) {
      self.key = key
      self.padding = padding
      self.encoding = encoding
    }
  }
}
