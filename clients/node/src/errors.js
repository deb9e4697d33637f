// Error classes for auth-sidecar.
//
// Every error kind of the sidecar's contract (schema/openrpc.json, `components.errors`) has one
// subclass of AuthSidecarError. The mapping kind → class → code lives in ERROR_KINDS below and
// nowhere else; `errorFromResponse` uses it, the test suite checks it against the schema.

/** The base class of every error this package throws. */
export class AuthSidecarError extends Error {
  /**
   * @param {string} message
   * @param {{kind?: string, code?: number|null, data?: object, method?: string, cause?: unknown}} [init]
   */
  constructor(message, init = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    const data = init.data && typeof init.data === 'object' ? init.data : {};
    /** Stable string to switch on (`error.data.kind`). */
    this.kind = init.kind ?? data.kind ?? 'unknown';
    /** JSON-RPC error code (null for errors raised by this client). */
    this.code = init.code ?? null;
    /** The whole `error.data` object as the sidecar sent it. */
    this.data = data;
    /** The JSON-RPC method of the failed call, when there was one. */
    this.method = init.method;
  }

  get name() {
    return this.constructor.name;
  }

  set name(value) {
    Object.defineProperty(this, 'name', { value, writable: true, configurable: true, enumerable: false });
  }

  /** Whether trying again later may succeed (`error.data.retryable`). */
  get retryable() {
    return this.data.retryable === true;
  }

  /** Seconds to wait before trying again, when the sidecar says so. */
  get retryAfter() {
    return typeof this.data.retryAfter === 'number' ? this.data.retryAfter : undefined;
  }

  /** Per-field validation report (validation_failed), as `validate` returns it. */
  get fields() {
    return this.data.fields;
  }

  /** The params key or account field concerned (invalid_params, already_exists). */
  get field() {
    return this.data.field;
  }

  /** Why, when the kind alone does not say (`error.data.reason`): `"unknown_account"` on
   * invalid_credentials, `"too_many_in_flight"` on rate_limited, … */
  get reason() {
    return typeof this.data.reason === 'string' ? this.data.reason : undefined;
  }

  toJSON() {
    return { name: this.name, kind: this.kind, code: this.code, message: this.message, data: this.data };
  }
}

// --- the sidecar's error kinds, one class each ------------------------------------------------

export class ParseError extends AuthSidecarError {}
export class InvalidRequestError extends AuthSidecarError {}
export class MethodNotFoundError extends AuthSidecarError {}
export class InvalidParamsError extends AuthSidecarError {}
export class ValidationFailedError extends AuthSidecarError {}
export class InvalidCredentialsError extends AuthSidecarError {
  /** True when the profile reads an unknown account from a server that already tells it
   * (`reason === "unknown_account"`): a host may offer to register instead. */
  get unknownAccount() {
    return this.reason === 'unknown_account';
  }
}
/**
 * The password was right; a second step is needed. Ask for a code by one of `methods` (`sms`, `email`, `totp`,
 * `recovery`), then `login({challenge, code})`. The challenge is a secret: do not log it.
 */
export class VerificationRequiredError extends AuthSidecarError {
  get challenge() {
    return this.data.challenge;
  }

  get methods() {
    return Array.isArray(this.data.methods) ? this.data.methods : [];
  }

  /** RFC 3339: when the challenge stops being accepted. */
  get expiresAt() {
    return this.data.expiresAt;
  }

  /** Where a code was sent while answering (masked), if one was. */
  get sentTo() {
    return this.data.sentTo;
  }

  /** RFC 3339: when `sendCode({challenge})` may send another code. */
  get resendAt() {
    return this.data.resendAt;
  }
}
export class NotLoggedInError extends AuthSidecarError {
  /** The account that last logged in on this profile (pre-fill the login form), if remembered. */
  get lastAccount() {
    return this.data.lastAccount;
  }
}
export class SessionExpiredError extends AuthSidecarError {}
/** Too many attempts, or too many requests in flight (`reason === "too_many_in_flight"`). */
export class RateLimitedError extends AuthSidecarError {
  /** For `sendCode`: RFC 3339, when the next code may be sent (draw the countdown from it). */
  get resendAt() {
    return this.data.resendAt;
  }
}
export class NetworkUnavailableError extends AuthSidecarError {}
export class TimeoutError extends AuthSidecarError {}
export class ServerError extends AuthSidecarError {
  /** The HTTP status of the auth server's answer. */
  get status() {
    return this.data.status;
  }
}
export class BadResponseError extends AuthSidecarError {}
export class TlsError extends AuthSidecarError {}
export class StorageUnavailableError extends AuthSidecarError {}
export class StorageCorruptError extends AuthSidecarError {}
export class AlreadyExistsError extends AuthSidecarError {}
export class UnsupportedError extends AuthSidecarError {}
export class ConfigError extends AuthSidecarError {
  /** The profile the request named. */
  get profile() {
    return this.data.profile;
  }
}
export class CancelledError extends AuthSidecarError {}
export class InternalError extends AuthSidecarError {}

