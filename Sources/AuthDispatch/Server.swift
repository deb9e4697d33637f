import AuthCrypto
import AuthJSON
import AuthProtocol
import AuthSupport
import AuthValidation

/// Receives framed messages, answers each request exactly once, and never lets bad input
/// stop the service.
package final class Server: MessageReceiver {
  package struct Limits: Sendable {
    package var maxInFlight = 64
    package var maxDepth = 64
    package var maxBatchSize = 10_000
    /// Bytes of one batch's answers past which the rest of the batch is not run (`BatchCollector`).
    package var maxBatchAnswerBytes = 16 << 20
    package init() {}
  }

  /// Where the task of a request on a profile prefers to run, or nil for the cooperative pool: the tasks of remote
  /// profiles run on the HTTP thread once it runs, where their answers arrive (wired by the executable, which
  /// knows both the config and the HTTP client).
  package typealias Placement = @Sendable (_ profile: String) -> (any StartingThreadExecutor)?

  private let registry: MethodRegistry
  private let decoder: MessageDecoder
  private let sender: any MessageSender
  private let inFlight: InFlightRequests
  private let errors: ErrorTranslator
  private let maxBatchAnswerBytes: Int
  private let fastPath: FastPath?
  private let placement: Placement

  /// - Parameter fastValidators: the validators `validate` is registered with; given, lines the fast path
  ///   understands are answered from their bytes (`FastPath`), byte-identically, and the rest as before.
  package init(
    registry: MethodRegistry, sender: any MessageSender, limits: Limits = Limits(), errors: ErrorTranslator,
    fastValidators: ProfileValidators? = nil, placement: @escaping Placement = { _ in nil }
  ) {
    self.registry = registry
    self.placement = placement
    fastPath = fastValidators.map { FastPath(validators: $0, registry: registry, limits: limits) }
    self.sender = sender
    self.errors = errors
    maxBatchAnswerBytes = limits.maxBatchAnswerBytes
    decoder = MessageDecoder(maxDepth: limits.maxDepth, maxBatchSize: limits.maxBatchSize)
    inFlight = InFlightRequests(limit: limits.maxInFlight)
  }

  package func receive(_ body: UnsafeBufferPointer<UInt8>) {
    if let fastPath, sender.sendWritten({ fastPath.answer(body, into: &$0) }) { return }
    switch decoder.decode(body) {
    case .rejected(let error):
      sender.send(.error(id: .null, error))
    case .single(let message):
      handle(message) { [sender] in sender.send($0) }
    case .batch(let messages):
      let answered = messages.filter { if case .notification = $0 { false } else { true } }.count
      let collector = BatchCollector(expected: answered, sender: sender, maxAnswerBytes: maxBatchAnswerBytes)
      var slot = 0
      for message in messages {
        if collector.isOverBudget {
          // Not run at all, so no effect happens whose answer the host would never see.
          if let id = message.answerID {
            collector.reply(slot: slot)(.error(id: id, collector.overBudgetError()))
            slot += 1
          }
        } else if case .notification = message {
          handle(message) { _ in }
        } else {
          handle(message, reply: collector.reply(slot: slot))
          slot += 1
        }
      }
    }
  }

  package func receiveOversized(limit: Int) {
    sender.send(.error(id: .null, .invalidRequest("message larger than \(limit) bytes")))
  }

  package func receiveFramingError(_ detail: String) {
    sender.send(.error(id: .null, .invalidRequest(detail)))
  }

  package func drain(timeoutMilliseconds: Int) {
    inFlight.drain(timeoutMilliseconds: timeoutMilliseconds)
  }

  // MARK: - Dispatch

  private func handle(_ message: IncomingMessage, reply: @escaping Reply) {
    switch message {
    case .invalid(let id, let error):
      reply(.error(id: id, error))
    case .notification(let notification):
      handleNotification(notification)
    case .request(let request):
      handleRequest(request, reply: reply)
    }
  }

  private func handleNotification(_ notification: Notification) {
    if notification.method == CancelRequest.name {
      if let id = notification.params?.objectValue?["id"].flatMap(RequestID.init) { inFlight.cancel(id: id) }
      return
    }
    // A notification is never answered. Inline methods have no effects, so only methods
    // that do something (e.g. a fire-and-forget logout) are run.
    guard case .async(let method)? = registry[notification.method],
      let params = try? Params(notification.params), let context = try? context(for: nil, params)
    else { return }
    let executor = placement(context.profile)
    startHere(on: executor) {
      _ = inFlight.start(id: nil, profile: context.profile, plan: method.plan(for: params), on: executor) {
        guard LibCrypto.missingReason == nil else { return nil }
        _ = try? await method.call(params, context: context)
        return nil
      }
    }
  }

  /// Calls `start`, which starts a task on `executor`; when the executor allows it, this thread then runs the
  /// task up to its first wait instead of waking the executor's thread (`StartingThreadExecutor`). Outside the
  /// in-flight lock, which the task takes again when it finishes.
  private func startHere<T>(on executor: (any StartingThreadExecutor)?, _ start: () -> T) -> T {
    guard let executor else { return start() }
    return executor.startHere(start)
  }

  private func handleRequest(_ request: Request, reply: @escaping Reply) {
    let id = request.id
    if request.method == CancelRequest.name {
      if let target = request.params?.objectValue?["id"].flatMap(RequestID.init) { inFlight.cancel(id: target) }
      reply(.result(id: id, EncodedJSON.null))
      return
    }
    guard let method = registry[request.method] else {
      reply(.error(id: id, .methodNotFound(request.method)))
      return
    }
    let params: Params
    let context: CallContext
    do {
      params = try Params(request.params)
      context = try self.context(for: id, params)
    } catch {
      reply(.error(id: id, error))
      return
    }
    switch method {
    case .inline(let method):
      do {
        reply(.result(id: id, try method.call(params, context: context)))
      } catch {
        reply(.error(id: id, errors.translate(error, locale: context.locale)))
      }
    case .async(let method):
      let errors = self.errors
      let executor = placement(context.profile)
      let started = startHere(on: executor) {
        inFlight.start(
          id: id, profile: context.profile, plan: method.plan(for: params), on: executor,
          { await Self.run(method, params, context, errors) }, deliver: reply)
      }
      if !started {
        reply(.error(id: id, errors.tooManyInFlight(locale: context.locale)))
      }
    }
  }

  /// Runs one async method to its answer. A request cancelled before it starts answers
  /// `cancelled`; a read-only one cancelled while running does too. A session change that
  /// completed answers its real result, because its effect has happened.
  private static func run(_ method: any AsyncMethod, _ params: Params, _ context: CallContext,
    _ errors: ErrorTranslator) async -> OutgoingMessage
  {
    let id = context.id ?? .null
    if Task.isCancelled { return .error(id: id, errors.translate(CancellationError(), locale: context.locale)) }
    do {
      // Every method that runs here may reach libcrypto (the store's sealing, logins, tokens), some of it through
      // calls that cannot throw: this is where its absence becomes an answer. The first one opens it.
      try LibCrypto.require()
      let result = try await method.call(params, context: context)
      if Task.isCancelled, method.ordering != .changesSession { throw CancellationError() }
      return .result(id: id, result)
    } catch {
      return .error(id: id, errors.translate(error, locale: context.locale))
    }
  }

  private func context(for id: RequestID?, _ params: Params) throws(RPCError) -> CallContext {
    CallContext(id: id, profile: try params.profile(), locale: try params.locale())
  }
}

extension IncomingMessage {
  /// The id an answer to this message carries; nil for a notification, which is never answered.
  fileprivate var answerID: RequestID? {
    switch self {
    case .invalid(let id, _): return id
    case .request(let request): return request.id
    case .notification: return nil
    }
  }
}

/// `$/cancelRequest {id}`: LSP's cancellation notification.
enum CancelRequest {
  static let name = "$/cancelRequest"
}
