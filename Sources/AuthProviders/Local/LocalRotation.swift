import AuthStorage

/// The one provider step that runs inside `SessionService`'s store transaction: the local provider's refresh.
///
/// The local provider is its own server, and its server state lives in the same store as the client's session:
/// a refresh marks the presented refresh token used and stores its successor. The client's new session must be
/// stored in that same transaction. Were they two, a process killed between them would leave the client holding
/// a token already marked used, and its next refresh would look like a replayed (stolen) token and end the whole
/// token family. So the local provider's `refresh` returns this step instead of tokens; `SessionService` runs it
/// inside the transaction that stores the session, and when that session is discarded there (a logout or a new
/// login came first) the rotation rolls back with it.
package struct LocalRotation: Sendable {
  private let rotate: @Sendable (WriteTransaction) throws -> Result<IssuedSession, ProviderError>

  init(_ rotate: @escaping @Sendable (WriteTransaction) throws -> Result<IssuedSession, ProviderError>) {
    self.rotate = rotate
  }

  /// Rotates the refresh token within `tx`.
  /// - Returns: the new session; or the refusal (`sessionRejected`), returned rather than thrown so that the
  ///   transaction still commits what the refusal wrote (a reused token revokes its whole family).
  /// - Throws: a storage failure, which rolls the transaction back.
  package func run(in tx: WriteTransaction) throws -> Result<IssuedSession, ProviderError> { try rotate(tx) }
}
