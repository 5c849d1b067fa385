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

/**
 * The proof played as users run RocksDB beside the referee's lab mode, in one run
 * (public/measured/tune-proof-rocksdb-users-200k.json: `npm run tune-proof -- --target rocksdb --records 200000
 * --operations 200000 --only ba --scale 1/5 --mode both --repeats 3`). Held: the process model each mode and each
 * run recorded, at least 3 repeats per design, every spread and per-pair gain consistent with the runs it sums,
 * and the lab mode's repeats reading the same blocks (its trees depend on the writes alone). The user mode's
 * spread is what it is: printed, not bounded.
 */
test('as users run RocksDB and in the lab mode, side by side: the process model recorded, ≥ 3 repeats, spreads consistent with the runs', (t) => {
  const proof = read('tune-proof-rocksdb-users-200k.json');
  assert.equal(proof.version, 2);
  assert.equal(proof.records, 200_000);
  assert.equal(proof.operations, 200_000);
  assert.deepEqual(proof.modes, ['lab', 'user']);
  assert.deepEqual(proof.process.user, { compactions: 'background', between: 'restart', threads: 1 });
  assert.deepEqual(proof.process.lab, { compactions: 'synchronous', between: 'continue', threads: 1 });
  const workloads = [...new Set(proof.cases.map((c) => c.workload))];
  assert.deepEqual(workloads, ['YCSB workloadb', 'YCSB workloada']);
  for (const w of workloads) assert.deepEqual(proof.cases.filter((c) => c.workload === w).map((c) => c.mode), ['lab', 'user'], `${w}: both modes`);
  const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
  for (const c of proof.cases) {
    const name = `${c.workload} (${c.mode})`;
    assert.ok(c.repeats >= 3, `${name}: ${c.repeats} repeats`);
    assert.deepEqual(c.process, proof.process[c.mode], `${name}: the case's process model`);
    for (const design of ['current', 'recommended']) {
      const runs = c.runs[design];
      assert.equal(runs.length, c.repeats, `${name} ${design}: one figure set per repeat`);
      for (const r of runs) {
        // What the referee itself said it played.
        assert.equal(r.process.between, c.process.between, `${name} ${design}`);
        assert.equal(r.process.threads, c.process.threads);
        assert.equal(r.process.compactions.startsWith(c.process.compactions), true, `${name} ${design}: ${r.process.compactions}`);
        assert.ok(Number.isInteger(r.runStart.level0_files) && r.runStart.level0_files >= 0);
        assert.equal(r.ops, proof.operations);
      }
      const xs = runs.map((r) => r.blocksPerOp);
      const s = c.blocksPerOp[design];
      near(s.min, Math.min(...xs), `${name} ${design} min`);
      near(s.max, Math.max(...xs), `${name} ${design} max`);
      near(s.median, [...xs].sort((a, b) => a - b)[xs.length >> 1], `${name} ${design} median`);
      assert.ok(s.min <= s.median && s.median <= s.max && s.min > 0);
      if (c.mode === 'lab') {
        assert.ok(s.max <= 1.01 * s.min, `${name} ${design}: the lab mode's repeats read ${s.min}–${s.max} blocks per op`);
        // Every compaction waited for: level 0 below its trigger (4 in the true defaults, or as the recommendation set it).
        const changed = design === 'recommended' ? c.changes.find((x) => x.key === 'level0_file_num_compaction_trigger') : undefined;
        const trigger = Number(changed?.to ?? 4);
        for (const r of runs) assert.ok(r.runStart.level0_files < trigger, `${name} ${design}: ${r.runStart.level0_files} L0 files at the run's start in the lab mode (trigger ${trigger})`);
      }
    }
    const pairs = c.gains.blocksPerOp.pairs;
    assert.equal(pairs.values.length, c.repeats);
    pairs.values.forEach((g, i) => near(g, 1 - c.runs.recommended[i].blocksPerOp / c.runs.current[i].blocksPerOp, `${name} pair ${i + 1}`));
    near(pairs.min, Math.min(...pairs.values), `${name} pairs min`);
    near(pairs.max, Math.max(...pairs.values), `${name} pairs max`);
    assert.ok(pairs.min <= pairs.median && pairs.median <= pairs.max);
    const cur = c.blocksPerOp.current;
    t.diagnostic(
      `${name}: current ${cur.median.toFixed(4)} [${cur.min.toFixed(4)}–${cur.max.toFixed(4)}] blocks/op (×${(cur.max / cur.min).toFixed(2)}), L0 at run start ${c.runs.current.map((r) => r.runStart.level0_files).join(', ')}; ` +
        `gain per pair ${(100 * pairs.median).toFixed(1)}% [${(100 * pairs.min).toFixed(1)}…${(100 * pairs.max).toFixed(1)}], predicted ${(100 * c.predicted.gain).toFixed(1)}%`,
    );
  }
});

