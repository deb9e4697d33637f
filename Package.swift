// swift-tools-version:6.0
// auth-sidecar: a JSON-RPC 2.0 stdio process that gives any program a complete client-side login.
// One target per concern, each with its test target beside it. Crypto, SQL storage and HTML parsing
// come from the system's OpenSSL, SQLite and libxml2 through system-library targets.
import PackageDescription

let package = Package(
  name: "auth-sidecar",
  products: [
    .executable(name: "auth-sidecar", targets: ["auth-sidecar"])
  ],
  targets: [
    // MARK: C libraries from the system
    .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

    // MARK: AuthJSON — strict RFC 8259 parser and compact writer, no Foundation
    .target(name: "AuthJSON"),
    .testTarget(name: "AuthJSONTests", dependencies: ["AuthJSON"]),

    // MARK: AuthProtocol — JSON-RPC 2.0 wire types: ids, messages, error codes and kinds
    .target(name: "AuthProtocol", dependencies: ["AuthJSON"]),
    .testTarget(name: "AuthProtocolTests", dependencies: ["AuthProtocol"]),

    // MARK: AuthTransport — stdio framing (NDJSON, LSP), the read loop and the stdout writer
    .target(name: "AuthTransport", dependencies: ["AuthProtocol"]),
    .testTarget(name: "AuthTransportTests", dependencies: ["AuthTransport"]),

    // MARK: AuthValidation — username, email, phone, password and account rules, en and zh-Hans
    .target(name: "AuthValidation"),
    .testTarget(name: "AuthValidationTests", dependencies: ["AuthValidation"]),

    // MARK: AuthCrypto — CSPRNG, hashes, KDFs, AES-GCM, JWT on OpenSSL's libcrypto
    .target(name: "AuthCrypto", dependencies: ["COpenSSL"]),
    .testTarget(name: "AuthCryptoTests", dependencies: ["AuthCrypto"]),

    // MARK: AuthStorage — the durable, private SQLite store with secrets sealed by AuthCrypto
    .target(name: "AuthStorage", dependencies: ["CSQLite", "AuthCrypto"]),
    .testTarget(name: "AuthStorageTests", dependencies: ["AuthStorage"]),

    // MARK: AuthDispatch — method registry, handlers, ordering, cancellation, error mapping
    .target(name: "AuthDispatch", dependencies: ["AuthProtocol", "AuthValidation"]),
    .testTarget(name: "AuthDispatchTests", dependencies: ["AuthDispatch"]),

    // MARK: auth-sidecar — the executable: parses options and wires the modules, nothing else
    .executableTarget(name: "auth-sidecar", dependencies: ["AuthTransport", "AuthDispatch"]),
    // Spawns the real binary over real pipes; depending on the executable makes `swift test` build it.
    .testTarget(
      name: "AuthSidecarEndToEndTests",
      dependencies: ["auth-sidecar"],
      exclude: ["Transcripts"]
    ),
  ]
)
