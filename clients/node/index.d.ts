// Type declarations for the `auth-sidecar` Node.js client (hand-written; mirrors src/index.js).
// The shapes follow schema/openrpc.json of the auth-sidecar repository. Needs @types/node.

import { EventEmitter } from 'node:events';

// --- protocol shapes ----------------------------------------------------------------------------

/** A profile name (`^[A-Za-z0-9_.-]{1,64}$`); `"default"` when omitted. */
export type ProfileName = string;
/** Message locale of answers and errors. */
export type Locale = 'en' | 'zh-Hans' | (string & {});

export interface CommonParams {
  profile?: ProfileName;
  locale?: Locale;
}

export type ValidationErrorCode =
  | 'required'
  | 'too_short'
  | 'too_long'
  | 'invalid_characters'
  | 'invalid_format'
  | 'missing_letter'
  | 'missing_digit'
  | 'too_common';

export interface FieldReport {
  valid: boolean;
  /** The normalized value; never present for `password`. */
  value?: string;
  /** Only for `account`: how the single login field was classified. */
  kind?: 'email' | 'phone' | 'username';
  errors: Array<{ code: ValidationErrorCode; message: string }>;
}

export interface ValidationFields {
  account?: FieldReport;
  username?: FieldReport;
  email?: FieldReport;
  phone?: FieldReport;
  password?: FieldReport;
}

export interface ValidateParams extends CommonParams {
  account?: string;
  username?: string;
  email?: string;
  phone?: string;
  password?: string;
  /** `register` (the full policy, default) or `login` (presence, length caps and format only). */
  purpose?: 'register' | 'login';
}

export interface ValidateResult {
  valid: boolean;
  fields: ValidationFields;
}

export interface RegisterParams extends CommonParams {
  username: string;
  password: string;
  email?: string;
  phone?: string;
  displayName?: string;
}

/** Give exactly one of `account`, `username`, `email`, `phone`. */
export interface PasswordLoginParams extends CommonParams {
  flow?: 'password';
  account?: string;
  username?: string;
  email?: string;
  phone?: string;
  password: string;
  /**
   * Values the login API needs from the host (a device id, an app version): strings only, under
   * names the profile declares in `rest.context`; any other name is `invalid_params`, never sent.
   */
  context?: Record<string, string>;
}

/**
 * An interactive login (oauth2 profiles): the user signs in elsewhere, so nothing is typed here.
 * `device`: RFC 8628 device authorization; `authorizationCode`: RFC 6749 code with PKCE and a
 * loopback redirect (RFC 8252). The sidecar sends `loginPrompt` with what to show or open.
 */
export interface InteractiveLoginParams extends CommonParams {
  flow: 'device' | 'authorizationCode';
}

/** A login with a code sent by `sendCode({purpose: 'login'})`. */
export interface CodeLoginParams extends CommonParams {
  account?: string;
  username?: string;
  email?: string;
  phone?: string;
  code: string;
}

/** The second step of a login that threw `VerificationRequiredError`: its challenge and the code. */
export interface ChallengeLoginParams extends CommonParams {
  challenge: string;
  code: string;
}

export type LoginParams = PasswordLoginParams | InteractiveLoginParams | CodeLoginParams | ChallengeLoginParams;

export type CodePurpose = 'login' | 'register' | 'resetPassword' | 'verifyContact';
export type CodeChannel = 'sms' | 'email';

export type SendCodeParams =
  | (CommonParams & {
      account?: string;
      username?: string;
      email?: string;
      phone?: string;
      purpose: CodePurpose;
      channel?: CodeChannel;
    })
  | (CommonParams & { challenge: string });

export interface SendCodeResult {
  /** Masked: `+86 138****5678`, `a***@example.com`. */
  sentTo: string;
  channel: CodeChannel;
  /** RFC 3339: when the next code may be asked for. */
  resendAt: string;
  expiresAt: string;
}

export interface ResetPasswordParams extends CommonParams {
  account?: string;
  username?: string;
  email?: string;
  phone?: string;
  code: string;
  newPassword: string;
}

