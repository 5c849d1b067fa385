/** The benchmark's stored result: the shipped file is one, and broken documents are never drawn. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkStoredBench } from '../src/pages/bench/storedBench';
import { summarizeBench } from '../src/pages/bench/storageBench';

const shipped = JSON.parse(fs.readFileSync(path.join(__dirname, '../../public/measured/browser-bench.json'), 'utf8')) as unknown;

describe('stored benchmark', () => {
  it('the shipped result is a valid document with all four stores, each with positive rates', () => {
    const doc = checkStoredBench(shipped);
    expect(doc).not.toBeNull();
    if (!doc) return;
    const stores = summarizeBench(doc.rows);
    expect(stores.map((s) => s.id).sort()).toEqual(['engine-idb', 'engine-memory', 'engine-opfs', 'plain-idb']);
    for (const s of stores) {
      expect(s.inserts.median).toBeGreaterThan(0);
      expect(s.lookups.median).toBeGreaterThan(0);
    }
    expect(doc.rows.every((r) => r.inserts === doc.entries)).toBe(true);
  });

  it('refuses other documents and rows with a missing or non-finite rate', () => {
    const doc = checkStoredBench(shipped);
    if (!doc) throw new Error('shipped file invalid');
    expect(checkStoredBench(null)).toBeNull();
    expect(checkStoredBench({ ...doc, kind: 'something-else' })).toBeNull();
    expect(checkStoredBench({ ...doc, rows: [] })).toBeNull();
    expect(checkStoredBench({ ...doc, rows: [{ ...doc.rows[0], lookupsPerSecond: Number.NaN }] })).toBeNull();
    expect(checkStoredBench({ ...doc, rows: [{ ...doc.rows[0], insertsPerSecond: undefined }] })).toBeNull();
  });
});
