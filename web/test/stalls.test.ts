import { describe, expect, it } from 'vitest';
import type { Report, StallCounters } from '../src/documents/engine';
import { stallRows } from '../src/pages/lab/reportTables';

const stalls = (s: Partial<StallCounters>): StallCounters => ({ slowdowns: 0, stops: 0, flush_waits: 0, pages_merged: 0, stalled_ns: 0, ...s });

describe('write stalls in the lab', () => {
  it('reads the load and the run apart, field by field', () => {
    const report = {
      preload: { stalls: stalls({ slowdowns: 3, stops: 1, pages_merged: 80, stalled_ns: 2_500_000 }) },
      run: { stalls: stalls({ flush_waits: 2, pages_merged: 12 }) },
    } as unknown as Report;
    expect(stallRows(report)).toEqual([
      { phase: 'load', slowdowns: 3, stops: 1, flushWaits: 0, pagesMerged: 80, stalledNs: 2_500_000 },
      { phase: 'run', slowdowns: 0, stops: 0, flushWaits: 2, pagesMerged: 12, stalledNs: 0 },
    ]);
  });

  it('shows no rows for a report from before stalls were counted', () => {
    expect(stallRows({ preload: {}, run: {} } as unknown as Report)).toEqual([]);
  });
});
