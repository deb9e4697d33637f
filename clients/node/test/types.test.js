// The package's shape: every runtime export is declared in index.d.ts (and vice versa), the
// package.json fields, and — when a TypeScript compiler is installed — a type check of usage.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as api from '../src/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dts = readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** Value declarations (not types/interfaces) exported by index.d.ts. */
function declaredValues() {
  const names = new Set();
  const re = /^export\s+(?:declare\s+)?(?:abstract\s+)?(class|function|const|let|var|enum)\s+([A-Za-z_$][\w$]*)/gm;
  for (const m of dts.matchAll(re)) names.add(m[2]);
  return names;
}

test('every runtime export has a declaration in index.d.ts, and nothing more is declared', () => {
  const runtime = new Set(Object.keys(api));
  const declared = declaredValues();
  assert.deepEqual([...runtime].filter((n) => !declared.has(n)).sort(), [], 'exported but not declared');
  assert.deepEqual([...declared].filter((n) => !runtime.has(n)).sort(), [], 'declared but not exported');
  // Each declaration is of the right sort.
  for (const name of runtime) {
    const isClass = typeof api[name] === 'function' && /^class\b/.test(Function.prototype.toString.call(api[name]));
    const sort = new RegExp(`^export\\s+declare\\s+(class|function|const)\\s+${name}\\b`, 'm').exec(dts)?.[1];
    assert.equal(sort, isClass ? 'class' : typeof api[name] === 'function' ? 'function' : 'const', name);
  }
});

test('the AuthSidecar methods are declared', () => {
  const body = dts.slice(dts.indexOf('export declare class AuthSidecar extends'), dts.indexOf('export declare function findBinary'));
  const proto = Object.getOwnPropertyNames(api.AuthSidecar.prototype).filter((n) => !n.startsWith('_') && n !== 'constructor');
  for (const name of proto) assert.match(body, new RegExp(`\\b${name}\\b`), name);
  assert.match(body, /\[Symbol\.asyncDispose\]\(\): Promise<void>/);
  assert.equal(typeof api.AuthSidecar.prototype[Symbol.asyncDispose], 'function');
  assert.match(body, /static start\(/);
});

test('package.json: ESM, exports with types, no dependencies, node >= 18', () => {
  assert.equal(pkg.name, 'auth-sidecar');
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.types, './index.d.ts');
  assert.deepEqual(pkg.exports['.'], { types: './index.d.ts', default: './src/index.js' });
  assert.equal(pkg.dependencies, undefined);
  assert.equal(pkg.devDependencies, undefined);
  assert.equal(pkg.engines.node, '>=18');
});

const tsc = spawnSync('tsc', ['--version'], { encoding: 'utf8' });
test(
  'index.d.ts type-checks test/types/usage.ts (strict)',
  { skip: tsc.status === 0 ? false : 'no `tsc` on PATH (e.g. apt-get install node-typescript)' },
  () => {
    const result = spawnSync(
      'tsc',
      ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
        '--lib', 'es2022,dom', 'test/types/node-stub.d.ts', 'test/types/usage.ts'],
      { cwd: root, encoding: 'utf8' },
    );
    assert.equal(result.status, 0, result.stdout + result.stderr);
  },
);
