/**
 * Tick labels that never collide: every axis (AxisBottom, AxisLeft, the bar chart's categories)
 * keeps every k-th label, with the smallest k for which no two kept labels come closer than `GAP`
 * pixels, and draws the rest as unlabelled ticks. Widths are measured with the page's own font (a
 * canvas) in the browser, and estimated elsewhere (unit tests, node).
 */

/** Pixels kept clear between two neighbouring labels. */
export const GAP = 6;

let canvas: CanvasRenderingContext2D | null | undefined;
let family: string | undefined;

/** The width of `text` at `fontSize` px in the page's font, or an estimate without a DOM. */
export function measureLabel(text: string, fontSize: number): number {
  if (canvas === undefined) {
    canvas = typeof document !== 'undefined' ? (document.createElement('canvas').getContext('2d') ?? null) : null;
    family = typeof document !== 'undefined' && document.body ? getComputedStyle(document.body).fontFamily : undefined;
  }
  if (canvas && family) {
    canvas.font = `${fontSize}px ${family}`;
    return canvas.measureText(text).width;
  }
  // Without a DOM: about 0.62 em per character is wider than system-ui's digits and capitals.
  return text.length * fontSize * 0.62;
}

/** A label on an axis: its centre (px along the axis) and its extent along the axis. */
export interface AxisLabel {
  centre: number;
  size: number;
}

/** Whether labels `a` and `b` (in axis order or not) are closer than `gap`. */
function collide(a: AxisLabel, b: AxisLabel, gap: number): boolean {
  return Math.abs(a.centre - b.centre) < (a.size + b.size) / 2 + gap;
}

/**
 * Which of `labels` to show: every k-th from the first, k the smallest stride with no two shown
 * labels closer than `gap` (the labels are taken in axis order, by centre). Returns one flag per label.
 */
export function thinLabels(labels: readonly AxisLabel[], gap = GAP): boolean[] {
  const order = labels.map((l, i) => ({ l, i })).sort((a, b) => a.l.centre - b.l.centre);
  for (let k = 1; k <= Math.max(1, order.length); k++) {
    const kept = order.filter((_, j) => j % k === 0);
    let ok = true;
    for (let j = 1; j < kept.length && ok; j++) ok = !collide(kept[j - 1]!.l, kept[j]!.l, gap);
    if (ok) {
      const show = labels.map(() => false);
      for (const { i } of kept) show[i] = true;
      return show;
    }
  }
  return labels.map((_, i) => i === order[0]?.i);
}

/** Ticks with their labels thinned out along a horizontal axis (labels centred on their ticks). */
export function thinHorizontal<T extends { value: number; label: string }>(ticks: readonly T[], at: (v: number) => number, fontSize: number): T[] {
  return thinTicks(ticks, (t) => ({ centre: at(t.value), size: measureLabel(t.label, fontSize) }));
}

/** Ticks with their labels thinned out along a vertical axis (one line of text each). */
export function thinVertical<T extends { value: number; label: string }>(ticks: readonly T[], at: (v: number) => number, fontSize: number): T[] {
  return thinTicks(ticks, (t) => ({ centre: at(t.value), size: fontSize * 1.15 }));
}

function thinTicks<T extends { value: number; label: string }>(ticks: readonly T[], extent: (t: T) => AxisLabel): T[] {
  const labelled = ticks.map((t, i) => ({ t, i })).filter(({ t }) => t.label !== '');
  const show = thinLabels(labelled.map(({ t }) => extent(t)));
  const hidden = new Set(labelled.filter((_, j) => !show[j]).map(({ i }) => i));
  return ticks.map((t, i) => (hidden.has(i) ? { ...t, label: '' } : t));
}
