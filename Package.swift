// swift-tools-version:6.0
// auth-sidecar: a JSON-RPC 2.0 stdio process that gives any program a complete client-side login.
// One target per concern, each with its test target beside it. Crypto, SQL storage and HTML parsing
// come from the system's OpenSSL, SQLite and libxml2 (OpenSSL and libxml2 opened with dlopen when first needed).
import Foundation
import PackageDescription

// The one version of the whole project (binary, schema, both clients; Tests/Python/test_version.py checks the
// copies), and the commit a release is built from (scripts/release sets AUTH_SIDECAR_COMMIT): both are carried into
// the binary by CBuildInfo, for `auth-sidecar --version`.
let version = (try? String(contentsOfFile: Context.packageDirectory + "/VERSION", encoding: .utf8))?
  .trimmingCharacters(in: .whitespacesAndNewlines) ?? "0.0.0-unknown"
let commit = Context.environment["AUTH_SIDECAR_COMMIT"] ?? ""
/// A C string literal of `text`, keeping only what a version or a commit may hold.
func cString(_ text: String) -> String {
  "\"" + text.filter { $0.isASCII && ($0.isLetter || $0.isNumber || ".-+".contains($0)) } + "\""
}

let package = Package(
  name: "auth-sidecar",
  products: [
    .executable(name: "auth-sidecar", targets: ["auth-sidecar"]),
  ],
  targets: [
    // MARK: C libraries from the system
    // OpenSSL's headers (Debian: libssl-dev), and no link: COpenSSL opens libcrypto with dlopen on the first request
    // that needs it (see its libcrypto.c), so a host that only validates never maps it.
    .target(name: "COpenSSL"),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // Headers only: libxml2 (and the ICU it pulls in) would cost every start of the sidecar about 1 ms of CPU, so
    // AuthHTML loads it with dlopen on the first page it parses. Without pkgConfig, which would link it; the
    // header path is the one every Linux distribution's libxml2-dev uses (see AuthHTML's swiftSettings).
    .systemLibrary(name: "CLibXML2", providers: [.apt(["libxml2-dev"])]),
    // Headers only, for the same reason: AuthHTTP opens libcurl with dlopen on the first remote request, so a
    // validate-only host never maps it and a machine without it still runs everything else.
    .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    // Our own declarations of the few libsecret and GLib types the keyring needs, no headers of theirs: AuthStorage
    // opens libsecret with dlopen only when a store key is kept in the keyring, so nothing is needed to build and
    // a sidecar that never uses the keyring never maps libsecret, GLib or GIO.
    .systemLibrary(name: "CSecretService"),
    // Header-only: prctl (PR_SET_DUMPABLE), which the Glibc module does not show.
    .systemLibrary(name: "CProcessControl"),
    // MARK: CBuildInfo — the version and commit, defined by this manifest
    .target(
      name: "CBuildInfo",
      cSettings: [
        .define("AUTH_SIDECAR_VERSION", to: cString(version)), .define("AUTH_SIDECAR_COMMIT", to: cString(commit)),
      ]),

    // MARK: CStartupArguments — argc and argv for the Swift runtime, kept from .init_array (see its source)
    .target(name: "CStartupArguments"),

    // MARK: AuthSupport — clock, logger, RFC 3339 times, blocking-work offload
    .target(name: "AuthSupport", dependencies: ["CProcessControl"]),
    .testTarget(name: "AuthSupportTests", dependencies: ["AuthSupport"]),

    // MARK: AuthJSON — strict RFC 8259 parser and compact writer, no Foundation
    .target(name: "AuthJSON"),
    .testTarget(name: "AuthJSONTests", dependencies: ["AuthJSON"]),

    // MARK: AuthProtocol — JSON-RPC 2.0 wire types: ids, messages, error codes and kinds
    .target(name: "AuthProtocol", dependencies: ["AuthJSON"]),
    .testTarget(name: "AuthProtocolTests", dependencies: ["AuthProtocol", "AuthJSON"]),

    // MARK: AuthTransport — stdio framing (NDJSON, LSP), the read loop and the stdout writer
    .target(name: "AuthTransport", dependencies: ["AuthProtocol"]),
    .testTarget(name: "AuthTransportTests", dependencies: ["AuthTransport", "AuthProtocol", "AuthJSON"]),

    // MARK: AuthValidation — username, email, phone, password and account rules, en and zh-Hans
    // CommonPasswords.txt is the source scripts/generate-common-passwords packs into CommonPasswordTable.swift.
    .target(name: "AuthValidation", exclude: ["CommonPasswords.txt"]),
    .testTarget(name: "AuthValidationTests", dependencies: ["AuthValidation"]),

    // MARK: AuthConfig — the profiles config file
    // AuthHTTP: a configured URL is held to the HTTP client's own rule (`RequestTarget`, `Loopback`).
    // AuthCrypto: an RSA public key given for password encryption is decoded when the config loads.
    .target(
      name: "AuthConfig",
      dependencies: ["AuthJSON", "AuthValidation", "AuthHTML", "AuthHTTP", "AuthCrypto", "AuthStorage"]),
    .testTarget(name: "AuthConfigTests", dependencies: ["AuthConfig", "AuthHTTP", "AuthStorage"]),

    // MARK: AuthCrypto — CSPRNG, hashes, KDFs, AES-GCM, JWT on OpenSSL's libcrypto
    .target(name: "AuthCrypto", dependencies: ["COpenSSL"]),
    .testTarget(name: "AuthCryptoTests", dependencies: ["AuthCrypto"]),

    // MARK: AuthStorage — the durable, private SQLite store with secrets sealed by AuthCrypto
    .target(name: "AuthStorage", dependencies: ["CSQLite", "AuthCrypto", "CSecretService"]),
    .testTarget(name: "AuthStorageTests", dependencies: ["AuthStorage"]),

    // MARK: AuthHTTP — the HTTP client protocol and types, cookies, retry rules, and `CurlHTTPClient` on libcurl's
    // multi interface (loaded on first use). No Foundation: linking FoundationNetworking alone adds about 6.5 ms to
    // every start of the sidecar.
    .target(name: "AuthHTTP", dependencies: ["AuthSupport", "AuthJSON", "CCurl"]),
    // Fixtures: the Python fake server and CONNECT proxy the tests spawn; excluded so SwiftPM does not warn.
    .testTarget(name: "AuthHTTPTests", dependencies: ["AuthHTTP", "AuthSupport", "AuthJSON"], exclude: ["Fixtures"]),

    // bench/remote_login.py's third side: the HTTP client alone, driven over stdin and stdout (not a product).
    .executableTarget(
      name: "auth-http-bench", dependencies: ["AuthHTTP", "AuthJSON", "AuthSupport"], path: "bench/http-client-alone"),

    // MARK: AuthHTML — libxml2's HTML parser, the page copied into a small Swift DOM: forms, selectors, text
    .target(
      name: "AuthHTML", dependencies: ["CLibXML2"], swiftSettings: [.unsafeFlags(["-Xcc", "-I/usr/include/libxml2"])]),
    .testTarget(name: "AuthHTMLTests", dependencies: ["AuthHTML"]),

    // MARK: AuthProviders — the identity providers behind one protocol: local accounts, REST, OAuth2, HTML form
    .target(
      name: "AuthProviders",
      dependencies: ["AuthJSON", "AuthCrypto", "AuthStorage", "AuthSupport", "AuthHTTP", "AuthConfig", "AuthHTML"]),
    .testTarget(
      name: "AuthProvidersTests",
      dependencies: [
        "AuthProviders", "AuthConfig", "AuthStorage", "AuthCrypto", "AuthSupport", "AuthJSON", "AuthHTTP",
      ]),

    // MARK: AuthSession — sessions per profile: login, single-flight refresh across processes, logout
    .target(
      name: "AuthSession", dependencies: ["AuthConfig", "AuthProviders", "AuthStorage", "AuthSupport", "AuthJSON"]),
    .testTarget(
      name: "AuthSessionTests",
      dependencies: ["AuthSession", "AuthProviders", "AuthConfig", "AuthStorage", "AuthCrypto", "AuthSupport", "AuthJSON"]),

    // MARK: AuthDispatch — method registry, handlers, ordering, cancellation, error mapping
    .target(
      name: "AuthDispatch",
      dependencies: [
        "AuthProtocol", "AuthValidation", "AuthConfig", "AuthSession", "AuthProviders", "AuthStorage", "AuthSupport",
        "AuthCrypto", "AuthJSON",
      ]),
    .testTarget(
      name: "AuthDispatchTests",
      // AuthSession, AuthProviders, AuthStorage, AuthHTTP, AuthCrypto: the module errors ErrorTranslator maps.
      dependencies: [
        "AuthDispatch", "AuthProtocol", "AuthJSON", "AuthValidation", "AuthSession", "AuthProviders", "AuthStorage",
        "AuthHTTP", "AuthCrypto",
      ]),

    // MARK: auth-sidecar — the executable: parses options and wires the modules, nothing else. Foundation-free
    // modules only: its cold start is the product's bar.
    .executableTarget(
      name: "auth-sidecar",
      dependencies: [
        "AuthTransport", "AuthDispatch", "AuthConfig", "AuthSession", "AuthProviders", "AuthStorage", "AuthSupport",
        "AuthCrypto", "AuthValidation", "AuthJSON", "AuthProtocol", "AuthHTTP", "CBuildInfo", "CStartupArguments",
      ]),
    // Spawns the real binary over real pipes; depending on the executable makes `swift test` build it.
    .testTarget(
      name: "AuthSidecarEndToEndTests",
      // AuthStorage, AuthCrypto and CSQLite: the storage-bar suites run `PRAGMA integrity_check` on the store
      // and read the sealed refresh token back, to prove it is nowhere else in clear.
      dependencies: ["auth-sidecar", "AuthStorage", "AuthCrypto", "CSQLite"],
      exclude: ["Transcripts"]
    ),
  ]
)
