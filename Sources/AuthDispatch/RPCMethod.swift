import AuthJSON
import AuthProtocol

/// A method answered on the reader thread as soon as it is read: pure, cheap, no I/O.
///
/// `validate` is one: answering inline keeps it at pipe speed and means no slow login can
/// ever queue in front of it.
package protocol InlineMethod: Sendable {
  static var name: String { get }
  /// Returns the result already encoded: inline methods are the hot path.
  func call(_ params: Params, context: CallContext) throws -> EncodedJSON
}

/// A method that may wait (storage, network, password hashing); it runs in its own task.
package protocol AsyncMethod: Sendable {
  static var name: String { get }
  /// How the method is ordered against other requests on the same profile.
  var ordering: SessionOrdering { get }
  /// How this call is scheduled; by default in `ordering`, and not waiting for a person.
  func plan(for params: Params) -> CallPlan
  func call(_ params: Params, context: CallContext) async throws -> JSONValue
}

extension AsyncMethod {
  package func plan(for params: Params) -> CallPlan { CallPlan(ordering: ordering) }
}

/// How one call is scheduled.
package struct CallPlan: Sendable, Equatable {
  package var ordering: SessionOrdering
  /// The call waits for a person (an interactive login): it must not hold the profile's queue, and at
  /// shutdown it is cancelled at once instead of being waited for.
  package var waitsForUser: Bool

  package init(ordering: SessionOrdering, waitsForUser: Bool = false) {
    self.ordering = ordering
    self.waitsForUser = waitsForUser
  }
}

/// A registered method, by how it runs.
package enum RegisteredMethod: Sendable {
  case inline(any InlineMethod)
  case async(any AsyncMethod)
}

/// Ordering of requests on one profile, so that a host pipelining `login` then `getUser` sees
/// its own login, without serializing everything.
package enum SessionOrdering: Sendable {
  /// Changes the profile's session (login, logout, refreshToken, register): runs after every
  /// earlier request on the profile, one at a time, in arrival order.
  case changesSession
  /// Reads the profile's session (getUser): runs after the earlier session changes,
  /// concurrently with other reads.
  case readsSession
  /// Not tied to one profile's session (status, the test clock).
  case independent
}