/** `loginPrompt`: what the host shows or opens while an interactive login waits for the user. */
export type LoginPromptEvent =
  | {
      profile: string;
      /** The id of the pending `login` request. */
      id: number | string | null;
      flow: 'device';
      /** Show it; the user types it at `verificationUri`. */
      userCode: string;
      verificationUri: string;
      /** The same page with the code filled in (e.g. for a QR code), when the server offers one. */
      verificationUriComplete?: string;
      /** RFC 3339: the login answers TimeoutError if nobody approves by then. */
      expiresAt: string;
    }
  | {
      profile: string;
      id: number | string | null;
      flow: 'authorizationCode';
      /** Open it in the user's browser. */
      authorizationUrl: string;
      /** The sidecar's loopback listener (`http://127.0.0.1:<port>/callback`). */
      redirectUri: string;
      expiresAt: string;
    };

export interface User {
  id: string;
  username: string;
  email?: string;
  phone?: string;
  displayName?: string;
  /** Providers may add members after the standard ones. */
  [key: string]: unknown;
}

export interface Session {
  /** The bearer token for the host's API; absent when `tokenType` is `"cookie"` (the `form` provider, whose
   * credential is the site's session cookie, which never leaves the sidecar) or `"none"` (a `rest` login API
   * that answers only yes or no: the session carries the user and no token). */
  accessToken?: string;
  /** `"Bearer"` (or the API's own scheme), `"cookie"` for the `form` provider, `"none"` for a tokenless
   * `rest` API. */
  tokenType: 'cookie' | 'none' | (string & {});
  /** RFC 3339, UTC, e.g. `2027-01-01T00:15:00Z`. */
  expiresAt: string;
  scopes?: string[];
}

export interface RegisterResult {
  user: User;
}

export interface LoginResult {
  user: User;
  session: Session;
}

export interface GetUserParams extends CommonParams {
  /** Fetch the user from the provider first. */
  refresh?: boolean;
}

export interface GetUserResult {
  user: User;
  session: Session;
  stale: boolean;
}

export interface RefreshTokenParams extends CommonParams {
  /** Refresh even when the access token is not within the refresh margin. */
  force?: boolean;
}

export interface RefreshTokenResult {
  session: Session;
}

export interface LogoutResult {
  loggedOut: true;
  /** Whether the provider revoked the session (false when there was none). */
  revoked: boolean;
}

export interface StatusProfile {
  name: ProfileName;
  provider: string;
  /** `simulated` profiles only: their answers are made up, for tests and demos; never ship one. */
  warning?: string;
  /** The login flows the profile accepts: offer the sign-in these allow. */
  loginFlows: Array<'password' | 'device' | 'authorizationCode'>;
  /**
   * oauth2 profiles using discovery: true until the discovery document was fetched (`loginFlows`
   * are then the configured flows, not yet checked against what the server announces).
   */
  discoveryPending?: boolean;
  /** The code flows the profile offers. */
  codeFlows: Array<'sendCode' | 'loginWithCode' | 'verify' | 'resetPassword'>;
  loggedIn: boolean;
  expiresAt?: string;
  username?: string;
  [key: string]: unknown;
}

export interface StatusResult {
  version: string;
  capabilities: {
    methods: string[];
    framing: string[];
    providers: string[];
    locales: string[];
    [key: string]: unknown;
  };
  storage: { protection: 'env-key' | 'key-file' | 'keyring' | (string & {}); encryption?: string; [key: string]: unknown };
  profiles: StatusProfile[];
}

