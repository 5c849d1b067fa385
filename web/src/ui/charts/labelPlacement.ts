/**
 * Where a chart's point labels go so that none overprints another label or a curve, and none
 * leaves the plot. Pure (unit-tested). Each label tries spots around its point — above, then
 * below, each to the right or the left, then further up and down in steps — and takes the first
 * spot with the least trouble: outside the plot is worst, then over another label, then over a
 * curve (sampled points of every line and marker). A label moved off its natural spot (just above
 * its point) gets a leader line back to it (AnnotationMark draws it).
 */

export interface LabelRequest {
  /** The point labelled, in plot pixels. */
  px: number;
  py: number;
  /** The label's rough width (labelWidth) and line height. */
  width: number;
  /** Lines of text (wrapLabel), each LINE_HEIGHT apart; default 1. */
  lines?: number;
}

export interface LabelPlacement {
  /** Text anchor point: x at the anchored end, y the baseline. */
  x: number;
  y: number;
  anchor: 'start' | 'end';
  /** Not at its natural spot: draw a leader to the point. */
  moved: boolean;
}

export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Gap between a point and its label. */
const GAP = 9;
/** Vertical step when a label has to move further away. */
const STEP = 14;
const LINE = 13;
/** Baseline to baseline of a wrapped label. */
export const LINE_HEIGHT = 14;

/** Rough width of a 12 px bold label: what placement needs, not typography. */
export function labelWidth(label: string): number {
  return label.length * 7.2;
}

/**
 * A label split into lines no wider than `maxWidth` (at spaces), so a long name fits a phone's
 * plot; one line when it fits. `width` measures a line (default: the placement's estimate).
 */
export function wrapLabel(label: string, maxWidth: number, width: (text: string) => number = labelWidth): string[] {
  if (width(label) <= maxWidth) return [label];
  const lines: string[] = [];
  let line = '';
  for (const word of label.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && width(next) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The box a label covers at a placement (y the first baseline; ascenders above, a little below the last). */
export function labelBox(p: Pick<LabelPlacement, 'x' | 'y' | 'anchor'>, width: number, lines = 1): Box {
  const left = p.anchor === 'start' ? p.x : p.x - width;
  return { left, right: left + width, top: p.y - LINE * 0.8, bottom: p.y + (lines - 1) * LINE_HEIGHT + LINE * 0.25 };
}

export function boxesOverlap(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** The spots a label tries, best first: its natural side first (right, or left past 62% of the width). */
function candidates(r: LabelRequest, plotWidth: number): Omit<LabelPlacement, 'moved'>[] {
  const natural: 'start' | 'end' = r.px > plotWidth * 0.62 ? 'end' : 'start';
  const other: 'start' | 'end' = natural === 'start' ? 'end' : 'start';
  const x = (a: 'start' | 'end') => (a === 'start' ? r.px + GAP : r.px - GAP);
  const out: Omit<LabelPlacement, 'moved'>[] = [];
  const above = r.py - GAP - ((r.lines ?? 1) - 1) * LINE_HEIGHT;
  const below = r.py + GAP + 10;
  const ys = [above, below];
  for (let k = 1; k <= 8; k++) ys.push(above - k * STEP, below + k * STEP);
  for (const y of ys) for (const a of [natural, other]) out.push({ x: x(a), y, anchor: a });
  return out;
}

/**
 * Place every label. `obstacles` are points the labels should not cover (curve samples, markers,
 * other labelled points); `bounds` the plot's size (labels stay inside it, a few pixels of slack
 * above and below for the margins).
 */
export function placeLabels(
  labels: readonly LabelRequest[],
  obstacles: readonly { x: number; y: number }[],
  bounds: { width: number; height: number },
): LabelPlacement[] {
  const placed: Box[] = [];
  const out: LabelPlacement[] = labels.map((r) => ({ x: r.px + GAP, y: r.py - GAP, anchor: 'start', moved: false }));
  // Labels whose point is higher go first (their natural spot, above, is the freest).
  const order = labels.map((_, i) => i).sort((a, b) => labels[a].py - labels[b].py || labels[a].px - labels[b].px);
  for (const i of order) {
    const r = labels[i];
    const spots = candidates(r, bounds.width);
    let best = spots[0];
    let bestCost = Infinity;
    spots.forEach((spot, rank) => {
      const box = labelBox(spot, r.width, r.lines);
      const outside = box.left < 0 || box.right > bounds.width || box.top < -8 || box.bottom > bounds.height + 8;
      const overLabels = placed.filter((b) => boxesOverlap(b, box)).length;
      // Own point excluded; a pixel of slack so a curve grazing the box edge does not count.
      let overCurve = 0;
      for (const o of obstacles) {
        if (Math.abs(o.x - r.px) < 0.5 && Math.abs(o.y - r.py) < 0.5) continue;
        if (o.x > box.left + 1 && o.x < box.right - 1 && o.y > box.top + 1 && o.y < box.bottom - 1) overCurve++;
      }
      const cost = (outside ? 1e6 : 0) + overLabels * 1e4 + Math.min(overCurve, 99) * 100 + rank;
      if (cost < bestCost) {
        bestCost = cost;
        best = spot;
      }
    });
    placed.push(labelBox(best, r.width, r.lines));
    out[i] = { ...best, moved: Math.abs(best.y - spots[0].y) > 2 || best.anchor !== spots[0].anchor };
  }
  return out;
}

/** Points along a polyline every `spacing` pixels (so a label can tell it would sit on the line). */
export function samplePolyline(points: readonly { x: number; y: number }[], spacing = 3): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  for (let i = 0; i < points.length; i++) {
    const a = points[i];
    if (!Number.isFinite(a.x) || !Number.isFinite(a.y)) continue;
    out.push(a);
    const b = points[i + 1];
    if (!b || !Number.isFinite(b.x) || !Number.isFinite(b.y)) continue;
    const n = Math.min(400, Math.floor(Math.hypot(b.x - a.x, b.y - a.y) / spacing));
    for (let k = 1; k < n; k++) out.push({ x: a.x + ((b.x - a.x) * k) / n, y: a.y + ((b.y - a.y) * k) / n });
  }
  return out;
}
