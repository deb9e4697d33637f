// framing: 'lsp' — Content-Length framing as an editor plugin speaks it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe } from 'node:test';
import { NotLoggedInError } from '../src/index.js';
import { LspDecoder, encodeLsp } from '../src/framing.js';
import { BIN, PASSWORD, liveTest, rejection, startSidecar, tempDir } from '../test-support/harness.js';

describe('LSP framing', () => {
  liveTest('a whole session over Content-Length framing, multi-byte text included', async (t) => {
    const sidecar = await startSidecar(t, { framing: 'lsp' });
    assert.equal(sidecar.framing, 'lsp');
    const states = [];
    sidecar.on('sessionChanged', (e) => states.push(e.state));
    const zh = await sidecar.validate({ username: '名字', locale: 'zh-Hans' });
    assert.equal(zh.fields.username.value, '名字');
    assert.match(zh.fields.username.errors[0].message, /用户名/);
    await sidecar.register({ username: 'bob', displayName: 'Bób 😀', password: PASSWORD });
    const { user } = await sidecar.login({ username: 'bob', password: PASSWORD });
    assert.equal(user.displayName, 'Bób 😀');
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) =>
      i % 2 ? sidecar.validate({ username: `名字_${i}` }) : sidecar.getUser()));
    results.forEach((r, i) => (i % 2 ? assert.equal(r.fields.username.value, `名字_${i}`) : assert.equal(r.user.username, 'bob')));
    await sidecar.logout();
    assert.ok((await rejection(sidecar.getUser())) instanceof NotLoggedInError);
    assert.deepEqual(states, ['loggedIn', 'loggedOut']);
    assert.deepEqual(await sidecar.close(), { code: 0, signal: null });
  });

  liveTest('the sidecar auto-detects LSP framing from a leading Content-Length header', async (t) => {
    // What an editor plugin that does not pass --framing sees: answers framed the same way.
    const child = spawn(BIN, ['--state-dir', `${tempDir(t)}/state`], { stdio: ['pipe', 'pipe', 'ignore'] });
    const bodies = [];
    const decoder = new LspDecoder((b) => bodies.push(JSON.parse(b)), (e) => assert.fail(e));
    child.stdout.on('data', (c) => decoder.push(c));
    child.stdin.end(encodeLsp('{"jsonrpc":"2.0","id":1,"method":"validate","params":{"username":"ab"}}'));
    const [code] = await new Promise((resolve) => child.on('close', (...a) => resolve(a)));
    assert.equal(code, 0);
    assert.equal(bodies.length, 1);
    assert.equal(bodies[0].id, 1);
    assert.equal(bodies[0].result.valid, false);
  });
});
