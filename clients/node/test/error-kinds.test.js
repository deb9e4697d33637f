// Every error kind the local provider can produce, as the right class with the right fields.
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import {
  AlreadyExistsError,
  AuthSidecarError,
  CancelledError,
  ConfigError,
  InvalidCredentialsError,
  InvalidParamsError,
  MethodNotFoundError,
  NotLoggedInError,
  RateLimitedError,
  SessionExpiredError,
  ValidationFailedError,
} from '../src/index.js';
import { PASSWORD, liveTest, rejection, startSidecar } from '../test-support/harness.js';

/** Common checks: class, kind, code, a message that never echoes the password. */
function check(error, ErrorClass, kind, code, retryable = false) {
  assert.ok(error instanceof ErrorClass, `${error?.name}: ${error?.message}`);
  assert.ok(error instanceof AuthSidecarError);
  assert.ok(error instanceof Error);
  assert.equal(error.name, ErrorClass.name);
  assert.equal(error.kind, kind);
  assert.equal(error.code, code);
  assert.equal(error.retryable, retryable);
  assert.equal(error.data.kind, kind);
  assert.equal(typeof error.message, 'string');
  assert.ok(error.message.length > 0);
  assert.equal(error.message.includes(PASSWORD), false);
  assert.equal(JSON.stringify(error).includes(PASSWORD), false);
  assert.ok(error.stack.startsWith(`${ErrorClass.name}: `), error.stack.split('\n')[0]);
}

