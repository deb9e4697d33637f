// The ndjson and LSP decoders on awkward chunkings. No binary needed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LspDecoder, NdjsonDecoder, encodeLsp, encodeNdjson } from '../src/framing.js';

/** Feeds `bytes` to a fresh decoder in every 1..n split and one byte at a time. */
function decodeAll(make, bytes) {
  const outputs = [];
  for (const size of [1, 2, 3, 7, bytes.length]) {
    const got = [];
    const decoder = make(got);
    for (let i = 0; i < bytes.length; i += size) decoder.push(bytes.subarray(i, i + size));
    decoder.end();
    outputs.push(got);
  }
  return outputs;
}

test('ndjson: lines across chunks, CRLF, blank lines, UTF-8 split inside a character', () => {
  const messages = ['{"a":"名字"}', '{"b":"😀"}', '{"c":1}'];
  const bytes = Buffer.from(`${messages[0]}\r\n\n  \n${messages[1]}\n${messages[2]}`); // the last without \n
  for (const got of decodeAll((out) => new NdjsonDecoder((m) => out.push(m)), bytes)) {
    assert.deepEqual(got, messages);
  }
  assert.equal(encodeNdjson('{}'), '{}\n');
});

test('lsp: byte lengths, several messages per chunk, header case and extra headers', () => {
  const bodies = ['{"a":"名字"}', '{"b":"😀😀"}', '{}'];
  const bytes = Buffer.concat([
    Buffer.from(encodeLsp(bodies[0])),
    Buffer.from(`content-length: ${Buffer.byteLength(bodies[1])}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${bodies[1]}`),
    Buffer.from(encodeLsp(bodies[2])),
  ]);
  assert.equal(encodeLsp(bodies[0]), `Content-Length: ${Buffer.byteLength(bodies[0])}\r\n\r\n${bodies[0]}`);
  for (const got of decodeAll((out) => new LspDecoder((m) => out.push(m), (e) => out.push(`error: ${e.message}`)), bytes)) {
    assert.deepEqual(got, bodies);
  }
});

test('lsp: a header without Content-Length, and a stream cut inside a body, are reported', () => {
  const errors = [];
  const got = [];
  const decoder = new LspDecoder((m) => got.push(m), (e) => errors.push(e.message));
  decoder.push(Buffer.from('X-Nothing: 1\r\n\r\n{}'));
  assert.equal(errors.length, 1);
  assert.match(errors[0], /Content-Length/);
  decoder.push(Buffer.from(encodeLsp('{"ok":true}')));
  assert.deepEqual(got, ['{"ok":true}'], 'recovers at the next message');
  decoder.push(Buffer.from('Content-Length: 10\r\n\r\n{"a"'));
  decoder.end();
  assert.equal(errors.length, 2);
});
