#!/usr/bin/env node
// Benchmark peer: auth-sidecar's `validate` as an idiomatic Node stdio server.
//
// It reads newline-delimited JSON-RPC 2.0 requests with `readline` on process.stdin and writes one
// compact JSON answer per line with process.stdout.write, applying the rules of
// docs/validation-rules.md (password preset `standard`, purposes `register` and `login`, English
// messages), so that bench/run.py compares the Swift sidecar with an equivalent server doing the
// same work. Node 20, no dependencies.

import readline from 'node:readline';

// The sidecar's default message-size limit; longer lines are answered with -32600.
const MAX_MESSAGE_CHARS = 1 << 20;

const FIELDS = ['account', 'username', 'email', 'phone', 'password']; // canonical order of `fields`
const OPTIONS = ['purpose', 'locale', 'profile'];
const REGISTER = 'register';
const LOGIN = 'login';

// "Trimmed" means Unicode White_Space; String.prototype.trim() would also strip U+FEFF.
const WS = '\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const EDGE_WHITE_SPACE = new RegExp(`^[${WS}]+|[${WS}]+$`, 'g');
const PHONE_SEPARATORS = /[ \-.()]/g;

const USERNAME_CHARS = /^[A-Za-z0-9_-]*$/;
const EMAIL_LOCAL_CHARS = /^[A-Za-z0-9._%+-]{1,64}$/;
const DOMAIN_LABEL_CHARS = /^[A-Za-z0-9-]+$/;
const TOP_LEVEL_DOMAIN = /^[A-Za-z]{2,64}$/;
const E164 = /^\+[1-9][0-9]{7,14}$/;
const CHINA_MOBILE = /^1[3-9][0-9]{9}$/;
const PHONE_LIKE_ACCOUNT = /^\+?[0-9]{8,}$/;
const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;

// A few dozen of the most common passwords (lower case; the comparison ignores case).
const COMMON_PASSWORDS = new Set(`
  123456 123456789 12345678 password qwerty 123123 12345 1234567 111111 1234567890 abc123
  password1 iloveyou 000000 qwerty123 1q2w3e4r 11111111 qwertyuiop 123321 654321 666666
  987654321 1qaz2wsx sunshine princess dragon monkey letmein football baseball welcome admin
  login master shadow superman trustno1 passw0rd p@ssw0rd starwars whatever zaq12wsx
  asdfghjkl 88888888 12341234 1234qwer qwe123 aa123456 147258369 password123 hello123 freedom
`.trim().split(/\s+/));

// English messages, worded as the sidecar words them so that all three write answers of the same size.
const USERNAME_CHARACTERS = 'can only contain English letters, digits, underscores (_) and hyphens (-).';
const MESSAGES = {
  username: {
    required: 'Username is required.',
    too_short: 'Username must be at least 3 characters.',
    too_long: 'Username must be at most 30 characters.',
    invalid_characters: `Username ${USERNAME_CHARACTERS}`,
  },
  email: {
    required: 'Email address is required.',
    too_long: 'Email address must be at most 254 characters.',
    invalid_format: 'Email address is not valid.',
  },
  phone: {
    required: 'Phone number is required.',
    invalid_format: 'Phone number is not valid.',
  },
  password: {
    required: 'Password is required.',
    too_short: 'Password must be at least 8 characters.',
    too_long: 'Password must be at most 128 characters.',
    invalid_characters: 'Password cannot contain control characters.',
    too_common: 'Password is too common. Choose one that is harder to guess.',
  },
};
// An `account` field is named "Account" whatever its kind.
const ACCOUNT_MESSAGES = {
  username: {
    required: 'Account is required.',
    too_short: 'Account must be at least 3 characters.',
    too_long: 'Account must be at most 30 characters.',
    invalid_characters: `Account ${USERNAME_CHARACTERS}`,
  },
  email: {
    too_long: 'Account must be at most 254 characters.',
    invalid_format: 'Account is not a valid email address.',
  },
  phone: { invalid_format: 'Account is not a valid phone number.' },
};

/** Bad `validate` params: answered with -32602, naming the parameter at fault if there is one. */
class InvalidParams extends Error {
  constructor(message, field) {
    super(`Invalid params: ${message}`);
    this.field = field;
  }
}

// MARK: validation rules (docs/validation-rules.md)

const trim = (text) => text.replace(EDGE_WHITE_SPACE, '');

