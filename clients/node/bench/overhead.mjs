#!/usr/bin/env node
// What the client costs per call: N sequential `validate` round trips through AuthSidecar vs the
// same requests written and read raw on a sidecar's pipes (pre-serialized lines, answers counted
// by newline, not parsed), in one run, on the same binary. The N calls of each side are split
// into ROUNDS alternating rounds, so that load from other processes hits both sides alike; the
// Node process's own CPU time per call is reported too (insensitive to waiting).
//
//   AUTH_SIDECAR_BIN=.build/release/auth-sidecar node bench/overhead.mjs [N] [ROUNDS]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthSidecar, findBinary } from '../src/index.js';

const N = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 10);
const WARMUP = 1_000;
const binary = findBinary();
const stateDir = mkdtempSync(join(tmpdir(), 'auth-sidecar-bench-'));
const params = { username: 'alice_1', email: 'alice@example.com' };

/** A raw NDJSON peer: one write per request, resolve when the answer's newline arrives. */
function rawPeer() {
  const child = spawn(binary, ['--state-dir', join(stateDir, 'raw')], { stdio: ['pipe', 'pipe', 'ignore'] });
  let waiting = null;
  child.stdout.on('data', (chunk) => {
    // Sequential: exactly one answer outstanding, a chunk holds it whole or in parts.
    if (chunk[chunk.length - 1] === 10 && waiting) {
      const w = waiting;
      waiting = null;
      w();
    }
  });
  const prefix = '{"jsonrpc":"2.0","method":"validate","params":' + JSON.stringify(params) + ',"id":';
  let id = 0;
  return {
    run: (n) =>
      measure(n, async () => {
        const answered = new Promise((resolve) => (waiting = resolve));
        child.stdin.write(prefix + ++id + '}\n');
        await answered;
      }),
    close: () => new Promise((resolve) => { child.on('close', resolve); child.stdin.end(); }),
  };
}

function clientPeer(sidecar) {
  return { run: (n) => measure(n, () => sidecar.validate(params)) };
}

/** Runs `one` n times in sequence: wall and CPU (this process) µs per call. */
async function measure(n, one) {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await one();
  const wall = Number(process.hrtime.bigint() - start) / 1e3 / n;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / n };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const raw = rawPeer();
const sidecar = await AuthSidecar.start({ binary, stateDir: join(stateDir, 'client') });
const client = clientPeer(sidecar);
await raw.run(WARMUP);
await client.run(WARMUP);
const rawTimes = [];
const clientTimes = [];
const perRound = Math.ceil(N / ROUNDS);
for (let r = 0; r < ROUNDS; r++) {
  rawTimes.push(await raw.run(perRound));
  clientTimes.push(await client.run(perRound));
}
await raw.close();
await sidecar.close();
rmSync(stateDir, { recursive: true, force: true });

const sum = (xs, key) => xs.reduce((a, x) => a + x[key], 0) / xs.length;
const summary = (xs) => ({
  total: (sum(xs, 'wall') * perRound * ROUNDS) / 1e6,
  mean: sum(xs, 'wall'),
  median: median(xs.map((x) => x.wall)),
  best: Math.min(...xs.map((x) => x.wall)),
  cpu: sum(xs, 'cpu'),
});
const r = summary(rawTimes);
const c = summary(clientTimes);
const line = (name, s) =>
  `${name}: ${s.total.toFixed(2)} s total, ${s.mean.toFixed(1)} µs/call mean (${Math.round(1e6 / s.mean).toLocaleString('en-US')}/s),` +
  ` median round ${s.median.toFixed(1)}, best round ${s.best.toFixed(1)} µs; Node CPU ${s.cpu.toFixed(1)} µs/call`;
console.log(`binary: ${binary}`);
console.log(`${(perRound * ROUNDS).toLocaleString('en-US')} sequential validate calls per side, ${ROUNDS} alternating rounds (node ${process.version})`);
console.log(line('raw pipe', r));
console.log(line('client  ', c));
console.log(
  `ratio client/raw: ${(c.mean / r.mean).toFixed(2)}× mean, ${(c.median / r.median).toFixed(2)}× median round,` +
    ` ${(c.best / r.best).toFixed(2)}× best round; the client adds ${(c.median - r.median).toFixed(1)} µs wall` +
    ` and ${(c.cpu - r.cpu).toFixed(1)} µs of Node CPU per call`,
);
