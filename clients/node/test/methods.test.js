// Every method of the contract, through the client, against the real binary.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe } from 'node:test';
import { NotLoggedInError } from '../src/index.js';
import { CLOCK, PASSWORD, liveTest, rejection, startSidecar } from '../test-support/harness.js';

const schema = JSON.parse(readFileSync(new URL('../../../schema/openrpc.json', import.meta.url), 'utf8'));

describe('methods', () => {
  liveTest('validate: a result, valid or not, in en and zh-Hans', async (t) => {
    const sidecar = await startSidecar(t);
    const bad = await sidecar.validate({ username: 'al' });
    assert.equal(bad.valid, false);
    assert.deepEqual(bad.fields.username.errors.map((e) => e.code), ['too_short']);
    const good = await sidecar.validate({ account: '13812345678', password: 'hunter2', purpose: 'login' });
    assert.equal(good.valid, true);
    assert.equal(good.fields.account.value, '+8613812345678');
    assert.equal(good.fields.account.kind, 'phone');
    assert.equal('value' in good.fields.password, false, 'a password is never echoed');
    const zh = await sidecar.validate({ username: 'al', locale: 'zh-Hans' });
    assert.match(zh.fields.username.errors[0].message, /用户名/);
  });

  liveTest('register, login, getUser (cached and refreshed), refreshToken, logout, status', async (t) => {
    const sidecar = await startSidecar(t);
    const { user } = await sidecar.register({
      username: 'alice',
      email: 'Alice@Example.COM',
      phone: '138 0013 8000',
      password: PASSWORD,
      displayName: '  Alice Liddell ',
    });
    assert.equal(user.username, 'alice');
    assert.equal(user.email, 'Alice@example.com');
    assert.equal(user.phone, '+8613800138000');
    assert.equal(user.displayName, 'Alice Liddell');
    assert.equal(typeof user.id, 'string');

    const login = await sidecar.login({ account: 'alice@example.com', password: PASSWORD });
    assert.deepEqual(login.user, user);
    assert.equal(login.session.tokenType, 'Bearer');
    assert.equal(login.session.expiresAt, '2027-01-01T00:15:00Z');
    assert.equal(login.session.accessToken.split('.').length, 3, 'a JWT');
    assert.equal(JSON.stringify(login).includes(PASSWORD), false);

    const cached = await sidecar.getUser();
    assert.deepEqual(cached.user, user);
    assert.equal(cached.session.accessToken, login.session.accessToken);
    assert.equal(typeof cached.stale, 'boolean');
    const fresh = await sidecar.getUser({ refresh: true });
    assert.deepEqual(fresh.user, user);
    assert.equal(fresh.stale, false);

    const notDue = await sidecar.refreshToken();
    assert.equal(notDue.session.accessToken, login.session.accessToken, 'not within the refresh margin');
    const forced = await sidecar.refreshToken({ force: true });
    assert.notEqual(forced.session.accessToken, login.session.accessToken);

    const status = await sidecar.status();
    assert.equal(typeof status.version, 'string');
    assert.ok(status.capabilities.methods.includes('login'));
    assert.deepEqual(status.capabilities.framing, ['ndjson', 'lsp']);
    assert.equal(status.storage.protection, 'key-file');
    const profile = status.profiles.find((p) => p.name === 'default');
    assert.equal(profile.loggedIn, true);
    assert.equal(profile.provider, 'local');

    assert.deepEqual(await sidecar.logout(), { loggedOut: true, revoked: true });
    assert.deepEqual(await sidecar.logout(), { loggedOut: true, revoked: false }, 'idempotent');
    const error = await rejection(sidecar.getUser());
    assert.ok(error instanceof NotLoggedInError);
  });

  liveTest('login by username, email or phone', async (t) => {
    const sidecar = await startSidecar(t);
    await sidecar.register({ username: 'carol', email: 'carol@example.com', phone: '+8613900139000', password: PASSWORD });
    for (const params of [
      { username: 'CAROL' },
      { email: 'carol@example.com' },
      { phone: '+86 139 0013 9000' },
      { account: 'carol' },
    ]) {
      const { user } = await sidecar.login({ ...params, password: PASSWORD });
      assert.equal(user.username, 'carol', JSON.stringify(params));
    }
  });

  liveTest('discover returns the OpenRPC document of schema/', async (t) => {
    const sidecar = await startSidecar(t);
    const doc = await sidecar.discover();
    assert.equal(doc.openrpc, schema.openrpc);
    assert.deepEqual(doc.methods.map((m) => m.name), schema.methods.map((m) => m.name));
    assert.deepEqual(Object.keys(doc.components.errors), Object.keys(schema.components.errors));
  });

  liveTest('advanceClock (test mode) moves the fixed clock', async (t) => {
    const sidecar = await startSidecar(t);
    assert.deepEqual(await sidecar.advanceClock(60), { now: '2027-01-01T00:01:00Z' });
    await sidecar.register({ username: 'dave', password: PASSWORD });
    const { session } = await sidecar.login({ username: 'dave', password: PASSWORD });
    assert.equal(session.expiresAt, '2027-01-01T00:16:00Z');
    assert.equal(CLOCK, '2027-01-01T00:00:00Z');
  });

  liveTest('generic call() reaches any method, params optional', async (t) => {
    const sidecar = await startSidecar(t);
    const status = await sidecar.call('status');
    assert.ok(Array.isArray(status.profiles));
    const result = await sidecar.call('validate', { email: 'A@B.CO' });
    assert.equal(result.fields.email.value, 'A@b.co');
  });

  liveTest('sessionChanged events: loggedIn, refreshed, loggedOut, expired — and "notification" for each', async (t) => {
    const sidecar = await startSidecar(t);
    const events = [];
    const notifications = [];
    sidecar.on('sessionChanged', (e) => events.push(e.state));
    sidecar.on('notification', (n) => notifications.push(n));
    await sidecar.register({ username: 'erin', password: PASSWORD });
    const loggedIn = once(sidecar, 'sessionChanged');
    await sidecar.login({ username: 'erin', password: PASSWORD });
    // The notification is written before the answer: it has been emitted by now.
    assert.deepEqual(await loggedIn, [{ profile: 'default', state: 'loggedIn' }]);
    await sidecar.refreshToken({ force: true });
    await sidecar.logout();
    await sidecar.login({ username: 'erin', password: PASSWORD });
    await sidecar.advanceClock(31 * 24 * 3600);
    await rejection(sidecar.getUser());
    assert.deepEqual(events, ['loggedIn', 'refreshed', 'loggedOut', 'loggedIn', 'expired']);
    assert.equal(notifications.length, 5);
    assert.deepEqual(notifications[1], { method: 'sessionChanged', params: { profile: 'default', state: 'refreshed' } });
  });

  liveTest('default profile and locale options apply to every method', async (t) => {
    const sidecar = await startSidecar(t, {
      config: { profiles: { default: { provider: 'local' }, work: { provider: 'local' } } },
      profile: 'work',
      locale: 'zh-Hans',
    });
    const seen = [];
    sidecar.on('sessionChanged', (e) => seen.push(e));
    await sidecar.register({ username: 'frank', password: PASSWORD });
    await sidecar.login({ username: 'frank', password: PASSWORD });
    assert.deepEqual(seen, [{ profile: 'work', state: 'loggedIn' }]);
    const status = await sidecar.status();
    assert.equal(status.profiles.find((p) => p.name === 'work').loggedIn, true);
    assert.equal(status.profiles.find((p) => p.name === 'default').loggedIn, false);
    const other = await rejection(sidecar.getUser({ profile: 'default' }));
    assert.ok(other instanceof NotLoggedInError);
    assert.match(other.message, /[\u4e00-\u9fff]/, 'zh-Hans message');
  });

  liveTest('login carries context; a profile that declares no such name refuses it', async (t) => {
    const sidecar = await startSidecar(t);
    await sidecar.register({ username: 'grace', password: PASSWORD });
    const refused = await rejection(sidecar.login({ username: 'grace', password: PASSWORD, context: { deviceId: 'd-1' } }));
    assert.equal(refused.kind, 'invalid_params');
    assert.equal(refused.data.field, 'context.deviceId', 'the sidecar saw the context the client sent');
    const login = await sidecar.login({ username: 'grace', password: PASSWORD, context: {} });
    assert.equal(login.user.username, 'grace');
  });
});
