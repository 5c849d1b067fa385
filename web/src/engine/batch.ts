/**
 * Encoder for the engine's operation batches (format documented in wasm-engine/crates/lsm-engine/src/batch.rs):
 * thousands of operations cross the worker↔wasm boundary in one buffer.
 */
const OP_PUT = 1;
const OP_DELETE = 2;
const OP_GET = 3;
const OP_SCAN = 4;

const encoder = new TextEncoder();

export class BatchWriter {
  private buf: Uint8Array;
  private view: DataView;
  private len = 0;
  count = 0;

  constructor(initialBytes = 1 << 16) {
    this.buf = new Uint8Array(initialBytes);
    this.view = new DataView(this.buf.buffer);
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  private key(op: number, key: Uint8Array): void {
    this.reserve(3 + key.length);
    this.buf[this.len] = op;
    this.view.setUint16(this.len + 1, key.length, true);
    this.buf.set(key, this.len + 3);
    this.len += 3 + key.length;
    this.count += 1;
  }

  put(key: Uint8Array | string, value: Uint8Array | string): this {
    const k = typeof key === 'string' ? encoder.encode(key) : key;
    const v = typeof value === 'string' ? encoder.encode(value) : value;
    this.key(OP_PUT, k);
    this.reserve(4 + v.length);
    this.view.setUint32(this.len, v.length, true);
    this.buf.set(v, this.len + 4);
    this.len += 4 + v.length;
    return this;
  }

  delete(key: Uint8Array | string): this {
    this.key(OP_DELETE, typeof key === 'string' ? encoder.encode(key) : key);
    return this;
  }

  get(key: Uint8Array | string): this {
    this.key(OP_GET, typeof key === 'string' ? encoder.encode(key) : key);
    return this;
  }

  scan(start: Uint8Array | string, end: Uint8Array | string): this {
    const e = typeof end === 'string' ? encoder.encode(end) : end;
    this.key(OP_SCAN, typeof start === 'string' ? encoder.encode(start) : start);
    this.reserve(2 + e.length);
    this.view.setUint16(this.len, e.length, true);
    this.buf.set(e, this.len + 2);
    this.len += 2 + e.length;
    return this;
  }

  /** The encoded bytes (a copy sized exactly, safe to transfer to a worker). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}
