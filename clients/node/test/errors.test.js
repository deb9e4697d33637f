// The error table against the contract (schema/openrpc.json), and errorFromResponse. No binary needed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as api from '../src/index.js';
import { AuthSidecarError, ERROR_KINDS, errorFromResponse } from '../src/index.js';

const schema = JSON.parse(readFileSync(new URL('../../../schema/openrpc.json', import.meta.url), 'utf8'));
const schemaErrors = schema.components.errors;

/** validation_failed → ValidationFailedError, tls_error → TlsError, internal → InternalError. */
const className = (kind) => kind.split('_').map((w) => w[0].toUpperCase() + w.slice(1)).join('') + (kind.endsWith('_error') ? '' : 'Error');

test('ERROR_KINDS covers exactly the error kinds of schema/openrpc.json, with their codes', () => {
  assert.deepEqual(Object.keys(ERROR_KINDS).sort(), Object.keys(schemaErrors).sort());
  for (const [kind, { code, data }] of Object.entries(schemaErrors)) {
    assert.equal(data.kind, kind);
    assert.equal(ERROR_KINDS[kind].code, code, kind);
  }
  // The ErrorObject schema's kind enum lists the same kinds.
  assert.deepEqual(
    [...schema.components.schemas.ErrorObject.properties.data.properties.kind.enum].sort(),
    Object.keys(ERROR_KINDS).sort(),
  );
  assert.ok(Object.isFrozen(ERROR_KINDS));
});

test('one exported subclass per kind, named after it, distinct', () => {
  const classes = new Set();
  for (const [kind, { errorClass }] of Object.entries(ERROR_KINDS)) {
    assert.equal(errorClass.name, className(kind), kind);
    assert.equal(api[errorClass.name], errorClass, `${errorClass.name} is exported`);
    assert.ok(errorClass.prototype instanceof AuthSidecarError);
    classes.add(errorClass);
  }
  assert.equal(classes.size, Object.keys(ERROR_KINDS).length);
});

test('errorFromResponse builds the subclass with kind, code, retryable, retryAfter, fields, data', () => {
  for (const [kind, { code, data }] of Object.entries(schemaErrors)) {
    const error = errorFromResponse({ code, message: `m ${kind}`, data }, 'login');
    assert.ok(error instanceof ERROR_KINDS[kind].errorClass);
    assert.ok(error instanceof AuthSidecarError && error instanceof Error);
    assert.equal(error.kind, kind);
    assert.equal(error.code, code);
    assert.equal(error.retryable, data.retryable);
    assert.equal(error.message, `m ${kind}`);
    assert.equal(error.method, 'login');
    assert.equal(error.name, ERROR_KINDS[kind].errorClass.name);
  }
  const limited = errorFromResponse({ code: -32005, message: 'Too many.', data: { kind: 'rate_limited', retryable: true, retryAfter: 4 } });
  assert.equal(limited.retryAfter, 4);
  assert.equal(limited.retryable, true);
  const notIn = errorFromResponse({ code: -32003, message: 'x', data: { kind: 'not_logged_in', retryable: false, lastAccount: 'bob' } });
  assert.equal(notIn.lastAccount, 'bob');
  const fields = { username: { valid: false, value: 'b', errors: [{ code: 'too_short', message: 'short' }] } };
  const invalid = errorFromResponse({ code: -32001, message: 'x', data: { kind: 'validation_failed', retryable: false, fields } });
  assert.deepEqual(invalid.fields, fields);
  assert.equal(errorFromResponse({ code: -32008, message: 'x', data: { kind: 'server_error', retryable: true, status: 503 } }).status, 503);
  assert.equal(errorFromResponse({ code: -32015, message: 'x', data: { kind: 'config_error', retryable: false, profile: 'p' } }).profile, 'p');
  assert.deepEqual(JSON.parse(JSON.stringify(notIn)), {
    name: 'NotLoggedInError', kind: 'not_logged_in', code: -32003, message: 'x', data: { kind: 'not_logged_in', retryable: false, lastAccount: 'bob' },
  });
});

test('unknown kinds give the base class; a kind-less standard code still maps', () => {
  const unknown = errorFromResponse({ code: -32099, message: 'new', data: { kind: 'brand_new_kind', retryable: true } });
  assert.equal(unknown.constructor, AuthSidecarError);
  assert.equal(unknown.kind, 'brand_new_kind');
  assert.equal(unknown.retryable, true);
  const bare = errorFromResponse({ code: -32601, message: 'Method not found' });
  assert.ok(bare instanceof api.MethodNotFoundError);
  assert.equal(bare.kind, 'method_not_found');
  const garbage = errorFromResponse(null);
  assert.equal(garbage.constructor, AuthSidecarError);
  assert.equal(garbage.kind, 'unknown');
  assert.equal(garbage.retryable, false);
  const proto = errorFromResponse({ code: 1, message: 'x', data: { kind: 'toString' } });
  assert.equal(proto.constructor, AuthSidecarError, 'no prototype lookups');
});

test('reason is on every error; unknownAccount says a refused login named an unknown account', () => {
  const unknown = errorFromResponse({
    code: -32002, message: 'The account or password is incorrect.',
    data: { kind: 'invalid_credentials', retryable: false, reason: 'unknown_account' },
  });
  assert.ok(unknown instanceof api.InvalidCredentialsError);
  assert.equal(unknown.reason, 'unknown_account');
  assert.equal(unknown.unknownAccount, true);
  const generic = errorFromResponse({
    code: -32002, message: 'm', data: { kind: 'invalid_credentials', retryable: false },
  });
  assert.equal(generic.reason, undefined);
  assert.equal(generic.unknownAccount, false);
  const corrupt = errorFromResponse({
    code: -32012, message: 'm', data: { kind: 'storage_corrupt', retryable: false, reason: 'wrong_key' },
  });
  assert.equal(corrupt.reason, 'wrong_key');
  const odd = errorFromResponse({
    code: -32002, message: 'm', data: { kind: 'invalid_credentials', retryable: false, reason: 7 },
  });
  assert.equal(odd.reason, undefined);
  assert.equal(odd.unknownAccount, false);
});
