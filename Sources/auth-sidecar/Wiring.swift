import AuthConfig
import AuthCrypto
import AuthDispatch
import AuthHTTP
import AuthJSON
import AuthProtocol
import AuthProviders
import AuthSession
import AuthStorage
import AuthSupport
import AuthValidation

/// Builds the concrete parts — store, clock, randomness, providers, sessions, methods — from the
/// options and the config. The only place that knows every implementation.
struct Wiring {
  let options: SidecarOptions
  let config: SidecarConfig
  let log: Logger
  let clock: any Clock
  let manualClock: ManualClock?
  let stores: LazyStore
  let random: any RandomSource
  let hasher: PasswordHasher
  /// Discovery documents and key sets of every `oauth2` profile, fetched once per process.
  let oauth2Directory = OAuth2Directory()
  /// Test mode only: the codes the local provider issued, for `test.lastCode`.
  let issuedCodes: IssuedCodeLog?

  init(options: SidecarOptions, config: SidecarConfig) {
    self.options = options
    self.config = config
    let log = Logger(level: options.logLevel)
    self.log = log
    if let start = options.testClock {
      let manual = ManualClock(start)
      manualClock = manual
      clock = manual
    } else {
      manualClock = nil
      clock = SystemClock()
    }
    random = options.testSeed.map { SeededRandomSource(seed: $0) } ?? SystemRandomSource()
    hasher = options.testKDFIterations.map { PasswordHasher(algorithm: .pbkdf2SHA256(iterations: $0)) } ?? .owasp
    issuedCodes = options.isTestMode ? IssuedCodeLog() : nil
    if options.isTestMode { log.warning("TEST MODE: fixed clock / predictable randomness; never use in production") }
    let stateDirectory = options.stateDirectory
    // Read once, then gone from the process environment: no child inherits the store key, and
    // /proc/PID/environ no longer shows it.
    let environment = StateDirectory.processEnvironment()
    ProcessHardening.scrubEnvironmentVariable(StoreKey.environmentVariable)
    let keys = Self.keySelection(config.storage)
    stores = LazyStore {
      let store = try Store(explicitStateDirectory: stateDirectory, environment: environment, selection: keys)
      for note in store.notes { log.info("store: \(note)") }
      return store
    }
  }

  /// Where the store key comes from, as the config's `storage` says. Nothing is loaded here: libsecret is opened
  /// only when a store is first opened with its key in the keyring.
  static func keySelection(_ storage: StorageConfig) -> KeySelection {
    KeySelection(
      setting: storage.keySource, keyring: SecretServiceKeyring(timeout: .seconds(storage.keyringTimeoutSeconds)))
  }

  func provider(for profile: ProfileConfig) -> any IdentityProvider {
    switch profile.provider {
    case .local(let local):
      return LocalProvider(
        stores: stores, clock: clock, random: random, hasher: hasher,
        accessTokenTTLSeconds: local.accessTokenTTLSeconds, refreshTokenTTLDays: local.refreshTokenTTLDays,
        codes: profile.codes, codeDeliveryCommand: local.codeDeliveryCommand, log: log, codeLog: issuedCodes)
    case .rest(let rest):
      return RESTProvider(config: rest, client: http(profile), clock: clock, log: log, codes: profile.codes)
    case .oauth2(let oauth2):
      return OAuth2Provider(
        settings: Self.settings(oauth2), http: http(profile), clock: clock, random: random, log: log,
        directory: oauth2Directory)
    case .form(let form):
      return FormProvider(config: form, client: http(profile), clock: clock, log: log)
    case .simulated(let simulated):
      log.warning("profile \(profile.name): the simulated provider makes its answers up; never use it in production")
      return SimulatedProvider(
        config: simulated, time: SimulatedTime(clock: clock, testClock: manualClock),
        random: options.isTestMode ? nil : random, refreshMarginSeconds: profile.refreshMarginSeconds,
        codeLength: profile.codes.length)
    }
  }

