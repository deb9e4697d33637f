// Golden tests of a login UI's answers, for node:test (Node 20, no packages): each `<name>.in.jsonl` here is sent
// to the sidecar one request at a time (each after the previous answer, as a host awaiting it would), on the
// simulated provider in test mode, and every line the sidecar writes must equal `<name>.out.jsonl`.
//
// Copy this file and `config.json` into your tests, point AUTH_SIDECAR_BIN at the binary you ship, and add one
// `.in.jsonl` per screen or scenario. `GOLDEN_RECORD=1 node --test` (re)writes the `.out.jsonl` files: review the
// diff before committing it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = ['--config', path.join(here, 'config.json'), '--test-clock', '2027-01-01T00:00:00Z'];
const transcripts = fs.readdirSync(here).filter((name) => name.endsWith('.in.jsonl')).sort();
const hangGuardMs = 60_000;
const recording = process.env.GOLDEN_RECORD === '1';

function sidecarBinary() {
  const binary = process.env.AUTH_SIDECAR_BIN;
  assert.ok(binary, 'set AUTH_SIDECAR_BIN to the auth-sidecar binary');
  return binary;
}

/** The sidecar's stdout lines for `requests` (JSON-RPC lines), sent in lockstep to a fresh state directory. */
async function runTranscript(requests) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('AUTH_SIDECAR_')));
  Object.assign(env, { AUTH_SIDECAR_TEST_MODE: '1', AUTH_SIDECAR_STATE_DIR: path.join(home, 'state') });
  const sidecar = spawn(sidecarBinary(), args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => sidecar.on('close', resolve));
  const guard = setTimeout(() => sidecar.kill('SIGKILL'), hangGuardMs);
  const output = createInterface({ input: sidecar.stdout })[Symbol.asyncIterator]();
  try {
    const lines = [];
    for (const request of requests) {
      sidecar.stdin.write(request + '\n');
      const id = JSON.parse(request).id;
      while (id !== undefined) {
        const { value, done } = await output.next();
        assert.ok(!done, `the sidecar stopped before answering ${id}`);
        lines.push(value);
        if (JSON.parse(value).id === id) break;
      }
    }
    sidecar.stdin.end();
    for (let next = await output.next(); !next.done; next = await output.next()) lines.push(next.value);
    assert.equal(await exited, 0, "the sidecar's exit status");
    return lines;
  } finally {
    clearTimeout(guard);
    sidecar.kill('SIGKILL');
    fs.rmSync(home, { recursive: true, force: true });
  }
}

const requestsIn = (name) =>
  fs.readFileSync(path.join(here, name), 'utf8').split('\n').filter((line) => line.trim() !== '');
const expectedName = (name) => name.replace('.in.', '.out.');

/** Fails, naming the first differing line, unless the transcript's answers equal `expectedFile`. */
async function check(name, expectedFile) {
  const actual = await runTranscript(requestsIn(name));
  if (recording) {
    fs.writeFileSync(expectedFile, actual.join('\n') + '\n');
    assert.fail(`recorded ${path.basename(expectedFile)}; review it and run again`);
  }
  const expected = fs.readFileSync(expectedFile, 'utf8').split('\n').slice(0, -1);
  actual.forEach((got, index) => {
    if (index < expected.length) {
      assert.equal(got, expected[index], `${name} line ${index + 1} differs`);
    }
  });
  assert.equal(actual.length, expected.length, `${name}: ${actual.length} lines, expected ${expected.length}`);
}

test('there are transcripts', () => assert.ok(transcripts.length > 0, 'no *.in.jsonl next to this file'));

for (const name of transcripts) {
  test(name, () => check(name, path.join(here, expectedName(name))));
}

test('a changed expected line fails: the comparison is not vacuous', { skip: recording }, async () => {
  const name = transcripts[0];
  const expected = fs.readFileSync(path.join(here, expectedName(name)), 'utf8').split('\n').slice(0, -1);
  const middle = Math.floor(expected.length / 2);
  // JSON meaning the same, one space added: the bytes differ, so the check must fail.
  expected[middle] = expected[middle].replace(':', ': ');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'golden-mutated-'));
  try {
    const mutated = path.join(dir, 'mutated.out.jsonl');
    fs.writeFileSync(mutated, expected.join('\n') + '\n');
    await assert.rejects(check(name, mutated), /line \d+ differs/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
