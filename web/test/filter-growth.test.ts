/**
 * Monkey's Figure 12A on the native engine to 2²⁰ entries in `npm test` (the Rust suite checks the
 * same to 2¹⁷ in a debug build; `npm run bench -- --only growth` runs this file to 2²² with
 * LSM_GROWTH_TO=22, four times the work: each doubling costs as much as all before it):
 * leveling at T = 2 and T = 10, 5 and 10 bits per entry, 100,000 zero-result lookups at every
 * doubling from 2¹². Re-optimised Monkey measures within 5% of the optimum for the tree it built,
 * and never above uniform filters or at-birth sizing (beyond three standard errors of the lookup
 * count). A growth to 2²² measures the same trees at 2¹²…2²⁰ as one to 2²⁰ (one seed, one tree
 * grown), so the bench's run is this test's, extended.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GrowthPoint as Point } from '../src/documents/engine';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'wasm-engine/target/release/lsm');
const LOOKUPS = 100_000;
/** The largest size, as a power of two: 20 here, LSM_GROWTH_TO for the bench's 22. */
const TO = Number(process.env.LSM_GROWTH_TO ?? 20);
if (!Number.isInteger(TO) || TO < 13 || TO > 26) throw new Error(`LSM_GROWTH_TO must be a whole number from 13 to 26, got ${process.env.LSM_GROWTH_TO}`);

beforeAll(() => {
  if (!fs.existsSync(cli)) {
    throw new Error(`native CLI missing at ${cli}: run \`npm test\` (it builds it) or \`cargo build --release --bin lsm\``);
  }
});


async function growth(sizeRatio: number, bits: number): Promise<Point[]> {
  const args = ['growth', '--size-ratio', `${sizeRatio}`, '--bits', `${bits}`, '--from', '12', '--to', `${TO}`, '--lookups', `${LOOKUPS}`, '--json'];
  const { stdout } = await promisify(execFile)(cli, args, { maxBuffer: 64 << 20 });
  return (JSON.parse(stdout) as { points: Point[] }).points;
}

const designs: [number, number][] = [
  [2, 5],
  [2, 10],
  [10, 5],
  [10, 10],
];

describe(`Monkey re-optimised as the tree grows to 2^${TO} entries (native engine)`, () => {
  // Both cores at once: the four designs run side by side.
  const runs = new Map<string, Promise<Point[]>>();
  const measured = (t: number, b: number) => {
    const key = `${t}/${b}`;
    if (!runs.has(key)) {
      const run = growth(t, b);
      run.catch(() => {}); // reported by the test that awaits it
      runs.set(key, run);
    }
    return runs.get(key)!;
  };

  for (const [t, bits] of designs) {
    it(`T = ${t}, ${bits} bits/entry`, async () => {
      for (const [t2, b2] of designs) void measured(t2, b2);
      const points = await measured(t, bits);
      const noise = (io: number) => 3 * Math.sqrt(io / LOOKUPS);
      const rows: string[] = [];
      for (let e = 12; e <= TO; e++) {
        const at = (p: Point['policy']) => points.find((x) => x.policy === p && x.entries === 2 ** e)!;
        const [u, b, r] = [at('uniform'), at('monkey_at_birth'), at('monkey_reoptimised')];
        rows.push(
          `2^${e}: uniform ${u.io_per_lookup.toFixed(4)}, at birth ${b.io_per_lookup.toFixed(4)}, re-optimised ${r.io_per_lookup.toFixed(4)}, optimum ${r.optimum_io.toFixed(4)}, rebuild pages ${r.rebuild_pages}`,
        );
        expect(r.io_per_lookup, `2^${e}`).toBeLessThanOrEqual(r.optimum_io * 1.05 + noise(r.optimum_io));
        expect(r.io_per_lookup, `2^${e} vs uniform`).toBeLessThanOrEqual(u.io_per_lookup + noise(u.io_per_lookup));
        expect(r.io_per_lookup, `2^${e} vs at birth`).toBeLessThanOrEqual(b.io_per_lookup + noise(b.io_per_lookup));
        expect(r.bits_per_key, `2^${e} budget`).toBeLessThanOrEqual(bits * 1.01 + 0.05);
      }
      console.log(`T = ${t}, ${bits} bits/entry\n  ${rows.join('\n  ')}`);
      expect(points.find((p) => p.policy === 'monkey_reoptimised' && p.entries === 2 ** TO)!.rebuild_pages).toBeGreaterThan(0);
    }, 900_000);
  }
});
