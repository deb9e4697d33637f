internal import CLibXML2

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// libxml2, opened with `dlopen` on the first page parsed rather than linked.
///
/// Linking it would load libxml2, ICU and their dependencies at every start of the sidecar — about 1 ms of CPU
/// measured, a third of a cold start — although most hosts never log in through an HTML form. The soname
/// `libxml2.so.2` has kept its ABI since 2000, which is what makes reading the tree through the headers' structs
/// safe with whichever 2.x the machine has.
struct LibXML2: Sendable {
  typealias ReadMemory =
    @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32) -> htmlDocPtr?
  typealias FreeDoc = @convention(c) (xmlDocPtr?) -> Void
  typealias InitParser = @convention(c) () -> Void

  let readMemory: ReadMemory
  let freeDoc: FreeDoc

  /// Opened once, by the first caller; every later one shares the result. libxml2 2.9 also asks for
  /// `xmlInitParser` once, from one thread, before parsers run on several threads at once (it builds global
  /// tables lazily), which a global's thread-safe lazy initialization gives.
  static let shared: Result<LibXML2, HTMLParserUnavailable> = open()

  private static func open() -> Result<LibXML2, HTMLParserUnavailable> {
    // RTLD_LOCAL: its symbols serve this lookup only, never the rest of the process.
    guard let handle = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL) else {
      return .failure(HTMLParserUnavailable(detail: "libxml2.so.2 could not be loaded; install libxml2"))
    }
    guard let read = dlsym(handle, "htmlReadMemory"), let free = dlsym(handle, "xmlFreeDoc"),
      let initialize = dlsym(handle, "xmlInitParser")
    else { return .failure(HTMLParserUnavailable(detail: "libxml2.so.2 lacks the HTML parser")) }
    unsafeBitCast(initialize, to: InitParser.self)()
    return .success(
      LibXML2(readMemory: unsafeBitCast(read, to: ReadMemory.self), freeDoc: unsafeBitCast(free, to: FreeDoc.self)))
  }
}
