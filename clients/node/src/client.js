// The AuthSidecar client: spawns the sidecar, multiplexes JSON-RPC calls over its stdio by id,
// turns error answers into typed errors and notifications into events.

import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary } from './binary.js';
import {
  AuthSidecarError,
  CancelledError,
  InvalidRequestError,
  ParseError,
  SidecarExitedError,
  errorFromResponse,
} from './errors.js';
import { LspDecoder, NdjsonDecoder, encodeLsp, encodeNdjson } from './framing.js';

const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;
const DEFAULT_MAX_DEPTH = 64;
const DEFAULT_MAX_IN_FLIGHT = 64;
const STDERR_LINES_KEPT = 50;
const LOG_LEVELS = new Set(['error', 'warning', 'info', 'debug', 'trace']);
/** Answered as soon as the sidecar reads them: they never count against its in-flight limit. */
const INLINE_METHODS = new Set(['validate']);
/** After the process exits, how long to wait for the last answers still in the stdout pipe. */
const EXIT_DRAIN_MS = 250;

/** Inline configs' private directories still in use; removed at the latest when the host exits
 * (a host that never calls close() never sees the sidecar's exit). */
const tempConfigDirs = new Set();
let removesTempConfigsAtExit = false;

/** @param {string} dir */
function removeTempConfig(dir) {
  tempConfigDirs.delete(dir);
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {}
}

/** @param {string} dir */
function trackTempConfig(dir) {
  tempConfigDirs.add(dir);
  if (removesTempConfigsAtExit) return;
  removesTempConfigsAtExit = true;
  process.on('exit', () => {
    for (const each of tempConfigDirs) removeTempConfig(each);
  });
}

export const asyncDispose = Symbol.asyncDispose ?? Symbol.for('nodejs.asyncDispose');

/** A JSON text escape of a lone surrogate, not preceded by an escaping backslash. */
const LONE_SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F]/;

/**
 * @param {unknown} value
 * @param {number} level the nesting level of `value` if it is a container
 * @param {number} max
 */
function tooDeep(value, level, max) {
  if (value === null || typeof value !== 'object') return false;
  if (level > max) return true;
  if (typeof (/** @type {any} */ (value).toJSON) === 'function') return false; // serialized as it likes
  for (const key in value) {
    const child = /** @type {any} */ (value)[key];
    if (child !== null && typeof child === 'object' && tooDeep(child, level + 1, max)) return true;
  }
  return false;
}

/** Params for one of the schema's methods, with the client's default profile and locale. */
function withDefaults(params, defaults) {
  const p = params ?? {};
  if (typeof p !== 'object' || Array.isArray(p)) return p; // let the sidecar say invalid_params
  if (defaults.profile === undefined && defaults.locale === undefined) return p;
  const out = { ...p };
  if (out.profile === undefined && defaults.profile !== undefined) out.profile = defaults.profile;
  if (out.locale === undefined && defaults.locale !== undefined) out.locale = defaults.locale;
  return out;
}

/**
 * @typedef {object} Pending
 * @property {number} id
 * @property {string} method
 * @property {(value: any) => void} resolve
 * @property {(error: Error) => void} reject
 * @property {AbortSignal|undefined} signal
 * @property {(() => void)|undefined} onAbort
 * @property {string|undefined} frame the encoded request while it waits for an in-flight slot
 * @property {boolean} counted whether it counts against maxInFlight
 */

export class AuthSidecar extends EventEmitter {
  /**
   * Spawns a sidecar and waits until it answers.
   * @param {import('../index').AuthSidecarOptions} [options]
   */
  static async start(options) {
    const sidecar = new AuthSidecar(options);
    await sidecar.start();
    return sidecar;
  }

