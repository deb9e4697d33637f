extension IdentityProvider {
  /// Providers without codes (oauth2, form; a local or rest profile without them configured) offer none.
  package var codeFlows: [CodeFlow] { [] }

  package func sendCode(_ request: CodeRequest, profile: String) async throws -> SentCode {
    throw ProviderError(.unsupported, "\(kind) does not send codes")
  }

  package func login(_ account: LoginAccount, code: String, profile: String) async throws -> IssuedSession {
    throw ProviderError(.unsupported, "\(kind) does not log in with codes")
  }

  package func verify(challenge: String, code: String, profile: String) async throws -> IssuedSession {
    throw ProviderError(.unsupported, "\(kind) has no second login step")
  }

  package func resetPassword(_ account: LoginAccount, code: String, newPassword: String, profile: String)
    async throws -> PasswordReset
  {
    throw ProviderError(.unsupported, "\(kind) does not reset passwords")
  }
}
