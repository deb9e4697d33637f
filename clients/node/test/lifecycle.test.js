// Starting, finding the binary, closing (gracefully and by force), stderr, and failures at start.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { AuthSidecar, AuthSidecarError, BinaryNotFoundError, SidecarExitedError, findBinary } from '../src/index.js';
import { BIN, PASSWORD, liveTest, now, rejection, since, startSidecar, tempDir } from '../test-support/harness.js';

/** A stand-in executable: a shell script. */
function fakeBinary(t, script) {
  const file = join(tempDir(t), 'fake-sidecar');
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('binary discovery', () => {
  test('options.binary, else AUTH_SIDECAR_BIN, else PATH; a clear error when none', (t) => {
    const dir = tempDir(t);
    const bin = fakeBinary(t, 'exit 0');
    assert.equal(findBinary({ binary: bin, env: {} }), bin);
    assert.equal(findBinary({ env: { AUTH_SIDECAR_BIN: bin } }), bin);
    const onPath = join(dir, 'bin');
    mkdirSync(onPath);
    symlinkSync(bin, join(onPath, 'auth-sidecar'));
    assert.equal(findBinary({ env: { PATH: `/nonexistent:relative/dir:${onPath}` } }), join(onPath, 'auth-sidecar'));
    // options.binary wins over the environment; a wrong explicit path is an error, not a fallback.
    assert.throws(() => findBinary({ binary: join(dir, 'missing'), env: { AUTH_SIDECAR_BIN: bin } }), BinaryNotFoundError);
    assert.throws(() => findBinary({ env: { AUTH_SIDECAR_BIN: join(dir, 'missing'), PATH: onPath } }), /AUTH_SIDECAR_BIN/);
    const error = assert.throws(() => findBinary({ env: { PATH: '/nonexistent' } }), (e) => {
      assert.ok(e instanceof BinaryNotFoundError && e instanceof AuthSidecarError);
      assert.equal(e.kind, 'binary_not_found');
      assert.match(e.message, /options\.binary.*AUTH_SIDECAR_BIN.*PATH/);
      return true;
    });
    assert.equal(error, undefined);
    const notExecutable = join(dir, 'plain-file');
    writeFileSync(notExecutable, '');
    assert.throws(() => findBinary({ binary: notExecutable }), BinaryNotFoundError);
  });

  test('the binary inside the package comes after options.binary and AUTH_SIDECAR_BIN, before PATH', async (t) => {
    // A copy of the package with bin/auth-sidecar beside src/, as the release tarball lays it out.
    const pkg = tempDir(t);
    cpSync(new URL('../src', import.meta.url), join(pkg, 'src'), { recursive: true });
    mkdirSync(join(pkg, 'bin'));
    const bundled = join(pkg, 'bin', 'auth-sidecar');
    writeFileSync(bundled, '#!/bin/sh\n');
    chmodSync(bundled, 0o755);
    const copy = await import(pathToFileURL(join(pkg, 'src', 'binary.js')).href);
    const other = fakeBinary(t, 'exit 0');
    const onPath = join(pkg, 'path');
    mkdirSync(onPath);
    symlinkSync(other, join(onPath, 'auth-sidecar'));
    assert.equal(copy.BUNDLED_BINARY, bundled);
    assert.equal(copy.findBinary({ env: { PATH: onPath } }), bundled);
    assert.equal(copy.findBinary({ env: { AUTH_SIDECAR_BIN: other, PATH: onPath } }), other);
    assert.equal(copy.findBinary({ binary: other, env: { PATH: onPath } }), other);
    chmodSync(bundled, 0o644); // not executable: skipped, PATH next
    assert.equal(copy.findBinary({ env: { PATH: onPath } }), join(onPath, 'auth-sidecar'));
  });

  test('start() rejects with BinaryNotFoundError, and so does every call after', async () => {
    const sidecar = new AuthSidecar({ env: { AUTH_SIDECAR_BIN: undefined, PATH: '/nonexistent' } });
    const error = await rejection(sidecar.start());
    assert.ok(error instanceof BinaryNotFoundError);
    assert.equal(sidecar.state, 'exited');
    assert.ok((await rejection(sidecar.status())) instanceof BinaryNotFoundError);
    assert.deepEqual(await sidecar.close(), { code: null, signal: null });
  });
});

describe('lifecycle', () => {
  liveTest('start, close: exit 0, "exit" event, idempotent; later calls reject with SidecarExitedError', async (t) => {
    const sidecar = await startSidecar(t);
    assert.equal(sidecar.state, 'running');
    assert.equal(typeof sidecar.pid, 'number');
    const exitEvent = once(sidecar, 'exit');
    const closing = sidecar.close();
    assert.equal(sidecar.close(), closing, 'idempotent');
    assert.deepEqual(await closing, { code: 0, signal: null });
    assert.deepEqual(await exitEvent, [{ code: 0, signal: null }]);
    assert.equal(sidecar.state, 'exited');
    assert.deepEqual(sidecar.exitStatus, { code: 0, signal: null });
    const error = await rejection(sidecar.validate({ username: 'abc' }));
    assert.ok(error instanceof SidecarExitedError);
    assert.match(error.message, /was closed \(exit code 0\)/);
    assert.equal(error.exitCode, 0);
  });

  liveTest('new + start(): calls before start reject, start is idempotent, Symbol.asyncDispose closes', async (t) => {
    const sidecar = new AuthSidecar({ binary: BIN, stateDir: join(tempDir(t), 'state') });
    assert.equal(sidecar.state, 'idle');
    const early = await rejection(sidecar.status());
    assert.equal(early.kind, 'client_state');
    assert.match(early.message, /start\(\)/);
    const first = sidecar.start();
    assert.equal(sidecar.start(), first);
    await first;
    assert.equal((await sidecar.validate({ username: 'abc' })).valid, true);
    await sidecar[Symbol.asyncDispose]();
    assert.equal(sidecar.state, 'exited');
    assert.deepEqual(sidecar.exitStatus, { code: 0, signal: null });
  });

  liveTest('close() lets requests in flight answer, refuses new ones at once', async (t) => {
    const sidecar = await startSidecar(t, { test: { kdfIterations: undefined } });
    await sidecar.register({ username: 'bob', password: PASSWORD });
    const login = sidecar.login({ username: 'bob', password: PASSWORD }); // ~140 ms of hashing
    await new Promise((resolve) => setImmediate(resolve)); // written
    const closing = sidecar.close();
    assert.equal(sidecar.state, 'closing');
    const refused = await rejection(sidecar.getUser());
    assert.ok(refused instanceof SidecarExitedError);
    assert.match(refused.message, /closing/);
    assert.equal((await login).user.username, 'bob');
    assert.deepEqual(await closing, { code: 0, signal: null });
  });

  liveTest('close() escalates to SIGTERM then SIGKILL when the process does not exit', async (t) => {
    // Ignores stdin EOF and SIGTERM.
    const bin = fakeBinary(t, "trap '' TERM\necho 'fake sidecar up' >&2\nexec sleep 30");
    const sidecar = await AuthSidecar.start({ binary: bin, handshake: false, closeTimeout: 150, killTimeout: 150 });
    const lines = [];
    sidecar.on('stderr', (line) => lines.push(line));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = now();
    assert.deepEqual(await sidecar.close(), { code: null, signal: 'SIGKILL' });
    const elapsed = since(started);
    assert.ok(elapsed >= 280 && elapsed < 2000, `${elapsed} ms`);
    assert.deepEqual(sidecar.stderrTail, ['fake sidecar up']);
  });

  liveTest('a process that exits while a grandchild holds its pipes: calls still reject promptly', async (t) => {
    const bin = fakeBinary(t, 'sleep 5 &\necho "grandchild $!" >&2\nread line\necho "dying" >&2\nexit 3');
    const sidecar = await AuthSidecar.start({ binary: bin, handshake: false });
    const pending = sidecar.status();
    const error = await rejection(pending);
    assert.ok(error instanceof SidecarExitedError);
    assert.equal(error.exitCode, 3);
    const grandchild = Number(/grandchild (\d+)/.exec(error.stderr.join('\n'))?.[1]);
    if (grandchild) process.kill(grandchild, 'SIGKILL');
    assert.match(error.message, /exit code 3/);
  });

  test('output that matches no request is reported as protocolError, and calls still work', async (t) => {
    // A stand-in sidecar: two bad lines, then it echoes each request's id.
    const bin = fakeBinary(
      t,
      `echo 'this is not json'
echo '{"jsonrpc":"2.0","id":999,"result":true}'
while read line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\\([0-9]*\\).*/\\1/p')
  echo "[{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"custom\\",\\"params\\":[$id]},{\\"jsonrpc\\":\\"2.0\\",\\"id\\":$id,\\"result\\":{\\"echo\\":$id}}]"
done`,
    );
    const sidecar = new AuthSidecar({ binary: bin });
    const problems = [];
    const notifications = [];
    sidecar.on('protocolError', (error) => problems.push(error.message));
    sidecar.on('notification', (n) => notifications.push(n));
    await sidecar.start();
    t.after(() => sidecar.close());
    assert.equal(problems.length, 2);
    assert.match(problems[0], /not JSON/);
    assert.match(problems[1], /id 999/);
    const answer = await sidecar.call('anything', { x: 1 });
    assert.deepEqual(answer, { echo: 2 }, 'id 1 was the handshake');
    assert.deepEqual(notifications, [{ method: 'custom', params: [1] }, { method: 'custom', params: [2] }]);
  });

  liveTest('a bad config: start() rejects with exit code 78 and the sidecar\'s message; the temp config is removed', async (t) => {
    const tmp = tempDir(t); // where the client writes the inline config (os.tmpdir() follows TMPDIR)
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    t.after(() => {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    });
    const sidecar = new AuthSidecar({
      binary: BIN,
      stateDir: join(tempDir(t), 'state'),
      config: { profiles: { default: { provider: 'no-such-provider' } } },
    });
    const starting = sidecar.start();
    assert.equal(readdirSync(tmp).filter((n) => n.startsWith('auth-sidecar-config-')).length, 1);
    const error = await rejection(starting);
    assert.ok(error instanceof SidecarExitedError, String(error));
    assert.equal(error.exitCode, 78);
    assert.ok(error.stderr.length > 0);
    assert.match(error.message, /exited during start \(exit code 78\)[^]*config error: .*profiles\.default\.provider/);
    assert.deepEqual(readdirSync(tmp).filter((n) => n.startsWith('auth-sidecar-config-')), [], 'the temp config is gone');
  });

  liveTest('stderr is drained line by line at trace level, and never shows a password; argv neither', async (t) => {
    const lines = [];
    const sidecar = await startSidecar(t, { logLevel: 'trace' });
    sidecar.on('stderr', (line) => lines.push(line));
    const argv = readFileSync(`/proc/${sidecar.pid}/cmdline`, 'utf8');
    await sidecar.register({ username: 'bob', password: PASSWORD });
    await sidecar.login({ username: 'bob', password: PASSWORD });
    await rejection(sidecar.login({ username: 'bob', password: `${PASSWORD}!` }));
    await sidecar.logout();
    await sidecar.close();
    assert.ok(lines.length > 0, 'trace logs arrive as stderr events');
    assert.deepEqual(lines.filter((l) => l.includes('correct horse')), []);
    assert.equal(argv.includes('correct horse'), false);
    assert.ok(sidecar.stderrTail.length <= 50);
  });

  liveTest('inline config object with two profiles', async (t) => {
    const sidecar = await startSidecar(t, {
      config: { profiles: { default: { provider: 'local' }, work: { provider: 'local', validation: { passwordPreset: 'classic' } } } },
    });
    const status = await sidecar.status();
    assert.deepEqual(status.profiles.map((p) => p.name).sort(), ['default', 'work']);
    const classic = await rejection(sidecar.register({ username: 'bob', password: 'onlyletters', profile: 'work' }));
    assert.equal(classic.kind, 'validation_failed');
  });
});
