// Interactive logins: `loginPrompt` reaches the `loginPrompt` event and the login's own `onPrompt`.
// No auth server runs in this suite, so the prompt plumbing is checked against a scripted sidecar
// speaking the real wire format; the real binary shows that a local profile has no interactive
// flow. The flows themselves run against the real OAuth server in the Swift end-to-end tests.
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AuthSidecar, UnsupportedError } from '../src/index.js';
import { liveTest, rejection, startSidecar, tempDir } from '../test-support/harness.js';

const SCRIPT = `#!/usr/bin/env node
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const request = JSON.parse(line);
  if (request.id === undefined) return;
  const out = [];
  const params = request.params ?? {};
  if (request.method === 'login' && params.flow) {
    const prompt = { profile: params.profile ?? 'default', id: request.id, flow: params.flow, expiresAt: '2027-01-01T00:05:00Z' };
    if (params.flow === 'device') Object.assign(prompt, { userCode: 'WDJB-MJHT', verificationUri: 'https://id.example.com/device' });
    else Object.assign(prompt, { authorizationUrl: 'https://id.example.com/authorize?state=s', redirectUri: 'http://127.0.0.1:49407/callback' });
    out.push({ jsonrpc: '2.0', method: 'loginPrompt', params: prompt });
    out.push({ jsonrpc: '2.0', id: request.id, result: { user: { id: '1', username: 'alice' },
      session: { accessToken: 'at', tokenType: 'Bearer', expiresAt: '2027-01-01T01:00:00Z' } } });
  } else {
    out.push({ jsonrpc: '2.0', id: request.id, result: { valid: true, fields: {} } });
  }
  for (const message of out) process.stdout.write(JSON.stringify(message) + '\\n');
});
`;

test('loginPrompt reaches the event and the login that asked for it, before it settles', async (t) => {
  const binary = join(tempDir(t), 'prompting-sidecar.cjs');
  writeFileSync(binary, SCRIPT);
  chmodSync(binary, 0o755);
  const sidecar = await AuthSidecar.start({ binary });
  t.after(() => sidecar.close());
  const events = [];
  sidecar.on('loginPrompt', (prompt) => events.push(prompt.flow));
  const own = [];
  const result = await sidecar.login({ flow: 'device' }, { onPrompt: (prompt) => own.push(prompt) });
  assert.equal(result.user.username, 'alice');
  assert.equal(own.length, 1, 'onPrompt ran before the login settled');
  assert.equal(own[0].userCode, 'WDJB-MJHT');
  assert.equal(typeof own[0].id, 'number');
  await sidecar.login({ flow: 'authorizationCode', profile: 'work' });
  assert.deepEqual(events, ['device', 'authorizationCode']);
  assert.equal(own.length, 1, 'a login without onPrompt does not reach another login\'s handler');
});

liveTest('a local profile has no interactive flow', async (t) => {
  const sidecar = await startSidecar(t);
  const error = await rejection(sidecar.login({ flow: 'device' }));
  assert.ok(error instanceof UnsupportedError, String(error));
});
