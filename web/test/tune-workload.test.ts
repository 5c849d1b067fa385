/**
 * The Tune page's own workload: an imported or fitted Workload goes into the URL's fields and comes
 * back whole; a mix that does not add up is named; the rank–frequency reference lines sum right.
 */
import { describe, expect, it } from 'vitest';
import type { Workload } from '../src/documents/engine';
import { defaultsOf } from '../src/documents/url/params';
import { CUSTOM_WORKLOAD, customWorkload, customWorkloadProblems, customWorkloadState, tuneParams, tuneUrl, type TuneState } from '../src/documents/urls/tune';
import { decodeQuery, encodeQuery } from '../src/documents/url/codec';
import { expectedAccesses, zipfNormaliser } from '../src/compute/rankFrequency';

const fitted: Workload = {
  kind: 'lsm-navigator/workload',
  version: 1,
  name: 'my-store.trace',
  seed: 7,
  preload: { entries: 20_000, key_space: 80_000, key_bytes: 16, value_bytes: 100 },
  operations: 100_000,
  mix: { get_existing: 0.4873, get_missing: 0.0127, update: 0.5 },
  distribution: { kind: 'zipf', theta: 0.98734 },
};

describe('your workload on the Tune page', () => {
  it('round-trips a fitted workload through the page state and its link', () => {
    const state: TuneState = { ...defaultsOf(tuneParams), design: 'leveldb', ...customWorkloadState(fitted) };
    expect(state.workload).toBe(CUSTOM_WORKLOAD);
    expect(state.records).toBe(20_000);
    expect(customWorkload(state, 'my-store.trace')).toEqual(fitted);
    const back = decodeQuery(tuneUrl, encodeQuery(tuneUrl, state));
    expect(customWorkload(back.state, 'my-store.trace')).toEqual(fitted);
    expect(back.state.design).toBe('leveldb');
  });

  it('keeps the linked design when a workload is imported', () => {
    const state: TuneState = { ...defaultsOf(tuneParams), design: 'link', sizeRatios: [6], bits: 8 };
    const next = { ...state, ...customWorkloadState(fitted) };
    expect(next.sizeRatios).toEqual([6]);
    expect(next.bits).toBe(8);
  });

  it('names a mix that does not add up and a key space that is too small', () => {
    const state: TuneState = { ...defaultsOf(tuneParams), ...customWorkloadState(fitted), update: 0.9 };
    expect(customWorkloadProblems(state)).toEqual(['the operation mix must sum to 100%; it sums to 140%']);
    const small: TuneState = { ...defaultsOf(tuneParams), ...customWorkloadState(fitted), keySpace: 10_000 };
    expect(customWorkloadProblems(small)[0]).toMatch(/^key space must be 0 \(automatic\) or larger than the preload \(20,000\)/);
    expect(customWorkloadProblems({ ...defaultsOf(tuneParams), ...customWorkloadState(fitted) })).toEqual([]);
  });
});

describe('rank–frequency reference lines', () => {
  it('Zipf accesses over every rank add up to the accesses, and follow r^−θ', () => {
    const keys = 1000;
    const ranks = Array.from({ length: keys }, (_, i) => i + 1);
    const ys = expectedAccesses(ranks, 50_000, keys, 0.99);
    expect(ys.reduce((a, b) => a + b, 0)).toBeCloseTo(50_000, 6);
    expect(ys[0] / ys[9]).toBeCloseTo(10 ** 0.99, 9);
    // θ = 1 over 3 keys: H = 1 + 1/2 + 1/3 = 11/6.
    expect(zipfNormaliser(3, 1)).toBeCloseTo(11 / 6, 12);
  });

  it('uniform gives every key the same share', () => {
    expect(expectedAccesses([1, 10, 100], 1000, 100, null)).toEqual([10, 10, 10]);
  });
});