  /** @param {import('../index').AuthSidecarOptions} [options] */
  constructor(options = {}) {
    super();
    if (options === null || typeof options !== 'object') throw new TypeError('AuthSidecar: options must be an object');
    this.options = { ...options };
    const framing = options.framing ?? 'ndjson';
    if (framing !== 'ndjson' && framing !== 'lsp') {
      throw new TypeError(`AuthSidecar: framing must be "ndjson" or "lsp", not ${JSON.stringify(framing)}`);
    }
    if (options.logLevel !== undefined && !LOG_LEVELS.has(options.logLevel)) {
      throw new TypeError(`AuthSidecar: logLevel must be one of ${[...LOG_LEVELS].join(', ')}`);
    }
    for (const key of ['maxInFlight', 'maxMessageBytes', 'maxDepth']) {
      const v = options[key];
      if (v !== undefined && !((Number.isInteger(v) || (key === 'maxInFlight' && v === Infinity)) && v > 0)) {
        throw new TypeError(`AuthSidecar: ${key} must be a positive integer`);
      }
    }
    /** @readonly */
    this.framing = framing;
    this._encode = framing === 'lsp' ? encodeLsp : encodeNdjson;
    this._maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this._maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this._maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this._defaults = { profile: options.profile, locale: options.locale };

    /** @type {'idle'|'starting'|'running'|'closing'|'exited'} */
    this._state = 'idle';
    /** @type {import('node:child_process').ChildProcessWithoutNullStreams|null} */
    this._child = null;
    this._nextId = 1;
    /** @type {Map<number, Pending>} requests written to the sidecar, awaiting their answer */
    this._pending = new Map();
    /** `onPrompt` of pending interactive logins, by request id. */
    this._promptHandlers = new Map();
    /** how many of them count against maxInFlight */
    this._inFlight = 0;
    /** @type {Pending[]} requests waiting for an in-flight slot (maxInFlight) */
    this._queue = [];
    this._queueHead = 0;
    /** @type {string[]} frames to write on the next flush */
    this._outbox = [];
    this._flushScheduled = false;
    this._flush = () => this._flushOutbox();
    /** @type {string[]} */
    this._stderrTail = [];
    /** @type {SidecarExitedError|null} */
    this._exitError = null;
    /** @type {{code: number|null, signal: string|null}|null} */
    this._exitStatus = null;
    this._tempConfigDir = null;
    /** @type {Promise<void>|null} */
    this._startPromise = null;
    /** @type {Promise<{code: number|null, signal: string|null}>|null} */
    this._closePromise = null;
    this._exited = new Promise((resolve) => {
      this._resolveExited = resolve;
    });
    /** Whether the child process currently keeps the host's event loop alive. */
    this._holdsLoop = true;
    this._exitAwaited = false;
  }

  // --- lifecycle ------------------------------------------------------------------------------

  /** The sidecar's process id while it runs. */
  get pid() {
    return this._child?.pid;
  }

  /** `idle`, `starting`, `running`, `closing` or `exited`. */
  get state() {
    return this._state;
  }

  /** The last lines the sidecar wrote to stderr (diagnostics). */
  get stderrTail() {
    return [...this._stderrTail];
  }

  /** How the process ended, once it has: `{code, signal}`. */
  get exitStatus() {
    return this._exitStatus;
  }

  /**
   * Resolves with `{code, signal}` when the sidecar process has ended, for whatever reason. Asking
   * for it means waiting for the exit: from then on the sidecar keeps the host's event loop alive.
   */
  get exited() {
    this._exitAwaited = true;
    this._updateLoopHold();
    return this._exited;
  }

  /**
   * Spawns the sidecar (idempotent). Unless `options.handshake === false`, resolves only after it
   * answered a first request, so a bad config or a missing state directory fails here, with the
   * exit code and stderr in the SidecarExitedError.
   */
  start() {
    if (!this._startPromise) {
      this._startPromise = this._start();
      this._startPromise.catch(() => {}); // the caller gets it; no unhandled rejection on our copy
    }
    return this._startPromise;
  }

  async _start() {
    if (this._state !== 'idle') throw new AuthSidecarError(`AuthSidecar: cannot start (state: ${this._state})`, { kind: 'client_state' });
    this._state = 'starting';
    let child;
    try {
      child = this._spawn();
    } catch (error) {
      this._finish({ code: null, signal: null }, error);
      throw this._exitError;
    }
    this._child = child;
    this._wire(child);

    await new Promise((resolve, reject) => {
      const onSpawn = () => {
        child.off('error', onError);
        resolve(undefined);
      };
      const onError = () => {
        child.off('spawn', onSpawn);
        reject(this._exitError ?? new SidecarExitedError('auth-sidecar failed to start'));
      };
      child.once('spawn', onSpawn);
      child.once('error', onError);
    });
    if (this.options.handshake !== false) {
      // Pure, cheap, touches no store: any answer proves the process is up and speaks our framing.
      try {
        await this.call('validate', { username: 'handshake' });
      } catch (error) {
        if (error instanceof SidecarExitedError || !(error instanceof AuthSidecarError)) throw error;
      }
    }
    if (this._state === 'starting') this._state = 'running';
    this._updateLoopHold();
  }

