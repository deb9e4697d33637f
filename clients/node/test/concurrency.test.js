// Many calls over one process, the client's in-flight queue, the sidecar dying mid-call, and
// messages the sidecar could only answer with `id: null` (refused before sending).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import {
  InvalidParamsError,
  InvalidRequestError,
  ParseError,
  RateLimitedError,
  SidecarExitedError,
} from '../src/index.js';
import { PASSWORD, liveTest, now, rejection, since, startSidecar } from '../test-support/harness.js';

describe('concurrency', () => {
  liveTest('100 parallel calls of every kind, each answer matched to its own request', async (t) => {
    const sidecar = await startSidecar(t);
    await sidecar.register({ username: 'bob', password: PASSWORD });
    await sidecar.login({ username: 'bob', password: PASSWORD });
    const calls = [];
    for (let i = 0; i < 100; i++) {
      switch (i % 5) {
        case 0:
        case 1:
          calls.push(sidecar.validate({ username: `user_${i}` }).then((r) => assert.equal(r.fields.username.value, `user_${i}`)));
          break;
        case 2:
          calls.push(sidecar.getUser().then((r) => assert.equal(r.user.username, 'bob')));
          break;
        case 3:
          calls.push(sidecar.status().then((r) => assert.equal(r.profiles[0].loggedIn, true)));
          break;
        case 4:
          calls.push(sidecar.register({ username: `new_${i}`, password: PASSWORD }).then((r) => assert.equal(r.user.username, `new_${i}`)));
          break;
      }
    }
    const results = await Promise.allSettled(calls);
    assert.deepEqual(results.filter((r) => r.status === 'rejected').map((r) => String(r.reason)), []);
  });

  liveTest('1,000 pipelined validate calls', async (t) => {
    const sidecar = await startSidecar(t);
    const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => sidecar.validate({ email: `u${i}@EXAMPLE.org` })));
    results.forEach((r, i) => assert.equal(r.fields.email.value, `u${i}@example.org`));
  });

  liveTest('the client queues beyond maxInFlight instead of being refused', async (t) => {
    const sidecar = await startSidecar(t, { maxInFlight: 2 }); // also passes --max-in-flight 2
    await sidecar.register({ username: 'bob', password: PASSWORD });
    await sidecar.login({ username: 'bob', password: PASSWORD });
    const results = await Promise.allSettled(Array.from({ length: 60 }, () => sidecar.getUser({ refresh: true })));
    const refused = results.filter((r) => r.status === 'rejected');
    assert.deepEqual(refused.map((r) => r.reason instanceof RateLimitedError ? 'rate_limited' : String(r.reason)), []);
  });

  liveTest('an aborted request still waiting in the client queue is never sent', async (t) => {
    const sidecar = await startSidecar(t, { maxInFlight: 1, test: { kdfIterations: undefined } });
    await sidecar.register({ username: 'bob', password: PASSWORD });
    const first = sidecar.login({ username: 'bob', password: PASSWORD }); // ~140 ms
    const controller = new AbortController();
    const queued = sidecar.getUser({}, { signal: controller.signal });
    const after = sidecar.getUser();
    controller.abort();
    const error = await rejection(queued);
    assert.equal(error.kind, 'cancelled');
    assert.equal(error.data.clientSide, true);
    await first;
    assert.equal((await after).user.username, 'bob');
  });

  liveTest('SIGKILL while calls are pending: every call rejects promptly with SidecarExitedError', async (t) => {
    const sidecar = await startSidecar(t, { test: { kdfIterations: undefined } });
    await sidecar.register({ username: 'bob', password: PASSWORD });
    const pending = [
      ...Array.from({ length: 3 }, () => sidecar.login({ username: 'bob', password: PASSWORD })),
      ...Array.from({ length: 10 }, () => sidecar.getUser()),
      sidecar.refreshToken({ force: true }),
    ];
    const exitEvent = once(sidecar, 'exit');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const killedAt = now();
    process.kill(sidecar.pid, 'SIGKILL');
    const results = await Promise.allSettled(pending);
    const elapsed = since(killedAt);
    assert.ok(elapsed < 1000, `rejected within ${elapsed.toFixed(0)} ms`);
    for (const r of results) {
      assert.equal(r.status, 'rejected');
      assert.ok(r.reason instanceof SidecarExitedError, String(r.reason));
      assert.equal(r.reason.signal, 'SIGKILL');
      assert.equal(r.reason.exitCode, null);
      assert.equal(r.reason.kind, 'sidecar_exited');
      assert.ok(Array.isArray(r.reason.stderr));
      assert.match(r.reason.message, /exited unexpectedly \(killed by SIGKILL\)/);
    }
    assert.deepEqual(await exitEvent, [{ code: null, signal: 'SIGKILL' }]);
    assert.equal(sidecar.state, 'exited');
    // Every later call too, at once.
    const later = now();
    const error = await rejection(sidecar.validate({ username: 'abc' }));
    assert.ok(error instanceof SidecarExitedError);
    assert.ok(since(later) < 50);
    assert.deepEqual(await sidecar.close(), { code: null, signal: 'SIGKILL' });
  });

  liveTest('the sidecar ending on its own (a SIGTERM from elsewhere): later calls reject with its exit status', async (t) => {
    const sidecar = await startSidecar(t);
    const exit = sidecar.exited;
    process.kill(sidecar.pid, 'SIGTERM'); // graceful: the sidecar stops reading and exits 0
    assert.deepEqual(await exit, { code: 0, signal: null });
    const error = await rejection(sidecar.status());
    assert.ok(error instanceof SidecarExitedError);
    assert.equal(error.exitCode, 0);
    assert.match(error.message, /exited unexpectedly \(exit code 0\)/);
  });

  liveTest('messages the sidecar could only refuse with id null are refused here, before sending', async (t) => {
    const sidecar = await startSidecar(t);
    const nest = (n) => (n === 0 ? 1 : [nest(n - 1)]);
    // Envelope (1) + params (2) + 62 arrays = 64 levels: the sidecar's own answer comes back.
    const deepest = await rejection(sidecar.call('validate', { username: nest(62) }));
    assert.ok(deepest instanceof InvalidParamsError);
    assert.equal(deepest.data.clientSide, undefined);
    const tooDeep = await rejection(sidecar.call('validate', { username: nest(63) }));
    assert.ok(tooDeep instanceof InvalidRequestError);
    assert.equal(tooDeep.data.reason, 'too_deep');

    const envelope = JSON.stringify({ jsonrpc: '2.0', id: 1000000, method: 'validate', params: { username: '' } }).length;
    const fits = await sidecar.call('validate', { username: 'a'.repeat(1024 * 1024 - envelope) });
    assert.equal(fits.valid, false);
    const tooLarge = await rejection(sidecar.call('validate', { username: 'a'.repeat(1024 * 1024) }));
    assert.ok(tooLarge instanceof InvalidRequestError);
    assert.equal(tooLarge.data.reason, 'too_large');
    const multiByte = await rejection(sidecar.validate({ username: '名'.repeat(400 * 1024) })); // 1.2 MB of UTF-8
    assert.ok(multiByte instanceof InvalidRequestError);

    const surrogate = await rejection(sidecar.login({ username: 'bob', password: 'pass\ud800word' }));
    assert.ok(surrogate instanceof ParseError);
    assert.equal(surrogate.data.clientSide, true);
    assert.equal(/pass|word/.test(surrogate.message), false, 'the password is not echoed');
    // A literal backslash-u text is not a surrogate escape.
    const literal = await sidecar.validate({ username: '\\ud800' });
    assert.equal(literal.valid, false);
    // Emoji (a valid surrogate pair) passes.
    assert.equal((await sidecar.validate({ username: 'ab😀' })).fields.username.value, 'ab😀');

    const cyclic = {};
    cyclic.self = cyclic;
    await assert.rejects(sidecar.call('validate', cyclic), TypeError);
    await assert.rejects(sidecar.call('validate', { n: 1n }), TypeError);
    assert.equal((await sidecar.validate({ username: 'still_fine' })).valid, true);
  });
});
