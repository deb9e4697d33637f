/// Method names → implementations. Built once by the executable; read-only afterwards.
package struct MethodRegistry: Sendable {
  private var methods: [String: RegisteredMethod] = [:]

  package init() {}

  package mutating func register<M: InlineMethod>(_ method: M) { methods[M.name] = .inline(method) }
  package mutating func register<M: AsyncMethod>(_ method: M) { methods[M.name] = .async(method) }

  package subscript(name: String) -> RegisteredMethod? { methods[name] }

  /// Every registered name, sorted, for `status` and the schema conformance test.
  package var names: [String] { methods.keys.sorted() }
}