describe('error kinds from the real sidecar', () => {
  liveTest('validation_failed carries the per-field report', async (t) => {
    const sidecar = await startSidecar(t);
    const error = await rejection(sidecar.register({ username: 'b', password: 'password' }));
    check(error, ValidationFailedError, 'validation_failed', -32001);
    assert.equal(error.method, 'register');
    assert.deepEqual(error.fields.username.errors.map((e) => e.code), ['too_short']);
    assert.deepEqual(error.fields.password.errors.map((e) => e.code), ['too_common']);
    assert.equal('value' in error.fields.password, false);
  });

  liveTest('invalid_credentials: one answer for a wrong password and an unknown account', async (t) => {
    const sidecar = await startSidecar(t);
    await sidecar.register({ username: 'bob', password: PASSWORD });
    const wrong = await rejection(sidecar.login({ account: 'bob', password: 'wrong-password' }));
    const unknown = await rejection(sidecar.login({ account: 'nobody', password: 'wrong-password' }));
    check(wrong, InvalidCredentialsError, 'invalid_credentials', -32002);
    check(unknown, InvalidCredentialsError, 'invalid_credentials', -32002);
    assert.equal(wrong.message, unknown.message);
    assert.deepEqual(wrong.data, unknown.data);
  });

  liveTest('rate_limited after 5 failed logins, with retryAfter; it passes once the clock moves on', async (t) => {
    const sidecar = await startSidecar(t);
    for (let i = 0; i < 5; i++) {
      const error = await rejection(sidecar.login({ account: 'mallory', password: `guess-${i}` }));
      assert.ok(error instanceof InvalidCredentialsError);
    }
    const limited = await rejection(sidecar.login({ account: 'mallory', password: 'guess-again' }));
    check(limited, RateLimitedError, 'rate_limited', -32005, true);
    assert.equal(limited.retryAfter, 1);
    await sidecar.advanceClock(2);
    const after = await rejection(sidecar.login({ account: 'mallory', password: 'guess-again' }));
    assert.ok(after instanceof InvalidCredentialsError, 'no longer rate limited');
  });

  liveTest('rate_limited with reason too_many_in_flight when the client does not queue', async (t) => {
    // maxInFlight: Infinity turns the client's own queue off; the sidecar allows 2 requests.
    const sidecar = await startSidecar(t, { maxInFlight: Infinity, args: ['--max-in-flight', '2'] });
    await sidecar.register({ username: 'bob', password: PASSWORD });
    await sidecar.login({ username: 'bob', password: PASSWORD });
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => sidecar.getUser({ refresh: true })));
    const refused = results.filter((r) => r.status === 'rejected').map((r) => r.reason);
    assert.ok(refused.length > 0, 'some were over the limit');
    for (const error of refused) {
      check(error, RateLimitedError, 'rate_limited', -32005, true);
      assert.equal(error.reason, 'too_many_in_flight');
    }
  });

  liveTest('not_logged_in carries lastAccount after a logout; none before any login', async (t) => {
    const sidecar = await startSidecar(t);
    const fresh = await rejection(sidecar.getUser());
    check(fresh, NotLoggedInError, 'not_logged_in', -32003);
    assert.equal(fresh.lastAccount, undefined);
    await sidecar.register({ username: 'bob', password: PASSWORD });
    await sidecar.login({ account: 'bob', password: PASSWORD });
    await sidecar.logout();
    const after = await rejection(sidecar.getUser());
    check(after, NotLoggedInError, 'not_logged_in', -32003);
    assert.equal(after.lastAccount, 'bob');
    const refresh = await rejection(sidecar.refreshToken({ force: true }));
    check(refresh, NotLoggedInError, 'not_logged_in', -32003);
  });

  liveTest('session_expired past the refresh token lifetime; then not_logged_in', async (t) => {
    const sidecar = await startSidecar(t);
    await sidecar.register({ username: 'bob', password: PASSWORD });
    await sidecar.login({ account: 'bob', password: PASSWORD });
    const states = [];
    sidecar.on('sessionChanged', (e) => states.push(e.state));
    await sidecar.advanceClock(31 * 24 * 3600); // the refresh token lives 30 days
    const expired = await rejection(sidecar.getUser());
    check(expired, SessionExpiredError, 'session_expired', -32004);
    assert.deepEqual(states, ['expired']);
    const next = await rejection(sidecar.getUser());
    assert.ok(next instanceof NotLoggedInError, 'the session was cleared');
  });

  liveTest('already_exists names the field', async (t) => {
    const sidecar = await startSidecar(t);
    await sidecar.register({ username: 'bob', email: 'x@example.com', password: PASSWORD });
    const byName = await rejection(sidecar.register({ username: 'BOB', password: PASSWORD }));
    check(byName, AlreadyExistsError, 'already_exists', -32013);
    assert.equal(byName.field, 'username');
    const byEmail = await rejection(sidecar.register({ username: 'dave', email: 'x@EXAMPLE.com', password: PASSWORD }));
    check(byEmail, AlreadyExistsError, 'already_exists', -32013);
    assert.equal(byEmail.field, 'email');
  });

  liveTest('config_error for a profile the config lacks', async (t) => {
    const sidecar = await startSidecar(t);
    const error = await rejection(sidecar.login({ account: 'bob', password: PASSWORD, profile: 'nope' }));
    check(error, ConfigError, 'config_error', -32015);
    assert.equal(error.profile, 'nope');
  });

  liveTest('invalid_params: unknown key, wrong type, two accounts', async (t) => {
    const sidecar = await startSidecar(t);
    const unknown = await rejection(sidecar.getUser({ bogus: 1 }));
    check(unknown, InvalidParamsError, 'invalid_params', -32602);
    assert.equal(unknown.field, 'bogus');
    const wrongType = await rejection(sidecar.refreshToken({ force: 'yes' }));
    check(wrongType, InvalidParamsError, 'invalid_params', -32602);
    assert.equal(wrongType.field, 'force');
    const two = await rejection(sidecar.login({ username: 'bob', email: 'bob@example.com', password: PASSWORD }));
    check(two, InvalidParamsError, 'invalid_params', -32602);
    const notObject = await rejection(sidecar.call('status', [1, 2]));
    check(notObject, InvalidParamsError, 'invalid_params', -32602);
  });

  liveTest('method_not_found names the method', async (t) => {
    const sidecar = await startSidecar(t);
    const error = await rejection(sidecar.call('noSuchMethod', {}));
    check(error, MethodNotFoundError, 'method_not_found', -32601);
    assert.equal(error.data.method, 'noSuchMethod');
    assert.equal(error.method, 'noSuchMethod');
  });

  liveTest('cancelled: aborting a login that waits behind a slow login', async (t) => {
    // Real password hashing (~140 ms per login): no --test-kdf-iterations.
    const sidecar = await startSidecar(t, { test: { kdfIterations: undefined } });
    await sidecar.register({ username: 'bob', password: PASSWORD });
    const controller = new AbortController();
    const slow = sidecar.login({ account: 'bob', password: PASSWORD });
    const queued = sidecar.login({ account: 'bob', password: PASSWORD }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user pressed cancel')), 20);
    const error = await rejection(queued);
    check(error, CancelledError, 'cancelled', -32800);
    assert.equal(error.data.clientSide, undefined, 'answered by the sidecar');
    assert.equal(error.cause?.message, 'user pressed cancel');
    assert.ok((await slow).session, 'the first login is unaffected');
  });

  liveTest('cancelled: aborting a running getUser; an already aborted signal never sends', async (t) => {
    const sidecar = await startSidecar(t, { test: { kdfIterations: undefined } });
    await sidecar.register({ username: 'bob', password: PASSWORD });
    const login = sidecar.login({ account: 'bob', password: PASSWORD });
    const controller = new AbortController();
    const read = sidecar.getUser({}, { signal: controller.signal }); // waits for the login
    controller.abort();
    check(await rejection(read), CancelledError, 'cancelled', -32800);
    await login;
    const early = await rejection(sidecar.getUser({}, { signal: AbortSignal.abort() }));
    check(early, CancelledError, 'cancelled', -32800);
    assert.equal(early.data.clientSide, true);
    assert.ok((await sidecar.getUser()).user, 'still fine afterwards');
  });

  liveTest('abort of a login while its password is being checked: cancelled, and nothing is stored', async (t) => {
    const sidecar = await startSidecar(t, { test: { kdfIterations: undefined } });
    await sidecar.register({ username: 'bob', password: PASSWORD });
    const controller = new AbortController();
    const login = sidecar.login({ account: 'bob', password: PASSWORD }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(login, (error) => error instanceof CancelledError && error.kind === 'cancelled');
    await assert.rejects(sidecar.getUser(), (error) => error instanceof NotLoggedInError);
  });
});