/** Lengths count code points; String.length counts UTF-16 units. */
function codePointLength(text) {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

function checkUsername(raw, purpose) {
  const value = trim(raw);
  if (!value) return [value, ['required']];
  const errors = [];
  const length = codePointLength(value);
  if (purpose === REGISTER && length < 3) errors.push('too_short');
  if (length > 30) errors.push('too_long');
  if (!USERNAME_CHARS.test(value)) errors.push('invalid_characters');
  return [value, errors];
}

function isEmail(text) {
  const at = text.lastIndexOf('@');
  if (at < 0) return false;
  const local = text.slice(0, at);
  if (!EMAIL_LOCAL_CHARS.test(local)) return false;
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = text.slice(at + 1).split('.');
  if (labels.length < 2 || !TOP_LEVEL_DOMAIN.test(labels[labels.length - 1])) return false;
  return labels.every(
    (label) => DOMAIN_LABEL_CHARS.test(label) && !label.startsWith('-') && !label.endsWith('-'),
  );
}

function checkEmail(raw, purpose) {
  let value = trim(raw);
  if (!value) return [value, ['required']];
  const at = value.lastIndexOf('@');
  if (at >= 0) value = value.slice(0, at + 1) + value.slice(at + 1).toLowerCase();
  const errors = [];
  if (codePointLength(value) > 254) errors.push('too_long');
  // A login leaves the format to the server: presence and length only.
  if (purpose === REGISTER && !isEmail(value)) errors.push('invalid_format');
  return [value, errors];
}

function checkPhone(raw, purpose) {
  const value = trim(raw);
  if (!value) return [value, ['required']];
  const compact = value.replace(PHONE_SEPARATORS, '');
  if (E164.test(compact)) return [compact, []];
  if (CHINA_MOBILE.test(compact)) return ['+86' + compact, []];
  return [compact, ['invalid_format']];
}

/** Never trimmed. */
function checkPassword(raw, purpose) {
  if (!raw) return [undefined, ['required']];
  const errors = [];
  const length = codePointLength(raw);
  if (purpose === REGISTER && length < 8) errors.push('too_short');
  if (length > 128) errors.push('too_long');
  if (purpose === REGISTER) {
    if (CONTROL_CHARACTER.test(raw)) errors.push('invalid_characters');
    if (COMMON_PASSWORDS.has(raw.toLowerCase())) errors.push('too_common');
  }
  return [undefined, errors];
}

const CHECKS = {
  username: checkUsername,
  email: checkEmail,
  phone: checkPhone,
  password: checkPassword,
};

function classifyAccount(value) {
  if (value.includes('@')) return 'email';
  if (PHONE_LIKE_ACCOUNT.test(value.replace(PHONE_SEPARATORS, ''))) return 'phone';
  return 'username';
}

function fieldResult(name, raw, purpose) {
  const kind = name === 'account' ? classifyAccount(trim(raw)) : name;
  const [value, codes] = CHECKS[kind](raw, purpose);
  const result = { valid: codes.length === 0 };
  if (value !== undefined) result.value = value;
  if (name === 'account') result.kind = kind;
  const messages = name === 'account' ? ACCOUNT_MESSAGES[kind] : MESSAGES[kind];
  result.errors = codes.map((code) => ({ code, message: messages[code] }));
  return result;
}

const jsonType = (value) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Returns [purpose, names of the fields sent] or throws InvalidParams. */
function checkedParams(params = {}) {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw new InvalidParams('params must be an object.');
  }
  for (const [key, value] of Object.entries(params)) {
    if (!FIELDS.includes(key) && !OPTIONS.includes(key)) {
      throw new InvalidParams(`unknown parameter ${JSON.stringify(key)}.`, key);
    }
    if (typeof value !== 'string') {
      throw new InvalidParams(`"${key}" must be a string, not ${jsonType(value)}.`, key);
    }
  }
  const purpose = params.purpose ?? REGISTER;
  if (purpose !== REGISTER && purpose !== LOGIN) {
    throw new InvalidParams('"purpose" must be "register" or "login".', 'purpose');
  }
  const names = FIELDS.filter((name) => Object.hasOwn(params, name));
  if (names.length === 0) {
    throw new InvalidParams('give at least one of account, username, email, phone, password.');
  }
  return [purpose, names];
}

function validate(params) {
  const [purpose, names] = checkedParams(params);
  const fields = {};
  let valid = true;
  for (const name of names) {
    fields[name] = fieldResult(name, params[name], purpose);
    valid &&= fields[name].valid;
  }
  return { valid, fields };
}

// MARK: JSON-RPC 2.0

function errorResponse(id, code, kind, message, details = {}) {
  return { jsonrpc: '2.0', id, error: { code, message, data: { kind, retryable: false, ...details } } };
}

const invalidRequest = (id = null) =>
  errorResponse(id, -32600, 'invalid_request', 'Invalid request.');

const isValidId = (id) => id === null || typeof id === 'string' || typeof id === 'number';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Answers one request object; returns undefined for a notification. */
function handleRequest(message) {
  if (!isObject(message)) return invalidRequest();
  const hasId = Object.hasOwn(message, 'id');
  const id = hasId ? message.id : null;
  if (!isValidId(id)) return invalidRequest();
  if (message.jsonrpc !== '2.0' || typeof message.method !== 'string') return invalidRequest(id);
  if (Object.hasOwn(message, 'params') && (message.params === null || typeof message.params !== 'object')) {
    return invalidRequest(id);
  }
  let response;
  if (message.method !== 'validate') {
    response = errorResponse(id, -32601, 'method_not_found', 'Method not found.', {
      method: message.method,
    });
  } else {
    try {
      response = { jsonrpc: '2.0', id, result: validate(message.params) };
    } catch (error) {
      if (!(error instanceof InvalidParams)) throw error;
      const details = error.field === undefined ? {} : { field: error.field };
      response = errorResponse(id, -32602, 'invalid_params', error.message, details);
    }
  }
  return hasId ? response : undefined;
}

/** Answers a request or a batch; returns undefined when nothing is to be written. */
function handleMessage(message) {
  if (!Array.isArray(message)) return handleRequest(message);
  if (message.length === 0) return invalidRequest();
  const responses = message.map(handleRequest).filter((response) => response !== undefined);
  return responses.length > 0 ? responses : undefined;
}

function answerLine(line) {
  if (line.length > MAX_MESSAGE_CHARS) return invalidRequest();
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return errorResponse(null, -32700, 'parse_error', 'Parse error.');
  }
  return handleMessage(message);
}

// MARK: stdio

process.stdout.on('error', () => process.exit(0)); // the host went away: nobody to answer

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (line.trim() === '') return; // blank lines are ignored
  const response = answerLine(line);
  if (response !== undefined) process.stdout.write(JSON.stringify(response) + '\n');
});
