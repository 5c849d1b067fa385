/**
 * The stored 1M proofs (public/measured/tune-proof-rocksdb-*1m.json, written by `npm run tune-proof --
 * --target rocksdb --records 1000000 --operations 500000`) held to the bar the Tune must meet on real
 * RocksDB. They are measurements, not run here (each takes an hour of RocksDB); this suite checks what
 * they say, so a proof stored again that misses the bar fails `npm test` instead of going unnoticed.
 *
 * From RocksDB 7.8's true defaults: every workload predicted to gain at least 10% must measure a gain
 * in I/O per operation within 15% (relative) of the prediction, and its ops/s must move the same way
 * beyond the runs' noise (the range over the repeats' extremes leaves out 0). From the well-tuned
 * start: no recommendation measures worse than the current design beyond the noise.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const measured = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../public/measured');
const read = (name) => JSON.parse(fs.readFileSync(path.join(measured, name), 'utf8'));

/** The bar: a gain predicted at least this large is held to the relative tolerance. */
const SIGNIFICANT = 0.1;
const RELATIVE = 0.15;

test('from the true defaults: YCSB A–F at 1M records, every predicted gain ≥ 10% measured within 15%, ops/s the same way beyond the noise', (t) => {
  const proof = read('tune-proof-rocksdb-1m.json');
  assert.equal(proof.records, 1_000_000);
  assert.deepEqual(
    proof.cases.map((c) => c.workload),
    ['a', 'b', 'c', 'd', 'e', 'f'].map((l) => `YCSB workload${l}`),
  );
  for (const c of proof.cases) {
    const predicted = c.predicted.gain;
    const io = c.gains.ioPerOp;
    const ops = c.gains.opsPerSecond;
    t.diagnostic(`${c.workload}: predicted ${(100 * predicted).toFixed(1)}%, measured ${(100 * io.gain).toFixed(1)}%, ops/s ${(100 * ops.gain).toFixed(0)}% [${(100 * ops.lo).toFixed(0)}…${(100 * ops.hi).toFixed(0)}]`);
    assert.ok(c.repeats >= 2, `${c.workload}: ${c.repeats} runs per design`);
    if (predicted < SIGNIFICANT) continue;
    assert.ok(Math.abs(io.gain - predicted) <= RELATIVE * predicted, `${c.workload}: measured ${io.gain} against predicted ${predicted}`);
    assert.ok(io.change, `${c.workload}: the I/O gain is beyond the noise`);
    assert.ok(ops.gain > 0 && ops.change, `${c.workload}: ops/s ${ops.gain} [${ops.lo}, ${ops.hi}] should rise beyond the noise`);
  }
});

test('from a well-tuned start: no recommendation measures worse than the current design beyond the noise', (t) => {
  const proof = read('tune-proof-rocksdb-welltuned-1m.json');
  assert.equal(proof.records, 1_000_000);
  for (const c of proof.cases) {
    const io = c.gains.ioPerOp;
    const ops = c.gains.opsPerSecond;
    t.diagnostic(`${c.workload}: ${c.verdict?.keep ? 'keep' : 'change'}, predicted ${(100 * c.predicted.gain).toFixed(1)}%, measured ${(100 * io.gain).toFixed(1)}%, ops/s ${(100 * ops.gain).toFixed(0)}%${ops.change ? '' : ' (noise)'}`);
    assert.ok(!(io.change && io.gain < 0), `${c.workload}: I/O per op worse by ${-io.gain}`);
    assert.ok(!(ops.change && ops.gain < 0), `${c.workload}: ops/s worse by ${-ops.gain}`);
    if (c.verdict?.keep) assert.equal(c.predicted.gain, 0, `${c.workload}: "keep" recommends nothing`);
  }
});