  /// A remote profile's HTTP client, with its TLS settings. Cheap: libcurl is loaded and its thread started on the
  /// first request of the process, which every client shares (with its connections). Retry-After dates are
  /// read against the real wall clock, the one servers date them by, even in test mode.
  func http(_ profile: ProfileConfig) -> CurlHTTPClient {
    CurlHTTPClient(tls: profile.tls, log: log)
  }

  /// The `oauth2` provider's settings from its config. The provider holds the client secret as `SecretBytes`,
  /// whose memory is wiped when released; the config keeps its own `String` copy for the life of the process
  /// (a Swift `String` cannot be wiped), so the secret is in memory in clear as long as the sidecar runs.
  static func settings(_ config: OAuth2ProviderConfig) -> OAuth2Settings {
    OAuth2Settings(
      issuer: config.issuer, clientID: config.clientID,
      clientSecret: config.clientSecret.map { SecretBytes(Array($0.utf8)) },
      scopes: config.scopes, allowPasswordGrant: config.allowPasswordGrant,
      endpoints: config.endpoints,
      idTokenLeeway: Int64(config.idTokenLeewaySeconds), timeout: .seconds(config.timeoutSeconds),
      flows: config.flows,
      interactiveTimeout: Int64(config.interactiveTimeoutSeconds))
  }

  func makeSessions(notify: @escaping @Sendable (SessionChanged) -> Void) -> SessionService {
    let profiles = config.profiles.mapValues { SessionService.Profile(config: $0, provider: provider(for: $0)) }
    return SessionService(
      stores: stores, clock: clock, profiles: profiles, log: log,
      networkThreadExecutor: { CurlHTTPClient.preferredExecutor }, notify: notify)
  }

  /// The dispatcher with every method registered; `sessionChanged` goes to `sender`.
  func makeServer(sender: any MessageSender) -> Server {
    let sessions = makeSessions { sender.send(.notification(method: SessionChanged.method, params: $0.params)) }
    let validators = ProfileValidators(
      policies: config.profiles.mapValues { $0.validation.withCodeLength($0.codes.length) })
    var registry = MethodRegistry()
    registry.register(ValidateMethod(validators: validators))
    registry.register(DiscoverMethod())
    registry.register(
      LoginMethod(sessions: sessions, validators: validators) { prompt in
        sender.send(.notification(method: LoginMethod.promptNotification, params: prompt))
      })
    registry.register(RegisterMethod(sessions: sessions, validators: validators))
    registry.register(SendCodeMethod(sessions: sessions, validators: validators))
    registry.register(ResetPasswordMethod(sessions: sessions, validators: validators))
    registry.register(GetUserMethod(sessions: sessions))
    registry.register(RefreshTokenMethod(sessions: sessions))
    registry.register(LogoutMethod(sessions: sessions))
    if let manualClock { registry.register(AdvanceClockMethod(clock: manualClock)) }
    if let issuedCodes { registry.register(TestLastCodeMethod(log: issuedCodes, validators: validators)) }
    registry.register(
      StatusMethod(
        sessions: sessions, version: AuthSidecar.version, methods: registry.names + ["status"],
        providers: ProviderKind.allCases.map(\.rawValue)))
    var limits = Server.Limits()
    limits.maxDepth = options.maxDepth
    limits.maxInFlight = options.maxInFlight
    limits.maxBatchSize = options.maxBatchSize
    limits.maxBatchAnswerBytes = options.maxBatchAnswerBytes
    let remote = Set(config.profiles.filter { $0.value.provider.kind.isRemote }.keys)
    return Server(
      registry: registry, sender: sender, limits: limits, errors: ErrorTranslator(report: { [log] in log.info($0) }),
      fastValidators: validators,
      placement: { remote.contains($0) ? CurlHTTPClient.preferredExecutor : nil })
  }
}
