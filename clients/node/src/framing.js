// Message framing on the sidecar's pipes: one JSON message per line (ndjson, the default) or
// LSP-style `Content-Length: N\r\n\r\n` + N bytes of body (`--framing lsp`).

import { StringDecoder } from 'node:string_decoder';

/** @param {string} body a serialized JSON message, no line breaks in it */
export function encodeNdjson(body) {
  return body + '\n';
}

/** @param {string} body */
export function encodeLsp(body) {
  return `Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`;
}

/**
 * Splits a byte stream into lines (UTF-8, `\n` or `\r\n`), skipping blank ones.
 * `push(chunk)` calls `onMessage(text)` for every complete line.
 */
export class NdjsonDecoder {
  /** @param {(text: string) => void} onMessage */
  constructor(onMessage) {
    this.onMessage = onMessage;
    this.decoder = new StringDecoder('utf8');
    /** @type {string[]} pieces of the unfinished line */
    this.partial = [];
  }

  /** @param {Buffer} chunk */
  push(chunk) {
    const text = this.decoder.write(chunk);
    let start = 0;
    let nl = text.indexOf('\n');
    if (nl === -1) {
      if (text) this.partial.push(text);
      return;
    }
    while (nl !== -1) {
      let line = text.slice(start, nl);
      if (this.partial.length) {
        this.partial.push(line);
        line = this.partial.join('');
        this.partial = [];
      }
      this.emitLine(line);
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    if (start < text.length) this.partial.push(text.slice(start));
  }

  /** The stream ended: a last line without a newline still counts. */
  end() {
    const rest = this.partial.join('') + this.decoder.end();
    this.partial = [];
    if (rest) this.emitLine(rest);
  }

  /** @param {string} line */
  emitLine(line) {
    if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
    if (line.trim() === '') return;
    this.onMessage(line);
  }
}

const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Decodes LSP framing: header lines (`Content-Length` required, others ignored), a blank line,
 * then exactly Content-Length bytes of UTF-8 body.
 */
export class LspDecoder {
  /**
   * @param {(text: string) => void} onMessage
   * @param {(error: Error) => void} onError malformed framing: the buffered bytes are dropped
   */
  constructor(onMessage, onError) {
    this.onMessage = onMessage;
    this.onError = onError;
    /** @type {Buffer} */
    this.buffer = Buffer.alloc(0);
    /** body length of the message being read, or -1 while reading headers */
    this.bodyLength = -1;
  }

  /** @param {Buffer} chunk */
  push(chunk) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (;;) {
      if (this.bodyLength < 0) {
        const end = this.buffer.indexOf(HEADER_END);
        if (end === -1) {
          if (this.buffer.length > 64 * 1024) this.fail('LSP header block longer than 64 KiB');
          return;
        }
        const headers = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
        let length = -1;
        for (const header of headers) {
          const colon = header.indexOf(':');
          if (colon > 0 && header.slice(0, colon).trim().toLowerCase() === 'content-length') {
            const value = header.slice(colon + 1).trim();
            if (/^\d+$/.test(value)) length = Number(value);
          }
        }
        if (length < 0) {
          this.fail(`LSP header without a valid Content-Length: ${JSON.stringify(headers.join('\\r\\n'))}`);
          return;
        }
        this.bodyLength = length;
        this.buffer = this.buffer.subarray(end + HEADER_END.length);
      }
      if (this.buffer.length < this.bodyLength) return;
      const body = this.buffer.subarray(0, this.bodyLength).toString('utf8');
      this.buffer = this.buffer.subarray(this.bodyLength);
      this.bodyLength = -1;
      this.onMessage(body);
    }
  }

  end() {
    if (this.buffer.length || this.bodyLength >= 0) this.fail('stream ended inside an LSP message');
  }

  /** @param {string} message */
  fail(message) {
    this.buffer = Buffer.alloc(0);
    this.bodyLength = -1;
    this.onError(new Error(message));
  }
}
