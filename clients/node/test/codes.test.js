// The code flows through the client and the real binary: sendCode, login with a code, a step-up throwing
// VerificationRequiredError, resetPassword. Codes reach Tests/Delivery/record_delivery.py, which the tests read
// them back from, as a user reads an SMS.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'node:test';
import {
  InvalidCredentialsError,
  RateLimitedError,
  ValidationFailedError,
  VerificationRequiredError,
} from '../src/index.js';
import { PASSWORD, liveTest, rejection, startSidecar, tempDir } from '../test-support/harness.js';

const DELIVERY = fileURLToPath(new URL('../../../Tests/Delivery/record_delivery.py', import.meta.url));

/** A sidecar whose local profile delivers codes to the recording script, and the way to read the last code. */
async function codesSidecar(t) {
  const sent = join(tempDir(t), 'sent.jsonl');
  // The config wants an absolute program: the python3 first on PATH.
  const python = (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'python3')).find(existsSync);
  const config = {
    profiles: {
      default: {
        provider: 'local',
        codes: { requireAfterFailures: 3 },
        local: { codeDelivery: { command: [python, DELIVERY, sent] } },
      },
    },
  };
  const sidecar = await startSidecar(t, { config });
  const lastCode = () => JSON.parse(readFileSync(sent, 'utf8').trim().split('\n').at(-1)).message.code;
  return { sidecar, lastCode };
}

describe('codes', () => {
  liveTest('sendCode, its cooldown, then login with the code', async (t) => {
    const { sidecar, lastCode } = await codesSidecar(t);
    await sidecar.register({ username: 'alice', password: PASSWORD, phone: '13812345678' });
    const sent = await sidecar.sendCode({ account: '13812345678', purpose: 'login' });
    assert.equal(sent.sentTo, '+86 138****5678');
    const limited = await rejection(sidecar.sendCode({ phone: '13812345678', purpose: 'login' }));
    assert.ok(limited instanceof RateLimitedError);
    assert.equal(limited.resendAt, sent.resendAt);
    const guess = lastCode() === '000000' ? '111111' : '000000';
    const wrong = await rejection(sidecar.login({ account: '13812345678', code: guess }));
    assert.ok(wrong instanceof InvalidCredentialsError);
    assert.equal(wrong.reason, 'invalid_code');
    const { user } = await sidecar.login({ account: '13812345678', code: lastCode() });
    assert.equal(user.username, 'alice');
  });

  liveTest('a step-up throws VerificationRequiredError, completed with its challenge', async (t) => {
    const { sidecar, lastCode } = await codesSidecar(t);
    await sidecar.register({ username: 'alice', password: PASSWORD, email: 'alice@example.com' });
    for (const attempt of [1, 2, 3]) {
      await rejection(sidecar.login({ account: 'alice@example.com', password: `wrong ${attempt}` }));
    }
    const required = await rejection(sidecar.login({ account: 'alice@example.com', password: PASSWORD }));
    assert.ok(required instanceof VerificationRequiredError, String(required));
    assert.deepEqual(required.methods, ['email']);
    assert.equal(required.sentTo, 'a***@example.com');
    assert.equal(required.expiresAt, '2027-01-01T00:05:00Z');
    assert.ok(required.challenge.length > 20);
    const { session } = await sidecar.login({ challenge: required.challenge, code: lastCode() });
    assert.equal(session.tokenType, 'Bearer');
  });

  liveTest('resetPassword checks the new password, then the old one is refused', async (t) => {
    const { sidecar, lastCode } = await codesSidecar(t);
    await sidecar.register({ username: 'alice', password: PASSWORD, email: 'alice@example.com' });
    await sidecar.sendCode({ email: 'alice@example.com', purpose: 'resetPassword' });
    const email = 'alice@example.com';
    const weak = await rejection(sidecar.resetPassword({ email, code: lastCode(), newPassword: 'x' }));
    assert.ok(weak instanceof ValidationFailedError);
    assert.ok(weak.fields.newPassword);
    const newPassword = 'a new horse staple';
    assert.deepEqual(await sidecar.resetPassword({ email, code: lastCode(), newPassword }), { reset: true });
    const old = await rejection(sidecar.login({ username: 'alice', password: PASSWORD }));
    assert.ok(old instanceof InvalidCredentialsError);
    await sidecar.login({ username: 'alice', password: newPassword });
  });
});