  /**
   * The child and its pipes keep the host's event loop alive only while something waits on the
   * sidecar (a start, a call, a close): a host that forgets close() still exits once idle, and
   * its exit closes the sidecar's stdin, so the sidecar exits too.
   */
  _updateLoopHold() {
    const child = this._child;
    if (!child) return;
    const busy =
      this._exitAwaited ||
      this._state === 'starting' ||
      this._state === 'closing' ||
      this._pending.size > 0 ||
      this._queueHead < this._queue.length;
    if (busy === this._holdsLoop) return;
    this._holdsLoop = busy;
    if (busy) child.ref();
    else child.unref();
  }

  /** Finds the binary, builds argv and environment, spawns. */
  _spawn() {
    const o = this.options;
    const env = { ...process.env, ...(o.env ?? {}) };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    const binary = findBinary({ binary: o.binary, env });
    const args = [];
    if (o.framing === 'lsp') args.push('--framing', 'lsp');
    if (o.stateDir !== undefined) args.push('--state-dir', String(o.stateDir));
    if (o.config !== undefined && o.config !== null) {
      if (typeof o.config === 'string') {
        args.push('--config', o.config);
      } else {
        // An inline config object: a private temp file, removed when the sidecar exits.
        this._tempConfigDir = mkdtempSync(join(tmpdir(), 'auth-sidecar-config-'));
        trackTempConfig(this._tempConfigDir);
        const file = join(this._tempConfigDir, 'config.json');
        writeFileSync(file, JSON.stringify(o.config), { mode: 0o600 });
        args.push('--config', file);
      }
    }
    if (o.logLevel !== undefined) args.push('--log-level', o.logLevel);
    if (o.maxInFlight !== undefined && o.maxInFlight !== Infinity) args.push('--max-in-flight', String(o.maxInFlight));
    if (o.maxMessageBytes !== undefined) args.push('--max-message-bytes', String(o.maxMessageBytes));
    if (o.maxDepth !== undefined) args.push('--max-depth', String(o.maxDepth));
    if (o.test) {
      env.AUTH_SIDECAR_TEST_MODE = '1';
      if (o.test.clock !== undefined) {
        const clock = o.test.clock instanceof Date ? o.test.clock.toISOString().replace(/\.\d+Z$/, 'Z') : o.test.clock;
        args.push('--test-clock', String(clock));
      }
      if (o.test.seed !== undefined) args.push('--test-seed', String(o.test.seed));
      if (o.test.kdfIterations !== undefined) args.push('--test-kdf-iterations', String(o.test.kdfIterations));
    }
    if (o.args) args.push(...o.args.map(String));

    return spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'], env, cwd: o.cwd, windowsHide: true });
  }

  /** @param {import('node:child_process').ChildProcessWithoutNullStreams} child */
  _wire(child) {
    const onMessage = (text) => this._onMessage(text);
    const decoder =
      this.framing === 'lsp'
        ? new LspDecoder(onMessage, (error) => this._protocolError(error))
        : new NdjsonDecoder(onMessage);
    // Only the child handle holds the event loop (see _updateLoopHold); the pipes never do.
    for (const pipe of [child.stdin, child.stdout, child.stderr]) pipe.unref?.();
    child.stdout.on('data', (chunk) => decoder.push(chunk));
    child.stdout.on('end', () => decoder.end());
    child.stdout.on('error', () => {});

    // Drain stderr continuously (a full pipe would block the sidecar), keep the last lines.
    const lines = new NdjsonDecoder((line) => {
      this._stderrTail.push(line);
      if (this._stderrTail.length > STDERR_LINES_KEPT) this._stderrTail.shift();
      this._emitSafely('stderr', line);
    });
    lines.emitLine = function (line) {
      if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
      if (line !== '') this.onMessage(line);
    };
    child.stderr.on('data', (chunk) => lines.push(chunk));
    child.stderr.on('end', () => lines.end());
    child.stderr.on('error', () => {});

    // Writing to a dead process fails with EPIPE: the exit handling below reports it.
    child.stdin.on('error', () => {});

    let drainTimer = null;
    child.on('exit', (code, signal) => {
      this._exitStatus = { code, signal };
      // 'close' follows once stdout and stderr are drained; do not wait forever for it (a
      // grandchild could hold the pipes open).
      drainTimer = setTimeout(() => this._finish({ code, signal }), EXIT_DRAIN_MS);
    });
    child.on('close', (code, signal) => {
      if (drainTimer) clearTimeout(drainTimer);
      this._finish(this._exitStatus ?? { code, signal });
    });
    child.on('error', (error) => {
      // Spawn failed (ENOENT, EACCES…) or a kill failed; after a failed spawn there is no 'exit'.
      if (child.pid === undefined) this._finish({ code: null, signal: null }, error);
    });
  }