/**
 * The one table: error kind → [class, JSON-RPC code], exactly the kinds of schema/openrpc.json.
 * @type {Readonly<Record<string, Readonly<{code: number, errorClass: typeof AuthSidecarError}>>>}
 */
export const ERROR_KINDS = Object.freeze(
  Object.fromEntries(
    /** @type {Array<[string, typeof AuthSidecarError, number]>} */ ([
      ['parse_error', ParseError, -32700],
      ['invalid_request', InvalidRequestError, -32600],
      ['method_not_found', MethodNotFoundError, -32601],
      ['invalid_params', InvalidParamsError, -32602],
      ['internal', InternalError, -32603],
      ['validation_failed', ValidationFailedError, -32001],
      ['invalid_credentials', InvalidCredentialsError, -32002],
      ['not_logged_in', NotLoggedInError, -32003],
      ['session_expired', SessionExpiredError, -32004],
      ['rate_limited', RateLimitedError, -32005],
      ['network_unavailable', NetworkUnavailableError, -32006],
      ['timeout', TimeoutError, -32007],
      ['server_error', ServerError, -32008],
      ['bad_response', BadResponseError, -32009],
      ['tls_error', TlsError, -32010],
      ['storage_unavailable', StorageUnavailableError, -32011],
      ['storage_corrupt', StorageCorruptError, -32012],
      ['already_exists', AlreadyExistsError, -32013],
      ['unsupported', UnsupportedError, -32014],
      ['config_error', ConfigError, -32015],
      ['verification_required', VerificationRequiredError, -32016],
      ['cancelled', CancelledError, -32800],
    ]).map(([kind, errorClass, code]) => [kind, Object.freeze({ code, errorClass })]),
  ),
);

const KIND_BY_CODE = new Map(Object.entries(ERROR_KINDS).map(([kind, { code }]) => [code, kind]));

/**
 * Turns a JSON-RPC error object into the matching AuthSidecarError subclass. The kind comes from
 * `error.data.kind`; a standard JSON-RPC code without a kind (a peer that is not auth-sidecar)
 * still maps through the code; an unknown kind gives the base class.
 * @param {{code?: number, message?: string, data?: any}} error
 * @param {string} [method]
 */
export function errorFromResponse(error, method) {
  const obj = error && typeof error === 'object' ? error : {};
  const data = obj.data && typeof obj.data === 'object' && !Array.isArray(obj.data) ? obj.data : {};
  const code = typeof obj.code === 'number' ? obj.code : null;
  const kind = typeof data.kind === 'string' ? data.kind : (KIND_BY_CODE.get(code) ?? 'unknown');
  const entry = Object.hasOwn(ERROR_KINDS, kind) ? ERROR_KINDS[kind] : undefined;
  const ErrorClass = entry ? entry.errorClass : AuthSidecarError;
  const message = typeof obj.message === 'string' && obj.message ? obj.message : `auth-sidecar error ${kind}`;
  return new ErrorClass(message, { kind, code, data, method });
}

// --- errors raised by this client, not by the sidecar -----------------------------------------

/** No auth-sidecar binary could be found (options.binary, AUTH_SIDECAR_BIN, PATH). */
export class BinaryNotFoundError extends AuthSidecarError {
  constructor(message, init = {}) {
    super(message, { kind: 'binary_not_found', ...init });
  }
}

/**
 * The sidecar process is gone (crashed, killed, exited, or closed by `close()`): every pending and
 * every later call rejects with this. `exitCode`/`signal` say how it ended, `stderr` holds its
 * last lines of diagnostics.
 */
export class SidecarExitedError extends AuthSidecarError {
  constructor(message, init = {}) {
    super(message, { kind: 'sidecar_exited', ...init });
    /** @type {number|null} */
    this.exitCode = init.exitCode ?? null;
    /** @type {string|null} */
    this.signal = init.signal ?? null;
    /** @type {string[]} */
    this.stderr = init.stderr ?? [];
  }

  get retryable() {
    return false;
  }
}
