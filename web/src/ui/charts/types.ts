/** The data every chart takes: plain objects, so the same props also produce the chart's CSV. */

export type ScaleKind = 'linear' | 'log';

export interface AxisSpec {
  /** Quantity name, lower case: "bits per key". */
  label: string;
  /** Unit shown in the axis title and CSV header: "bits/key", "I/O per lookup". */
  unit?: string;
  scale?: ScaleKind;
  /** Fixed domain; points outside it are clipped. Default: fitted to the data. */
  domain?: readonly [number, number];
  /** Include 0 in a fitted linear domain (bars and counts usually should). */
  zero?: boolean;
  /** Exact tick positions (e.g. 2, 5, 10, 20, 50, 100 on a log axis of size ratios). */
  ticks?: readonly number[];
  /** How values on this axis are written in ticks and tooltips. Default: 4 significant digits. */
  format?: (v: number) => string;
}

export interface Point {
  x: number;
  y: number;
}

export interface LineSeries {
  id: string;
  label: string;
  points: readonly Point[];
  color?: string;
  /** SVG stroke-dasharray, e.g. "5 4" for a predicted or secondary curve. */
  dash?: string;
  /** Draw points as markers only, no line (measured values over a predicted curve). */
  markers?: boolean;
}

/** A labelled point on a chart: "RocksDB", "your design". */
export interface Annotation {
  x: number;
  y: number;
  label: string;
  color?: string;
}

/** A vertical reference line at x, e.g. the current setting of a control. */
export interface Rule {
  x: number;
  label?: string;
}

export interface ChartCommon {
  /** Accessible name of the chart; also the SVG <title> in exports. */
  title: string;
  height?: number;
  'data-testid'?: string;
}

export interface LineChartProps extends ChartCommon {
  x: AxisSpec;
  y: AxisSpec;
  series: readonly LineSeries[];
  annotations?: readonly Annotation[];
  rules?: readonly Rule[];
}

export interface BarGroup {
  id: string;
  label: string;
  /** One value per category, in category order. */
  values: readonly number[];
  color?: string;
}

export interface BarChartProps extends ChartCommon {
  /** The category axis: label only (categories are not numbers). */
  x: { label: string; unit?: string };
  y: AxisSpec;
  categories: readonly string[];
  groups: readonly BarGroup[];
  /** Print each bar's value above it. */
  valueLabels?: boolean;
}

export interface ScatterPoint extends Point {
  label?: string;
}

export interface ScatterSeries {
  id: string;
  label: string;
  points: readonly ScatterPoint[];
  color?: string;
  /** Marker radius in px (default 3). */
  radius?: number;
  /** Also join the points with a line, in the order given (a curve traced by a parameter). */
  line?: boolean;
  /** SVG stroke-dasharray of that line. */
  dash?: string;
}

export interface ScatterChartProps extends ChartCommon {
  x: AxisSpec;
  y: AxisSpec;
  series: readonly ScatterSeries[];
  /** The chosen design, drawn as a ringed point with its label. */
  highlight?: Annotation;
  annotations?: readonly Annotation[];
}
