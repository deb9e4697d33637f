// Finding the auth-sidecar executable: options.binary, else $AUTH_SIDECAR_BIN, else the binary inside
// this package (the release tarball carries one in bin/), else `auth-sidecar` on PATH.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BinaryNotFoundError } from './errors.js';

const NAME = 'auth-sidecar';
/** Where a release package carries the binary (scripts/release); a source checkout has none there. */
export const BUNDLED_BINARY = fileURLToPath(new URL(`../bin/${NAME}`, import.meta.url));

/** @param {string} file */
function isExecutableFile(file) {
  try {
    if (!statSync(file).isFile()) return false;
    if (process.platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * @param {{binary?: string, env?: Record<string, string|undefined>}} [options]
 *   `env` is the environment the sidecar will get (its PATH and AUTH_SIDECAR_BIN are used).
 * @returns {string} an absolute path (or the explicit path as given)
 */
export function findBinary(options = {}) {
  const env = options.env ?? process.env;
  const tried = [];
  if (options.binary) {
    const file = resolve(options.binary);
    if (isExecutableFile(file)) return file;
    throw new BinaryNotFoundError(
      `auth-sidecar binary not found: options.binary = ${JSON.stringify(options.binary)} is not an executable file`,
    );
  }
  const fromEnv = env.AUTH_SIDECAR_BIN;
  if (fromEnv) {
    const file = resolve(fromEnv);
    if (isExecutableFile(file)) return file;
    throw new BinaryNotFoundError(
      `auth-sidecar binary not found: AUTH_SIDECAR_BIN = ${JSON.stringify(fromEnv)} is not an executable file`,
    );
  }
  if (isExecutableFile(BUNDLED_BINARY)) return BUNDLED_BINARY;
  const names =
    process.platform === 'win32'
      ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean).map((ext) => NAME + ext.toLowerCase())
      : [NAME];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue; // a relative PATH entry would depend on the cwd
    for (const name of names) {
      const file = join(dir, name);
      tried.push(file);
      if (isExecutableFile(file)) return file;
    }
  }
  throw new BinaryNotFoundError(
    'auth-sidecar binary not found: pass options.binary, set AUTH_SIDECAR_BIN, install a release package that' +
      ' carries it, or put `auth-sidecar` on PATH' +
      ` (build it with \`swift build -c release --product auth-sidecar\`; searched ${tried.length} PATH entries)`,
  );
}