/** The OpenRPC document (`rpc.discover`). */
export interface OpenRpcDocument {
  openrpc: string;
  info: { title: string; version: string; [key: string]: unknown };
  methods: Array<{ name: string; [key: string]: unknown }>;
  components?: { errors?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

export type SessionState = 'loggedIn' | 'refreshed' | 'loggedOut' | 'expired';

export interface SessionChangedEvent {
  profile: ProfileName;
  state: SessionState;
}

export interface NotificationEvent {
  method: string;
  params: unknown;
}

export interface ExitStatus {
  /** The exit code, or null when a signal ended the process (or it never started). */
  code: number | null;
  /** The signal that ended the process, e.g. `"SIGKILL"`. */
  signal: string | null;
}

// --- the client ---------------------------------------------------------------------------------

export interface AuthSidecarOptions {
  /**
   * Path of the auth-sidecar executable; else `AUTH_SIDECAR_BIN`, else the one inside this package (release
   * tarballs carry it), else `auth-sidecar` on PATH.
   */
  binary?: string;
  /** `--state-dir`: where the session store lives. */
  stateDir?: string;
  /** `--config`: a config file path, or a config object (written to a private temp file). */
  config?: string | { profiles: Record<string, unknown>; [key: string]: unknown };
  /** `--log-level` of the sidecar's stderr diagnostics. */
  logLevel?: 'error' | 'warning' | 'info' | 'debug' | 'trace';
  /** Message framing on the pipes: `ndjson` (default) or `lsp` (Content-Length headers). */
  framing?: 'ndjson' | 'lsp';
  /** More command-line arguments, appended last. Never put a password here. */
  args?: string[];
  /** Environment variables added to (or, when undefined, removed from) `process.env`. */
  env?: Record<string, string | undefined>;
  /** Working directory of the sidecar. */
  cwd?: string;
  /** Default `profile` for every method call that does not name one. */
  profile?: ProfileName;
  /** Default `locale` for every method call that does not name one. */
  locale?: Locale;
  /**
   * Requests (other than `validate`) sent at once; more wait in the client. Default 64, the
   * sidecar's default. When set, also passed as `--max-in-flight`. `Infinity`: no client queue.
   */
  maxInFlight?: number;
  /** Largest message (bytes); larger ones are refused before sending. Also passed as `--max-message-bytes`. */
  maxMessageBytes?: number;
  /** Deepest JSON nesting; deeper messages are refused before sending. Also passed as `--max-depth`. */
  maxDepth?: number;
  /** Test mode (sets AUTH_SIDECAR_TEST_MODE=1): never in production. */
  test?: {
    /** `--test-clock`: a fixed clock, moved only by `advanceClock`. */
    clock?: string | Date;
    /** `--test-seed`: predictable randomness. */
    seed?: number;
    /** `--test-kdf-iterations`: fast password hashing (e.g. 1000). */
    kdfIterations?: number;
  };
  /** Wait for a first answer in `start()` (default true). */
  handshake?: boolean;
  /** `close()`: ms to wait after closing stdin before SIGTERM (default 5000). */
  closeTimeout?: number;
  /** `close()`: ms to wait after SIGTERM before SIGKILL (default 3000). */
  killTimeout?: number;
}

export interface CallOptions {
  /**
   * Aborts the call: a request still queued in the client is dropped (CancelledError at once);
   * a sent one is cancelled with `$/cancelRequest` and settles with the sidecar's answer —
   * CancelledError, or the real result when the work had already taken effect.
   */
  signal?: AbortSignal;
}

export interface LoginOptions extends CallOptions {
  /** Interactive flows: called once with the `loginPrompt` of this login, before it settles. */
  onPrompt?: (prompt: LoginPromptEvent) => void;
}

export interface AuthSidecarEvents {
  sessionChanged: [event: SessionChangedEvent];
  loginPrompt: [event: LoginPromptEvent];
  notification: [event: NotificationEvent];
  exit: [status: ExitStatus];
  stderr: [line: string];
  protocolError: [error: Error];
}

export declare class AuthSidecar extends EventEmitter {
  /** Spawns a sidecar and waits until it answers. */
  static start(options?: AuthSidecarOptions): Promise<AuthSidecar>;
  constructor(options?: AuthSidecarOptions);

  readonly framing: 'ndjson' | 'lsp';
  readonly options: Readonly<AuthSidecarOptions>;
  /** The process id while it runs. */
  readonly pid: number | undefined;
  readonly state: 'idle' | 'starting' | 'running' | 'closing' | 'exited';
  /** The last lines the sidecar wrote to stderr. */
  readonly stderrTail: string[];
  /** How the process ended, once it has. */
  readonly exitStatus: ExitStatus | null;
  /** Resolves when the process has ended, for whatever reason. Asking for it keeps the host's
   * event loop alive until then (otherwise only pending work does). */
  readonly exited: Promise<ExitStatus>;

  /** Spawns the sidecar (idempotent); resolves once it answered a first request. */
  start(): Promise<void>;
  /** Closes stdin, waits, then SIGTERM, then SIGKILL. Idempotent. */
  close(): Promise<ExitStatus>;
  [Symbol.asyncDispose](): Promise<void>;

  validate(params: ValidateParams, options?: CallOptions): Promise<ValidateResult>;
  register(params: RegisterParams, options?: CallOptions): Promise<RegisterResult>;
  login(params: LoginParams, options?: LoginOptions): Promise<LoginResult>;
  sendCode(params: SendCodeParams, options?: CallOptions): Promise<SendCodeResult>;
  resetPassword(params: ResetPasswordParams, options?: CallOptions): Promise<{ reset: true }>;
  getUser(params?: GetUserParams, options?: CallOptions): Promise<GetUserResult>;
  refreshToken(params?: RefreshTokenParams, options?: CallOptions): Promise<RefreshTokenResult>;
  logout(params?: CommonParams, options?: CallOptions): Promise<LogoutResult>;
  status(params?: CommonParams, options?: CallOptions): Promise<StatusResult>;
  /** `rpc.discover`: the OpenRPC document. */
  discover(options?: CallOptions): Promise<OpenRpcDocument>;
  /** Test mode with `test.clock` only: `test.advanceClock`. */
  advanceClock(seconds: number, options?: CallOptions): Promise<{ now: string }>;

  /** Any method by name. */
  call<T = unknown>(method: string, params?: object | unknown[], options?: CallOptions): Promise<T>;
  /** Sends a notification (no answer). */
  notify(method: string, params?: object | unknown[]): void;

  on<K extends keyof AuthSidecarEvents>(event: K, listener: (...args: AuthSidecarEvents[K]) => void): this;
  on(event: string | symbol, listener: (...args: any[]) => void): this;
  once<K extends keyof AuthSidecarEvents>(event: K, listener: (...args: AuthSidecarEvents[K]) => void): this;
  once(event: string | symbol, listener: (...args: any[]) => void): this;
  off<K extends keyof AuthSidecarEvents>(event: K, listener: (...args: AuthSidecarEvents[K]) => void): this;
  off(event: string | symbol, listener: (...args: any[]) => void): this;
  addListener<K extends keyof AuthSidecarEvents>(event: K, listener: (...args: AuthSidecarEvents[K]) => void): this;
  addListener(event: string | symbol, listener: (...args: any[]) => void): this;
  removeListener<K extends keyof AuthSidecarEvents>(event: K, listener: (...args: AuthSidecarEvents[K]) => void): this;
  removeListener(event: string | symbol, listener: (...args: any[]) => void): this;
}

/**
 * Where the sidecar binary is: `binary`, else `AUTH_SIDECAR_BIN`, else the one inside this package (release
 * tarballs carry it), else PATH. Throws BinaryNotFoundError.
 */
export declare function findBinary(options?: { binary?: string; env?: Record<string, string | undefined> }): string;

// --- errors -------------------------------------------------------------------------------------

/** Every error kind of the contract (schema/openrpc.json `components.errors`). */
export type ErrorKind =
  | 'parse_error'
  | 'invalid_request'
  | 'method_not_found'
  | 'invalid_params'
  | 'internal'
  | 'validation_failed'
  | 'invalid_credentials'
  | 'not_logged_in'
  | 'session_expired'
  | 'rate_limited'
  | 'network_unavailable'
  | 'timeout'
  | 'server_error'
  | 'bad_response'
  | 'tls_error'
  | 'storage_unavailable'
  | 'storage_corrupt'
  | 'already_exists'
  | 'unsupported'
  | 'config_error'
  | 'cancelled';

/** Kinds of errors raised by the client itself. */
export type ClientErrorKind = 'sidecar_exited' | 'binary_not_found' | 'client_state';

export interface ErrorData {
  kind: ErrorKind | ClientErrorKind | (string & {});
  retryable: boolean;
  field?: string;
  fields?: ValidationFields;
  method?: string;
  reason?: string;
  status?: number;
  retryAfter?: number;
  provider?: string;
  lastAccount?: string;
  profile?: string;
  /** True when the client refused or cancelled the request without the sidecar. */
  clientSide?: boolean;
  [key: string]: unknown;
}

export interface AuthSidecarErrorInit {
  kind?: string;
  code?: number | null;
  data?: Partial<ErrorData>;
  method?: string;
  cause?: unknown;
}

export declare class AuthSidecarError extends Error {
  constructor(message: string, init?: AuthSidecarErrorInit);
  /** Stable string to switch on (`error.data.kind`). */
  readonly kind: ErrorKind | ClientErrorKind | (string & {});
  /** JSON-RPC error code; null for errors raised by the client. */
  readonly code: number | null;
  /** `error.data` as the sidecar sent it. */
  readonly data: ErrorData;
  /** The JSON-RPC method of the failed call. */
  readonly method: string | undefined;
  readonly retryable: boolean;
  /** Seconds to wait before trying again. */
  readonly retryAfter: number | undefined;
  /** Per-field report (validation_failed). */
  readonly fields: ValidationFields | undefined;
  /** The params key or account field concerned (invalid_params, already_exists). */
  readonly field: string | undefined;
  /** `error.data.reason`: `"unknown_account"` on invalid_credentials, `"too_many_in_flight"` on rate_limited, … */
  readonly reason: string | undefined;
  toJSON(): { name: string; kind: string; code: number | null; message: string; data: ErrorData };
}

export declare class ParseError extends AuthSidecarError {}
export declare class InvalidRequestError extends AuthSidecarError {}
export declare class MethodNotFoundError extends AuthSidecarError {}
export declare class InvalidParamsError extends AuthSidecarError {}
export declare class InternalError extends AuthSidecarError {}
export declare class ValidationFailedError extends AuthSidecarError {
  readonly fields: ValidationFields;
}
export declare class InvalidCredentialsError extends AuthSidecarError {
  /** The profile read from the server that no account has this identity (`reason === "unknown_account"`). */
  readonly unknownAccount: boolean;
}
export declare class VerificationRequiredError extends AuthSidecarError {
  /** Send it back with `login({challenge, code})`. A secret: do not log it. */
  readonly challenge: string;
  readonly methods: Array<'sms' | 'email' | 'totp' | 'recovery'>;
  /** RFC 3339. */
  readonly expiresAt: string;
  readonly sentTo: string | undefined;
  readonly resendAt: string | undefined;
}
export declare class NotLoggedInError extends AuthSidecarError {
  /** The account that last logged in on this profile, to pre-fill the login form. */
  readonly lastAccount: string | undefined;
}
export declare class SessionExpiredError extends AuthSidecarError {}
export declare class RateLimitedError extends AuthSidecarError {
  /** For `sendCode`: RFC 3339, when the next code may be sent. */
  readonly resendAt: string | undefined;
}
export declare class NetworkUnavailableError extends AuthSidecarError {}
export declare class TimeoutError extends AuthSidecarError {}
export declare class ServerError extends AuthSidecarError {
  /** The auth server's HTTP status. */
  readonly status: number | undefined;
}
export declare class BadResponseError extends AuthSidecarError {}
export declare class TlsError extends AuthSidecarError {}
export declare class StorageUnavailableError extends AuthSidecarError {}
export declare class StorageCorruptError extends AuthSidecarError {}
export declare class AlreadyExistsError extends AuthSidecarError {}
export declare class UnsupportedError extends AuthSidecarError {}
export declare class ConfigError extends AuthSidecarError {
  /** The profile the request named. */
  readonly profile: string | undefined;
}
export declare class CancelledError extends AuthSidecarError {}

/** No auth-sidecar binary could be found. */
export declare class BinaryNotFoundError extends AuthSidecarError {}

/** The sidecar process is gone: every pending and later call rejects with this. */
export declare class SidecarExitedError extends AuthSidecarError {
  constructor(
    message: string,
    init?: AuthSidecarErrorInit & { exitCode?: number | null; signal?: string | null; stderr?: string[] },
  );
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The sidecar's last stderr lines. */
  readonly stderr: string[];
}

/** The one table: error kind → class and JSON-RPC code. */
export declare const ERROR_KINDS: Readonly<
  Record<ErrorKind, Readonly<{ code: number; errorClass: typeof AuthSidecarError }>>
>;

/** A JSON-RPC error object → the matching AuthSidecarError subclass (unknown kinds: the base class). */
export declare function errorFromResponse(
  error: { code?: number; message?: string; data?: unknown },
  method?: string,
): AuthSidecarError;
