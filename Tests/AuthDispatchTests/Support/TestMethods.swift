import AuthDispatch
import AuthJSON
import AuthProtocol
import Synchronization

/// Test-only methods that make timing visible: they sleep, wait on gates and write to a log.

/// An ordered record of what the test methods did.
final class EventLog: Sendable {
  private let entries = Mutex<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}

/// Named latches a test opens to let a waiting method go on. Waiting is cancellable.
final class Gates: Sendable {
  private struct State {
    var open: Set<String> = []
  }
  private let state = Mutex(State())

  func open(_ name: String) { _ = state.withLock { $0.open.insert(name) } }

  func wait(_ name: String) async throws {
    while !state.withLock({ $0.open.contains(name) }) {
      try await Task.sleep(for: .milliseconds(1))
    }
  }
}

extension Params {
  /// An integer param, for the test methods (the product methods have no numeric params yet).
  func int(_ key: String) -> Int? {
    guard case .number(let number)? = object[key], let value = number.int64Value else { return nil }
    return Int(value)
  }
}

/// `sleep {ms}`: waits (cancellably) and answers `{slept: ms}`. Tied to no profile's session.
struct SleepMethod: AsyncMethod {
  static let name = "sleep"
  let ordering = SessionOrdering.independent
  func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(["ms"])
    let ms = params.int("ms") ?? 0
    try await Task.sleep(for: .milliseconds(ms))
    return .object(["slept": .number(JSONNumber(ms))])
  }
}

/// `gate {name}`: a session read (like `getUser`) that waits until the test opens the gate;
/// logs and answers the gate's name.
struct GateMethod: AsyncMethod {
  static let name = "gate"
  let ordering = SessionOrdering.readsSession
  let gates: Gates
  let log: EventLog
  func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    let name = try params.string("name") ?? ""
    log.append("gate \(name) waiting")
    try await gates.wait(name)
    log.append("gate \(name) done")
    return .string(name)
  }
}

/// `record {tag, gate?}`: a session change. Logs its start, optionally waits on a gate, logs its end.
struct RecordMethod: AsyncMethod {
  static let name = "record"
  let ordering = SessionOrdering.changesSession
  let gates: Gates
  let log: EventLog
  func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    try params.allowOnly(["tag", "gate"])
    let tag = try params.string("tag") ?? ""
    log.append("start \(context.profile) \(tag)")
    if let gate = try params.string("gate") { try await gates.wait(gate) }
    log.append("end \(context.profile) \(tag)")
    return .string(tag)
  }
}

/// `fail {kind}`: throws an `RPCError` of that kind, or an unknown error.
struct FailMethod: AsyncMethod {
  struct Opaque: Error {}
  static let name = "fail"
  let ordering = SessionOrdering.independent
  func call(_ params: Params, context: CallContext) async throws -> JSONValue {
    guard let kind = try params.choice("kind", as: ErrorKind.self) else { throw Opaque() }
    throw RPCError(kind, "Failed on purpose.")
  }
}
