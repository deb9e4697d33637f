// A host that never calls close(): the sidecar holds the host's event loop only while a call is
// pending, so the host exits by itself once idle, and the sidecar follows (its stdin reaches EOF).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, PASSWORD, liveTest, tempDir } from '../test-support/harness.js';

const CLIENT = new URL('../src/index.js', import.meta.url).href;

/** Runs `body` as an ES module host script; resolves with its exit code and stdout lines. */
async function runHost(t, body) {
  const dir = tempDir(t);
  const script = join(dir, 'host.mjs');
  writeFileSync(script, `import { AuthSidecar } from ${JSON.stringify(CLIENT)};\n${body}\n`);
  const host = spawn(process.execPath, [script], {
    env: { ...process.env, STATE_DIR: join(dir, 'state'), TMPDIR: dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A hang guard only: a host that does not exit is the failure this test looks for.
  const guard = setTimeout(() => host.kill('SIGKILL'), 60_000);
  let out = '';
  host.stdout.on('data', (chunk) => (out += chunk));
  const [code, signal] = await once(host, 'exit');
  clearTimeout(guard);
  return { code, signal, lines: out.trim().split('\n'), dir };
}

/** Resolves once process `pid` is gone (polls; the hang guard is the test runner's timeout). */
async function gone(pid) {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

liveTest('a host without close() exits by itself after its calls, and so does the sidecar', async (t) => {
  const { code, signal, lines, dir } = await runHost(
    t,
    `const sidecar = await AuthSidecar.start({ binary: ${JSON.stringify(BIN)}, stateDir: process.env.STATE_DIR,
  config: { profiles: { default: { provider: 'local' } } }, test: { kdfIterations: 1000 } });
sidecar.on('sessionChanged', (event) => console.log('session', event.state));
console.log('pid', sidecar.pid);
await sidecar.register({ username: 'alice', password: ${JSON.stringify(PASSWORD)} });
// Not awaited: a pending call alone must keep the host alive until its answer.
sidecar.login({ username: 'alice', password: ${JSON.stringify(PASSWORD)} })
  .then((r) => console.log('answered', r.user.username));`,
  );
  assert.deepEqual([code, signal], [0, null], lines.join('\n'));
  assert.equal(lines.at(-1), 'answered alice', 'the pending login held the loop until its answer');
  assert.ok(lines.includes('session loggedIn'));
  const pid = Number(lines[0].split(' ')[1]);
  assert.ok(pid > 0, lines[0]);
  await gone(pid);
  const configs = readdirSync(dir).filter((n) => n.startsWith('auth-sidecar-config-'));
  assert.deepEqual(configs, [], 'the inline config is removed');
});
