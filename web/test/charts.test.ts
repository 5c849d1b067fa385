import { describe, expect, it } from 'vitest';
import { cleanPoints, dropNote, extentOf } from '../src/ui/charts/clean';
import { nearestIndex, stepIndex } from '../src/ui/charts/layout';
import { boxesOverlap, labelBox, labelWidth, placeLabels, samplePolyline, wrapLabel, type LabelRequest } from '../src/ui/charts/labelPlacement';
import { axisTicks, formatTick, makeScale } from '../src/ui/charts/scales';
import { sliderScale } from '../src/ui/controls/slider';
import { formatCount, formatPercent, formatSig, powerOfTen } from '../src/documents/format';
import { numberParam } from '../src/documents/url/params';

describe('chart data cleaning', () => {
  it('turns NaN, Infinity and non-positive log values into gaps, with a note', () => {
    const pts = [
      { x: 3, y: 0 },
      { x: 1, y: 1 },
      { x: 2, y: NaN },
      { x: 4, y: Infinity },
    ];
    const c = cleanPoints(pts, 'linear', 'log');
    expect(c.points.map((p) => p?.x ?? null)).toEqual([1, null, null, null]);
    expect(c.dropped).toBe(3);
    expect(dropNote('Monkey', c.dropped, c.reasons)).toBe(
      '3 points of “Monkey” not drawn (not a finite number; ≤ 0 on a log axis).',
    );
    expect(dropNote('x', 0, new Set())).toBeNull();
  });

  it('fits domains that always have height, and include zero on request', () => {
    expect(extentOf([5, 5], 'linear')).toEqual([4.5, 5.5]);
    expect(extentOf([2, 3], 'linear', true)).toEqual([0, 3]);
    expect(extentOf([NaN], 'log')).toEqual([1, 10]);
    const [lo, hi] = extentOf([0.01, 0.01], 'log');
    expect(lo).toBeLessThan(0.01);
    expect(hi).toBeGreaterThan(0.01);
  });
});

describe('ticks', () => {
  it('label powers of ten on log axes', () => {
    const axis = { label: 'FPR', scale: 'log' as const };
    const scale = makeScale(axis, [1e-6, 1], [300, 0]);
    const labelled = axisTicks(axis, scale, 300, 44).filter((t) => t.label);
    expect(labelled.map((t) => t.label)).toEqual(['10⁻⁶', '10⁻⁵', '10⁻⁴', '10⁻³', '10⁻²', '10⁻¹', '10⁰']);
  });

  it('use explicit positions when given', () => {
    const axis = { label: 'T', scale: 'log' as const, domain: [2, 100] as const, ticks: [2, 5, 10, 50, 100, 200] };
    const scale = makeScale(axis, [], [0, 400]);
    expect(axisTicks(axis, scale, 400, 90).map((t) => t.label)).toEqual(['2', '5', '10', '50', '100']);
  });

  it('write linear ticks without exponents', () => {
    expect(formatTick(25_000_000)).toBe('25M');
    expect(formatTick(1500)).toBe('1500');
    expect(formatTick(0.25)).toBe('0.25');
    expect(formatTick(0.1 + 0.2)).toBe('0.3');
  });
});

describe('pointer and keyboard helpers', () => {
  it('find the nearest pixel position', () => {
    expect(nearestIndex([0, 10, 20, 30], 14)).toBe(1);
    expect(nearestIndex([0, 10, 20, 30], 16)).toBe(2);
    expect(nearestIndex([0, 10], -5)).toBe(0);
    expect(nearestIndex([], 5)).toBe(-1);
  });

  it('move a crosshair with the arrow keys', () => {
    expect(stepIndex('ArrowRight', null, 11)).toBe(5);
    expect(stepIndex('ArrowRight', 5, 11)).toBe(6);
    expect(stepIndex('ArrowLeft', 0, 11)).toBe(0);
    expect(stepIndex('End', 2, 11)).toBe(10);
    expect(stepIndex('Home', 7, 11)).toBe(0);
    expect(stepIndex('Escape', 3, 11)).toBeNull();
    expect(stepIndex('a', 3, 11)).toBe('ignore');
  });
});

