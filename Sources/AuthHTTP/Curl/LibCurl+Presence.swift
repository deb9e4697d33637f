#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension LibCurl {
  /// Where the dynamic loader finds system libraries on the distributions we know, besides `LD_LIBRARY_PATH`.
  static let libraryDirectories: [String] = {
    #if arch(x86_64)
      let multiarch = "x86_64-linux-gnu"
    #elseif arch(arm64)
      let multiarch = "aarch64-linux-gnu"
    #else
      let multiarch = ""
    #endif
    let common = ["/lib", "/usr/lib", "/lib64", "/usr/lib64", "/usr/local/lib"]
    return multiarch.isEmpty ? common : ["/lib/\(multiarch)", "/usr/lib/\(multiarch)"] + common
  }()

  /// Whether libcurl is there to be opened, decided at start without opening it: a file check in the loader's
  /// usual directories first (opening libcurl maps it and its TLS and HTTP/2 libraries, which a process must not
  /// pay before its first remote request), and only when no file is found, a real `open` to be sure. Nil when it
  /// is there; else why not, with how to install it.
  static func missingReason(sonames: [String] = sonames) -> String? {
    let libraryPath = getenv("LD_LIBRARY_PATH").map { String(cString: $0) } ?? ""
    let directories = libraryPath.split(separator: ":").map(String.init) + libraryDirectories
    for directory in directories where !directory.isEmpty {
      for soname in sonames where access(directory + "/" + soname, F_OK) == 0 { return nil }
    }
    if case .failure(let error) = sonames == Self.sonames ? shared : open(sonames: sonames) { return error.detail }
    return nil
  }
}