/**
 * The process model (lsm-tune's predict/process.rs) against RocksDB as users run it: the tune priced under
 * `restart` (Close's flush, level 0 at open, the open L0 compaction, then the compacted tree), with the range of its
 * three timing scenarios. Stored by `npm run tune-proof -- --target rocksdb --mode user --repeats 3` for YCSB-cpp B
 * exact at 100,000 records, scale 0.1 (`--ycsb-client cpp --only b`; before the model the current design was
 * predicted at 2.61 I/O per op against 0.93 blocks measured) and the engine's YCSB A at 200,000, scale 0.2. Held:
 * each stored measured median inside the stored predicted range, or, where not, the miss as measured (docs/tuning.md
 * says why: the run's I/O counts the open compaction's writes, which the model does not price yet).
 */
test('the process model: predicted ranges against RocksDB as users run it (restart, background compactions)', (t) => {
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const check = (name, file, expect) => {
    const proof = read(file);
    assert.deepEqual(proof.process.user, { compactions: 'background', between: 'restart', threads: 1 });
    const [c] = proof.cases;
    assert.ok(c.repeats >= 3, `${name}: ${c.repeats} repeats`);
    const pp = c.predicted.process;
    const io = (d) => median(c.runs[d].map((r) => r.ioPerOp));
    for (const d of ['current', 'recommended']) {
      const [lo, hi] = pp[d].range;
      // The range is over the scenarios and holds the point.
      assert.ok(lo <= c.predicted[d] && c.predicted[d] <= hi, `${name} ${d}: point ${c.predicted[d]} in [${lo}, ${hi}]`);
      assert.equal(pp[d].expected[1], c.predicted[d]);
      // One-client runs sample level 0 every 1,000 operations from the run's start.
      for (const r of c.runs[d]) assert.equal(r.runSamples[0][2], r.runStart.level0_files, `${name} ${d}: the first sample is the run's start`);
      t.diagnostic(`${name} ${d}: predicted ${c.predicted[d].toFixed(4)} [${lo.toFixed(4)}–${hi.toFixed(4)}] I/O per op, measured median ${io(d).toFixed(4)}; blocks/op ${c.blocksPerOp[d].median.toFixed(4)}`);
    }
    const pairs = c.gains.blocksPerOp.pairs;
    t.diagnostic(`${name}: gain predicted ${(100 * c.predicted.gain).toFixed(1)}% [${(100 * pp.gainRange[0]).toFixed(1)}…${(100 * pp.gainRange[1]).toFixed(1)}], measured I/O ${(100 * c.gains.ioPerOp.gain).toFixed(1)}%, blocks per pair ${(100 * pairs.median).toFixed(1)}% [${(100 * pairs.min).toFixed(1)}…${(100 * pairs.max).toFixed(1)}]`);
    expect({ c, pp, io, pairs });
  };
  check('YCSB-cpp B 100k', 'tune-proof-rocksdb-process-model-100k.json', ({ c, pp, io, pairs }) => {
    // The current design: 1.3047 measured against 1.3349 predicted (was 2.61 under the lab's pricing), 2.3% under the
    // range's low end: held within 5% of the point, and the miss below the range asserted as measured.
    assert.ok(Math.abs(io('current') / c.predicted.current - 1) <= 0.05, `current ${io('current')} vs ${c.predicted.current}`);
    assert.ok(io('current') < pp.current.range[0]);
    // The recommendation: blocks read as predicted (0.6659 vs 0.6556), but its run's I/O (0.95) holds the pages the
    // open compaction of its 17 level-0 files wrote, which the model leaves out: a miss above the range.
    assert.ok(Math.abs(c.blocksPerOp.recommended.median / c.predicted.recommended - 1) <= 0.03);
    assert.ok(io('recommended') > 1.4 * pp.recommended.range[1]);
    // So the gain is over-predicted: every pair below the predicted range (37.3% [30.4…43.2] against [50.9…70.8]).
    assert.ok(pairs.max < pp.gainRange[0], `pairs ${pairs.max} vs ${pp.gainRange[0]}`);
  });
  check('YCSB A 200k', 'tune-proof-rocksdb-process-model-200k.json', ({ c, pp, io }) => {
    // The current design: 0.9624 measured against 0.9269 [0.8699–0.9524]: 1% above the range, within 5% of the point.
    assert.ok(Math.abs(io('current') / c.predicted.current - 1) <= 0.05, `current ${io('current')} vs ${c.predicted.current}`);
    // The recommendation inside its range (its open compaction is long: level 0 at 16–17 files).
    assert.ok(pp.recommended.range[0] <= io('recommended') && io('recommended') <= pp.recommended.range[1], `recommended ${io('recommended')}`);
    // The measured I/O gain inside the predicted range.
    assert.ok(pp.gainRange[0] <= c.gains.ioPerOp.gain && c.gains.ioPerOp.gain <= pp.gainRange[1], `gain ${c.gains.ioPerOp.gain} vs ${pp.gainRange}`);
  });
});