describe('label placement', () => {
  const boxes = (reqs: LabelRequest[], obstacles: { x: number; y: number }[], bounds = { width: 600, height: 300 }) =>
    placeLabels(reqs, obstacles, bounds).map((p, i) => ({ p, box: labelBox(p, reqs[i].width, reqs[i].lines) }));
  const inside = (b: { left: number; right: number; top: number; bottom: number }, o: { x: number; y: number }) =>
    o.x > b.left + 1 && o.x < b.right - 1 && o.y > b.top + 1 && o.y < b.bottom - 1;

  it('leaves a label with room just above its point, to the right, without a leader', () => {
    const [p] = placeLabels([{ px: 100, py: 150, width: 60 }], [], { width: 600, height: 300 });
    expect(p).toEqual({ x: 109, y: 141, anchor: 'start', moved: false });
    // Past 62% of the width the natural side is the left.
    expect(placeLabels([{ px: 500, py: 150, width: 60 }], [], { width: 600, height: 300 })[0]).toEqual({ x: 491, y: 141, anchor: 'end', moved: false });
  });

  it('keeps labels of nearby points apart, and both inside the plot', () => {
    const reqs = [
      { px: 100, py: 50, width: 60 },
      { px: 120, py: 52, width: 60 },
      { px: 110, py: 54, width: 60 },
    ];
    const placed = boxes(reqs, reqs.map((r) => ({ x: r.px, y: r.py })));
    for (let i = 0; i < placed.length; i++) {
      for (let j = i + 1; j < placed.length; j++) expect(boxesOverlap(placed[i].box, placed[j].box)).toBe(false);
      expect(placed[i].box.left).toBeGreaterThanOrEqual(0);
      expect(placed[i].box.right).toBeLessThanOrEqual(600);
    }
    expect(placed.filter((x) => x.p.moved).length).toBeGreaterThanOrEqual(1);
  });

  it('moves a label off a curve that runs through its natural spot (the “Monkey 0.192” case)', () => {
    // A flat curve 10 px above the point: right through where the label would sit.
    const curve = samplePolyline([
      { x: 0, y: 141 },
      { x: 600, y: 141 },
    ]);
    const req = { px: 200, py: 150, width: labelWidth('Monkey 0.192') };
    const [{ p, box }] = boxes([req], curve);
    expect(curve.some((o) => inside(box, o))).toBe(false);
    expect(p.moved).toBe(true);
  });

  it('wraps a label too long for a phone’s plot and keeps it inside (the phone Trade-offs case)', () => {
    const label = 'State of the art (leveling T = 10, uniform, 95/5)';
    const lines = wrapLabel(label, 264 * 0.6);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.join(' ')).toBe(label);
    for (const l of lines) expect(labelWidth(l)).toBeLessThanOrEqual(264 * 0.6);
    expect(wrapLabel('Monkey', 200)).toEqual(['Monkey']);
    const req = { px: 80, py: 120, width: Math.max(...lines.map(labelWidth)), lines: lines.length };
    const [{ box }] = boxes([req], [], { width: 264, height: 200 });
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(264);
    expect(box.bottom - box.top).toBeGreaterThan(14 * (lines.length - 1));
  });

  it('random points and curves: no two labels overlap and none leaves the plot when there is room', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let trial = 0; trial < 50; trial++) {
      const reqs = Array.from({ length: 4 }, () => ({ px: 40 + rand() * 520, py: 40 + rand() * 220, width: 40 + rand() * 60 }));
      const curve = samplePolyline(Array.from({ length: 12 }, (_, i) => ({ x: i * 55, y: 40 + rand() * 220 })));
      const placed = boxes(reqs, curve);
      for (let i = 0; i < placed.length; i++) {
        for (let j = i + 1; j < placed.length; j++) expect(boxesOverlap(placed[i].box, placed[j].box)).toBe(false);
        expect(placed[i].box.left).toBeGreaterThanOrEqual(0);
        expect(placed[i].box.right).toBeLessThanOrEqual(600);
      }
    }
  });

  it('samples a polyline every few pixels, skipping gaps', () => {
    const pts = samplePolyline([{ x: 0, y: 0 }, { x: 30, y: 0 }, { x: NaN, y: NaN }, { x: 50, y: 5 }], 3);
    expect(pts.length).toBe(12);
    expect(pts.every((p) => Number.isFinite(p.x))).toBe(true);
  });
});

describe('sliders', () => {
  it('move in log space and snap to 3 significant digits', () => {
    const p = numberParam({ key: 'N', label: 'entries', default: 1e8, min: 1e5, max: 1e11, integer: true, log: true });
    const s = sliderScale(p);
    expect(s.fromPosition(0)).toBe(1e5);
    expect(s.fromPosition(1000)).toBe(1e11);
    expect(s.fromPosition(500)).toBe(1e8);
    expect(s.toPosition(1e8)).toBe(500);
    const v = s.fromPosition(123);
    expect(Number(v.toPrecision(3))).toBe(v);
  });

  it('snap linear values to the step without float noise', () => {
    const p = numberParam({ key: 'b', label: 'bits', default: 10, min: 0, max: 24, step: 0.1 });
    const s = sliderScale(p);
    expect(s.fromPosition(0.30000000000000004)).toBe(0.3);
    expect(s.fromPosition(99)).toBe(24);
  });
});

describe('number formatting', () => {
  it('uses plain notation in the readable range (integer digits kept) and typeset powers of ten outside it', () => {
    expect(formatSig(0.008192549)).toBe('0.008193');
    // Digits before the point are never rounded away: 12,346 rather than 12,350.
    expect(formatSig(12345.6)).toBe('12,346');
    expect(formatSig(1.04578e-4)).toBe('1.046 × 10⁻⁴');
    expect(formatSig(2.5e9, 3)).toBe('2.5 × 10⁹');
    expect(formatSig(NaN)).toBe('—');
    expect(formatPercent(0.0081925)).toBe('0.819%');
    expect(formatCount(52_428_800)).toBe('52.4 M');
    expect(formatCount(1200)).toBe('1,200');
    expect(powerOfTen(-12)).toBe('10⁻¹²');
  });
});
