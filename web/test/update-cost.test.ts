/**
 * Monkey's update cost (Eq 10) against the native engine: unique inserts fill a tree of exactly
 * L levels (buffer × T^L entries, up to 2.4 million), leveling at T = 2, 4, 10 and tiering at T =
 * 4, 10 (at T = 2 tiering is leveling). Eq 10 with every write counted — the write that puts an
 * entry into a level included — is within 10% of the data pages the engine wrote per insert; Eq 10
 * as published leaves that write out, so it sits below by exactly L/B (leveling) or L/(B·T)
 * (tiering). The Trade-offs page measures the same in the browser on smaller trees.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateDesigns, updateRow, updateSpec, type UpdateRow } from '../src/compute/updateCost';
import type { WriteAmpResult } from '../src/documents/writeAmp';

const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'wasm-engine/target/release/lsm');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lsm-update-cost-'));
const rows: UpdateRow[] = [];

beforeAll(async () => {
  if (!fs.existsSync(cli)) throw new Error(`native CLI missing at ${cli}: run \`npm test\` (it builds it) or \`cargo build --release --bin lsm\``);
  const designs = updateDesigns([2, 4, 10], 2_500_000);
  const measured = await Promise.all(
    designs.map(async (d, i) => {
      const spec = updateSpec(d);
      const config = path.join(work, `config-${i}.json`);
      const workload = path.join(work, `workload-${i}.json`);
      fs.writeFileSync(config, JSON.stringify(spec.config));
      fs.writeFileSync(workload, JSON.stringify(spec.workload));
      const { stdout } = await promisify(execFile)(cli, ['writes', '--config', config, '--workload', workload, '--checkpoint', String(spec.checkpoint)], {
        maxBuffer: 64 << 20,
      });
      return updateRow(d, JSON.parse(stdout) as WriteAmpResult);
    }),
  );
  rows.push(...measured);
  console.log(
    rows
      .map((r) => `${r.policy} T=${r.sizeRatio} L=${r.levels} N=${r.entries}: measured ${r.measured.toFixed(4)}, every write ${r.everyWrite.toFixed(4)} (${((r.measured / r.everyWrite - 1) * 100).toFixed(1)}%), published ${r.published.toFixed(4)}`)
      .join('\n'),
  );
}, 300_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("Monkey's update cost vs pages written per insert, measured", () => {
  it('covers leveling at T = 2, 4, 10 and tiering at T = 4, 10, each L ≥ 3 levels deep', () => {
    expect(rows.map((r) => `${r.policy}-${r.sizeRatio}`)).toEqual(['leveling-2', 'leveling-4', 'leveling-10', 'tiering-4', 'tiering-10']);
    for (const r of rows) expect(r.levels).toBeGreaterThanOrEqual(3);
  });

  it('Eq 10 with every write counted is within 10% of the measurement', () => {
    for (const r of rows) expect(Math.abs(r.measured / r.everyWrite - 1), `${r.policy} T=${r.sizeRatio}`).toBeLessThan(0.1);
  });

  it("Eq 10 as published leaves out each level's arriving write: exactly L/B (leveling) or L/(B·T) (tiering) below", () => {
    for (const r of rows) {
      const arriving = (r.levels / r.entriesPerPage) * (r.policy === 'leveling' ? 1 : 1 / r.sizeRatio);
      expect(r.everyWrite - r.published).toBeCloseTo(arriving, 12);
      expect(r.measured).toBeGreaterThan(r.published);
    }
  });
});