  /**
   * Ends the sidecar: closes its stdin (it finishes the requests in flight and exits 0), waits
   * up to `closeTimeout` ms, then SIGTERM, then SIGKILL after `killTimeout` ms. Requests still
   * waiting for an in-flight slot are rejected. Idempotent; resolves with `{code, signal}`.
   */
  close() {
    if (!this._closePromise) this._closePromise = this._close();
    return this._closePromise;
  }

  async _close() {
    const child = this._child;
    if (!child || this._state === 'exited') {
      if (this._state === 'idle') this._finish({ code: null, signal: null }, null, 'auth-sidecar was closed before it started');
      return this._exitStatus ?? { code: null, signal: null };
    }
    this._state = 'closing';
    this._updateLoopHold();
    this._closeRequested = true;
    const closing = new SidecarExitedError('auth-sidecar is closing: the request was not sent', { stderr: this.stderrTail });
    this._rejectQueued(closing);
    this._flushOutbox();
    child.stdin.end();
    const closeTimeout = this.options.closeTimeout ?? 5000;
    const killTimeout = this.options.killTimeout ?? 3000;
    if (!(await this._waitExit(closeTimeout))) {
      child.kill('SIGTERM');
      if (!(await this._waitExit(killTimeout))) {
        child.kill('SIGKILL');
        await this._exited;
      }
    }
    return /** @type {{code: number|null, signal: string|null}} */ (await this._exited);
  }

  /** @param {number} ms */
  _waitExit(ms) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this._exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** `await using sidecar = await AuthSidecar.start()` closes it at the end of the block. */
  [asyncDispose]() {
    return this.close().then(() => undefined);
  }

  /**
   * The process is gone: reject everything, emit 'exit', clean up. Idempotent.
   * @param {{code: number|null, signal: string|null}} status
   * @param {Error|null} [cause]
   * @param {string} [why]
   */
  _finish(status, cause = null, why) {
    if (this._state === 'exited') return;
    const during = this._state;
    this._state = 'exited';
    this._exitStatus = status;
    let message = why;
    if (!message) {
      if (cause instanceof AuthSidecarError) message = cause.message;
      else if (cause) message = `auth-sidecar could not be started: ${cause.message}`;
      else if (this._closeRequested) message = `auth-sidecar was closed (${describeStatus(status)})`;
      else if (during === 'starting') message = `auth-sidecar exited during start (${describeStatus(status)})`;
      else message = `auth-sidecar exited unexpectedly (${describeStatus(status)})`;
    }
    const stderr = this.stderrTail;
    const tail = stderr.slice(-5);
    const error =
      cause instanceof AuthSidecarError
        ? cause
        : new SidecarExitedError(tail.length ? `${message}; last stderr:\n  ${tail.join('\n  ')}` : message, {
            exitCode: status.code,
            signal: status.signal,
            stderr,
            cause: cause ?? undefined,
          });
    this._exitError = error;
    for (const pending of this._pending.values()) this._settle(pending, error, true);
    this._pending.clear();
    this._inFlight = 0;
    this._rejectQueued(error);
    this._outbox = [];
    if (this._tempConfigDir) {
      removeTempConfig(this._tempConfigDir);
      this._tempConfigDir = null;
    }
    this._resolveExited(status);
    this._emitSafely('exit', { code: status.code, signal: status.signal });
  }

  // --- calls ----------------------------------------------------------------------------------

