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
  /// Methods that change a profile's session run one at a time per profile, in arrival order.
  var changesSession: Bool { get }
  func call(_ params: Params, context: CallContext) async throws -> JSONValue
}

/// A registered method, by how it runs.
package enum RegisteredMethod: Sendable {
  case inline(any InlineMethod)
  case async(any AsyncMethod)
}
