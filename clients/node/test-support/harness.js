// Shared by the tests (kept out of test/ so that the runner does not count it as a test file).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AuthSidecar } from '../src/index.js';

/** The real binary under test. */
export const BIN = process.env.AUTH_SIDECAR_BIN || '';

/** `{skip}` for tests that need the real binary. */
export const needsBinary = BIN
  ? {}
  : { skip: 'AUTH_SIDECAR_BIN is not set: build the sidecar and point AUTH_SIDECAR_BIN at it to run this test' };

/**
 * A test against the real binary: skipped, saying why, when AUTH_SIDECAR_BIN is not set.
 * @param {string} name
 * @param {(t: import('node:test').TestContext) => Promise<void>|void} fn
 */
export const liveTest = (name, fn) => test(name, needsBinary, fn);

export const PASSWORD = 'correct horse battery staple';
export const CLOCK = '2027-01-01T00:00:00Z';

/**
 * A private temp state dir for one test, removed after it.
 * @param {import('node:test').TestContext} t
 */
export function tempDir(t, prefix = 'auth-sidecar-node-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Starts the real sidecar in test mode (fixed clock, fast password hashing) on a private state dir;
 * closed after the test.
 * @param {import('node:test').TestContext} t
 * @param {import('../index').AuthSidecarOptions} [options]
 */
export async function startSidecar(t, options = {}) {
  const stateDir = options.stateDir ?? join(tempDir(t), 'state');
  const sidecar = await AuthSidecar.start({
    binary: BIN,
    stateDir,
    ...options,
    test: options.test === null ? undefined : { clock: CLOCK, kdfIterations: 1000, ...(options.test ?? {}) },
  });
  t.after(() => sidecar.close());
  return sidecar;
}

/**
 * Resolves with the rejection of `promise` (fails if it resolves).
 * @param {Promise<unknown>} promise
 * @returns {Promise<any>}
 */
export async function rejection(promise) {
  try {
    const value = await promise;
    throw Object.assign(new Error(`expected a rejection, got ${JSON.stringify(value)}`), { resolved: true });
  } catch (error) {
    if (error && error.resolved) throw error;
    return error;
  }
}

/** Milliseconds since `start`. */
export const since = (start) => Number(process.hrtime.bigint() - start) / 1e6;
export const now = () => process.hrtime.bigint();