  /**
   * Sends one request and resolves with its result, or rejects with an AuthSidecarError subclass.
   * `options.signal` aborts it: a queued request is dropped, a sent one is cancelled with
   * `$/cancelRequest` and settles with the sidecar's answer (CancelledError, or the real result
   * when the work had already completed).
   * @param {string} method
   * @param {object|unknown[]} [params]
   * @param {{signal?: AbortSignal}} [options]
   */
  call(method, params, options) {
    return new Promise((resolve, reject) => {
      if (typeof method !== 'string') throw new TypeError('AuthSidecar.call: method must be a string');
      if (this._exitError) return reject(this._exitError);
      if (this._state === 'idle') {
        return reject(new AuthSidecarError('AuthSidecar: call start() first', { kind: 'client_state', method }));
      }
      if (this._state === 'closing') {
        return reject(
          new SidecarExitedError('auth-sidecar is closing: no new requests', { method, stderr: this.stderrTail }),
        );
      }
      const signal = options?.signal;
      if (signal?.aborted) {
        return reject(new CancelledError('Request cancelled before it was sent.', cancelInit(method, signal)));
      }
      const id = this._nextId++;
      const message = { jsonrpc: '2.0', id, method };
      if (params !== undefined) message.params = params;
      const body = JSON.stringify(message); // throws on cycles and BigInt: rejects the promise
      const problem = this._checkOutgoing(body, params, method);
      if (problem) return reject(problem);

      /** @type {Pending} */
      const counted = !INLINE_METHODS.has(method);
      const pending = { id, method, resolve, reject, signal, onAbort: undefined, frame: this._encode(body), counted };
      if (typeof options?.onPrompt === 'function') this._promptHandlers.set(id, options.onPrompt);
      if (signal) {
        pending.onAbort = () => this._abort(pending);
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      if (!counted || (this._inFlight < this._maxInFlight && this._queueHead === this._queue.length)) this._send(pending);
      else this._queue.push(pending);
      this._updateLoopHold();
    });
  }

  /**
   * Sends a notification (no answer), e.g. a custom `$/…` message.
   * @param {string} method
   * @param {object|unknown[]} [params]
   */
  notify(method, params) {
    if (this._exitError) throw this._exitError;
    if (!this._child || this._state === 'closing') throw new AuthSidecarError('AuthSidecar: not running', { kind: 'client_state' });
    const message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    const body = JSON.stringify(message);
    const problem = this._checkOutgoing(body, params, method);
    if (problem) throw problem;
    this._write(this._encode(body));
  }

  /**
   * The sidecar answers messages it cannot parse or that break its limits with `id: null`, which
   * could never settle the call: such messages are refused here, with the error the sidecar would
   * have given.
   */
  _checkOutgoing(body, params, method) {
    if (body.indexOf('\\u') !== -1 && LONE_SURROGATE_ESCAPE.test(body)) {
      return new ParseError('Parse error: lone surrogate in string (not valid UTF-8); the request was not sent.', {
        kind: 'parse_error',
        code: -32700,
        data: { kind: 'parse_error', retryable: false, clientSide: true },
        method,
      });
    }
    const bytes = body.length * 3 <= this._maxMessageBytes ? 0 : Buffer.byteLength(body, 'utf8');
    if (bytes > this._maxMessageBytes) {
      return new InvalidRequestError(
        `Invalid request: message larger than ${this._maxMessageBytes} bytes; the request was not sent.`,
        { kind: 'invalid_request', code: -32600, data: { kind: 'invalid_request', retryable: false, clientSide: true, reason: 'too_large' }, method },
      );
    }
    if (params !== null && typeof params === 'object' && tooDeep(params, 2, this._maxDepth)) {
      return new InvalidRequestError(
        `Invalid request: nesting deeper than ${this._maxDepth} levels; the request was not sent.`,
        { kind: 'invalid_request', code: -32600, data: { kind: 'invalid_request', retryable: false, clientSide: true, reason: 'too_deep' }, method },
      );
    }
    return null;
  }

  /** @param {Pending} pending */
  _send(pending) {
    this._pending.set(pending.id, pending);
    if (pending.counted) this._inFlight++;
    const frame = /** @type {string} */ (pending.frame);
    pending.frame = undefined; // do not keep request bodies (passwords) longer than needed
    this._write(frame);
  }

  /** @param {string} frame */
  _write(frame) {
    this._outbox.push(frame);
    if (!this._flushScheduled) {
      this._flushScheduled = true;
      queueMicrotask(this._flush);
    }
  }

  /** One write for all the frames of this tick. */
  _flushOutbox() {
    this._flushScheduled = false;
    if (this._outbox.length === 0 || !this._child || this._state === 'exited') return;
    const data = this._outbox.length === 1 ? this._outbox[0] : this._outbox.join('');
    this._outbox = [];
    if (this._child.stdin.writable) this._child.stdin.write(data);
  }

  _pumpQueue() {
    while (this._queueHead < this._queue.length && this._inFlight < this._maxInFlight) {
      const next = this._queue[this._queueHead];
      this._queue[this._queueHead++] = /** @type {any} */ (undefined);
      if (next) this._send(next);
    }
    if (this._queueHead === this._queue.length && this._queueHead > 0) {
      this._queue = [];
      this._queueHead = 0;
    }
  }

  /** @param {Error} error */
  _rejectQueued(error) {
    for (let i = this._queueHead; i < this._queue.length; i++) {
      const pending = this._queue[i];
      if (pending) {
        pending.frame = undefined;
        this._settle(pending, error, true);
      }
    }
    this._queue = [];
    this._queueHead = 0;
  }

  /** @param {Pending} pending */
  _abort(pending) {
    if (this._pending.get(pending.id) === pending) {
      // Sent: ask the sidecar to cancel; its answer settles the call.
      if (this._state !== 'exited') this._write(this._encode(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":${pending.id}}}`));
      return;
    }
    const index = this._queue.indexOf(pending, this._queueHead);
    if (index !== -1) {
      this._queue[index] = /** @type {any} */ (undefined);
      pending.frame = undefined;
      this._settle(pending, new CancelledError('Request cancelled before it was sent.', cancelInit(pending.method, pending.signal)), true);
      this._updateLoopHold();
    }
  }

  /**
   * @param {Pending} pending
   * @param {any} outcome
   * @param {boolean} failed
   */
  _settle(pending, outcome, failed) {
    if (pending.onAbort) pending.signal?.removeEventListener('abort', pending.onAbort);
    this._promptHandlers.delete(pending.id);
    if (failed) pending.reject(outcome);
    else pending.resolve(outcome);
  }

  // --- incoming -------------------------------------------------------------------------------

  /** @param {string} text one framed message */
  _onMessage(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      this._protocolError(new Error(`auth-sidecar wrote a line that is not JSON (${text.length} characters)`));
      return;
    }
    if (Array.isArray(message)) for (const m of message) this._dispatch(m);
    else this._dispatch(message);
    if (this._queueHead < this._queue.length) this._pumpQueue();
    this._updateLoopHold();
  }

  /** @param {any} message */
  _dispatch(message) {
    if (message === null || typeof message !== 'object') {
      this._protocolError(new Error('auth-sidecar wrote a message that is not an object'));
      return;
    }
    if (typeof message.method === 'string') {
      const params = message.params;
      if (message.method === 'sessionChanged') this._emitSafely('sessionChanged', params);
      if (message.method === 'loginPrompt') this._prompt(params);
      this._emitSafely('notification', { method: message.method, params });
      return;
    }
    const pending = typeof message.id === 'number' ? this._pending.get(message.id) : undefined;
    if (!pending) {
      const error = new Error(
        message.error
          ? `auth-sidecar answered an error for no pending request (id ${JSON.stringify(message.id)}): ${message.error.message}`
          : `auth-sidecar answered id ${JSON.stringify(message.id)}, which is not pending`,
      );
      /** @type {any} */ (error).response = message;
      this._protocolError(error);
      return;
    }
    this._pending.delete(pending.id);
    if (pending.counted) this._inFlight--;
    if ('error' in message) {
      const error = errorFromResponse(message.error, pending.method);
      if (error instanceof CancelledError && pending.signal?.aborted) {
        Object.defineProperty(error, 'cause', { value: pending.signal.reason, configurable: true, writable: true });
      }
      this._settle(pending, error, true);
    } else {
      this._settle(pending, message.result, false);
    }
  }

  /**
   * A `loginPrompt`: the `loginPrompt` event, then the `onPrompt` of the login it names. The
   * sidecar sends it before that login's answer, so the handler always runs first.
   * @param {any} params
   */
  _prompt(params) {
    this._emitSafely('loginPrompt', params);
    const handler = this._promptHandlers.get(params?.id);
    if (!handler) return;
    this._promptHandlers.delete(params.id);
    try {
      handler(params);
    } catch (error) {
      process.nextTick(() => {
        throw error;
      });
    }
  }

  /** @param {Error} error */
  _protocolError(error) {
    this._emitSafely('protocolError', error);
  }

  /**
   * A throwing listener must not break the read loop; its exception is rethrown on its own tick,
   * like any uncaught exception.
   */
  _emitSafely(event, ...args) {
    if (this.listenerCount(event) === 0) return;
    try {
      this.emit(event, ...args);
    } catch (error) {
      process.nextTick(() => {
        throw error;
      });
    }
  }

  // --- one method per RPC ---------------------------------------------------------------------

  /** @param {object} params @param {{signal?: AbortSignal}} [options] */
  validate(params, options) {
    return this.call('validate', withDefaults(params, this._defaults), options);
  }

  /** @param {object} params @param {{signal?: AbortSignal}} [options] */
  register(params, options) {
    return this.call('register', withDefaults(params, this._defaults), options);
  }

  /**
   * Sends a one-time code: `{account | username | email | phone, purpose, channel?}`, or `{challenge}` to send a
   * pending step-up's code again. Resolves to `{sentTo, channel, resendAt, expiresAt}`.
   * @param {object} params @param {{signal?: AbortSignal}} [options]
   */
  sendCode(params, options) {
    return this.call('sendCode', withDefaults(params, this._defaults), options);
  }

  /**
   * Sets a new password with a code sent for `resetPassword`: `{account | …, code, newPassword}`.
   * @param {object} params @param {{signal?: AbortSignal}} [options]
   */
  resetPassword(params, options) {
    return this.call('resetPassword', withDefaults(params, this._defaults), options);
  }

  /**
   * A password login (or `code` instead of `password`; or `{challenge, code}` after a
   * VerificationRequiredError), or with `flow: 'device' | 'authorizationCode'` an interactive one:
   * `options.onPrompt(prompt)` (and the `loginPrompt` event) gets what to show or open, and the
   * promise settles once the user is done; `options.signal` stops the wait.
   * @param {object} params @param {{signal?: AbortSignal, onPrompt?: (prompt: object) => void}} [options]
   */
  login(params, options) {
    return this.call('login', withDefaults(params, this._defaults), options);
  }

  /** @param {object} [params] @param {{signal?: AbortSignal}} [options] */
  getUser(params, options) {
    return this.call('getUser', withDefaults(params, this._defaults), options);
  }

  /** @param {object} [params] @param {{signal?: AbortSignal}} [options] */
  refreshToken(params, options) {
    return this.call('refreshToken', withDefaults(params, this._defaults), options);
  }

  /** @param {object} [params] @param {{signal?: AbortSignal}} [options] */
  logout(params, options) {
    return this.call('logout', withDefaults(params, this._defaults), options);
  }

  /** @param {object} [params] @param {{signal?: AbortSignal}} [options] */
  status(params, options) {
    return this.call('status', withDefaults(params, this._defaults), options);
  }

  /** The OpenRPC document (`rpc.discover`). @param {{signal?: AbortSignal}} [options] */
  discover(options) {
    return this.call('rpc.discover', {}, options);
  }

  /**
   * Test mode only (`options.test.clock`): moves the sidecar's fixed clock.
   * @param {number} seconds @param {{signal?: AbortSignal}} [options]
   */
  advanceClock(seconds, options) {
    return this.call('test.advanceClock', { seconds }, options);
  }
}

/** @param {{code: number|null, signal: string|null}} status */
function describeStatus(status) {
  if (status.signal) return `killed by ${status.signal}`;
  if (status.code !== null && status.code !== undefined) return `exit code ${status.code}`;
  return 'no exit status';
}

/** @param {string} method @param {AbortSignal|undefined} signal */
function cancelInit(method, signal) {
  return {
    kind: 'cancelled',
    code: -32800,
    data: { kind: 'cancelled', retryable: false, clientSide: true },
    method,
    cause: signal?.reason,
  };
}
