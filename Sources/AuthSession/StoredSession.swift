import AuthJSON
import AuthProviders
import AuthStorage

/// A profile's session as the store holds it, with its user decoded once: here, when the record is read.
///
/// The user is stored as the JSON of `UserInfo.json`, sealed with the tokens. Bytes that do not read back as a
/// user are something this code never writes (and the store's authenticated encryption rules out tampering):
/// there is then no user to answer with, nor to check a provider's answer against. Such a session is unusable:
/// `SessionService` ends it as if the provider had refused it (`session_expired`, so the host logs in again); a
/// logout clears it without asking the provider to revoke it; `status`, which only reads, lists it without a
/// username.
struct StoredSession: Sendable {
  let profile: String
  /// The profile's generation this session belongs to: the store refuses a write for it once a logout or a new
  /// login has moved the generation on, so a late refresh never resurrects an ended session.
  let generation: Int64
  var session: IssuedSession

  init(_ session: IssuedSession, profile: String, generation: Int64) {
    self.profile = profile
    self.generation = generation
    self.session = session
  }

  /// What the store keeps as the user of a session whose tokens were stored while its user was still being fetched
  /// (`UserInfo.pending`): a JSON object without the `id` every stored user has.
  static let pendingUserJSON = Array(#"{"pending":true}"#.utf8)

  /// Decodes the stored user; nil when it is unreadable (see above).
  init?(_ record: SessionRecord) {
    let user: UserInfo
    if record.userJSON == Self.pendingUserJSON {
      user = .pending
    } else {
      guard case .object(let object)? = try? JSONParser.parse(record.userJSON), let stored = UserInfo(json: object)
      else { return nil }
      user = stored
    }
    let session = IssuedSession(
      user: user, accessToken: record.accessToken, refreshToken: record.refreshToken, idToken: record.idToken,
      tokenType: record.tokenType, expiresAt: record.expiresAt, scopes: record.scopes,
      providerState: record.providerState)
    self.init(session, profile: record.profile, generation: record.generation)
  }

  /// The record to write, its user encoded as JSON.
  func record(updatedAt now: Int64) -> SessionRecord {
    SessionRecord(
      profile: profile, generation: generation,
      userJSON: userIsPending ? Self.pendingUserJSON : session.user.storedJSON, accessToken: session.accessToken,
      refreshToken: session.refreshToken, idToken: session.idToken, tokenType: session.tokenType,
      expiresAt: session.expiresAt, scopes: session.scopes, providerState: session.providerState, updatedAt: now)
  }

  /// Whether the user is still to be fetched: a process stopped between storing a login's tokens and its user.
  var userIsPending: Bool { session.user.isPending }

  /// The same session with new tokens from a refresh (same profile, same generation).
  func replaced(by session: IssuedSession) -> StoredSession {
    StoredSession(session, profile: profile, generation: generation)
  }

  /// Whether `other` is still this session: the same login (generation) and no refresh since (access token).
  func isUnchanged(since other: StoredSession) -> Bool {
    generation == other.generation && session.accessToken.constantTimeEquals(other.session.accessToken)
  }
}

extension UserInfo {
  /// The user as the store keeps it.
  var storedJSON: [UInt8] { JSONWriter.encode(.object(json)) }
}
