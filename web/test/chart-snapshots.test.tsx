/**
 * SVG snapshots of the chart kit (LineChart, BarChart, ScatterChart) with fixed inputs. Each
 * snapshot is a file under __snapshots__/charts/ that opens as an image; a change to what a chart
 * draws fails here until the snapshot is updated (`npx vitest run -u`) and its diff reviewed.
 * The pages' charts are in page-chart-snapshots.test.tsx.
 */
import { describe, expect, it } from 'vitest';
import { BarChart } from '../src/ui/charts/BarChart';
import { LineChart } from '../src/ui/charts/LineChart';
import { ScatterChart } from '../src/ui/charts/ScatterChart';
import type { LineSeries, ScatterSeries } from '../src/ui/charts/types';
import { chartSvg } from './svgSnapshot';

const snapshot = (name: string) => `./__snapshots__/charts/${name}.svg`;

describe('chart kit snapshots', () => {
  it('LineChart: several series on a log x axis, dashed and marker series, a gap, rules and annotations', async () => {
    const xs = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
    const series: LineSeries[] = [
      { id: 'log', label: 'log₂ N', points: xs.map((x) => ({ x, y: Math.log2(x) })) },
      { id: 'sqrt', label: '√N ÷ 4', dash: '6 4', points: xs.map((x) => ({ x, y: Math.sqrt(x) / 4 })) },
      // NaN leaves a gap in the line, and the lone point after it is drawn as a dot.
      { id: 'gappy', label: 'with a gap', color: '#8a5a00', points: xs.map((x, i) => ({ x, y: i === 6 || i === 8 ? NaN : 1 + i / 3 })) },
      { id: 'measured', label: 'measured', markers: true, points: [4, 32, 256].map((x) => ({ x, y: Math.log2(x) + 0.4 })) },
    ];
    const svg = chartSvg(
      <LineChart
        title="Line chart kit snapshot"
        x={{ label: 'entries', unit: 'keys', scale: 'log' }}
        y={{ label: 'cost', unit: 'I/O per lookup', zero: true }}
        series={series}
        rules={[{ x: 16, label: 'N = 16' }, { x: 700, label: 'right-hand rule' }]}
        annotations={[
          { x: 16, y: 4, label: 'log₂ 16 = 4' },
          { x: 16, y: 1, label: 'a near neighbour', color: '#d1495b' },
          { x: 256, y: 8, label: 'near the right edge' },
        ]}
      />,
    );
    await expect(svg).toMatchFileSnapshot(snapshot('line-chart'));
  });

  it('LineChart: a log y axis with explicit ticks and a fixed domain, at another height', async () => {
    const bits = Array.from({ length: 25 }, (_, i) => i * 0.5);
    const svg = chartSvg(
      <LineChart
        title="Line chart on a log y axis"
        height={240}
        x={{ label: 'memory', unit: 'bits per key', domain: [0, 12], ticks: [0, 2, 4, 6, 8, 10, 12] }}
        y={{ label: 'false-positive rate', scale: 'log', format: (v) => `${v * 100}%` }}
        series={[{ id: 'fpr', label: 'e^(−b·ln²2)', points: bits.map((b) => ({ x: b, y: Math.exp(-b * Math.LN2 ** 2) })) }]}
      />,
    );
    await expect(svg).toMatchFileSnapshot(snapshot('line-chart-log-y'));
  });

  it('BarChart: grouped bars on a linear axis with value labels', async () => {
    const svg = chartSvg(
      <BarChart
        title="Bar chart kit snapshot"
        x={{ label: 'level' }}
        y={{ label: 'false-positive rate', unit: 'probability' }}
        categories={['L1', 'L2', 'L3', 'L4']}
        groups={[
          { id: 'uniform', label: 'uniform', values: [0.0082, 0.0082, 0.0082, 0.0082] },
          { id: 'monkey', label: 'Monkey', values: [0.0003, 0.0012, 0.0049, 0.0195] },
        ]}
        valueLabels
      />,
    );
    await expect(svg).toMatchFileSnapshot(snapshot('bar-chart'));
  });

  it('BarChart: a log axis, three groups, a bar that cannot be drawn', async () => {
    const svg = chartSvg(
      <BarChart
        title="Bar chart on a log axis"
        height={300}
        x={{ label: 'store' }}
        y={{ label: 'rate', unit: 'operations/s', scale: 'log' }}
        categories={['memory', 'OPFS', 'IndexedDB']}
        groups={[
          { id: 'inserts', label: 'inserts / s', values: [2_400_000, 850_000, 61_000] },
          { id: 'lookups', label: 'lookups / s', values: [1_100_000, 240_000, 0] },
          { id: 'scans', label: 'scans / s', color: '#6a4c93', values: [90_000, 35_000, 4_000] },
        ]}
      />,
    );
    await expect(svg).toMatchFileSnapshot(snapshot('bar-chart-log'));
  });

  it('ScatterChart: clouds, a traced line, a highlight and annotations on log axes', async () => {
    const ratios = [2, 3, 4, 6, 8, 12, 16, 32];
    const series: ScatterSeries[] = [
      {
        id: 'leveling',
        label: 'leveling',
        line: true,
        points: ratios.map((t) => ({ x: (t / 2) * Math.log2(1e6 / t), y: 1 / t, label: `T = ${t}` })),
      },
      {
        id: 'tiering',
        label: 'tiering',
        line: true,
        dash: '6 4',
        radius: 2.2,
        points: ratios.map((t) => ({ x: Math.log2(1e6 / t), y: (t - 1) / t, label: `T = ${t}` })),
      },
      { id: 'cloud', label: 'other designs', radius: 4, points: [3, 7, 11, 19, 29, 41].map((k, i) => ({ x: k, y: 0.05 + ((i * 37) % 11) / 20 })) },
    ];
    const svg = chartSvg(
      <ScatterChart
        title="Scatter chart kit snapshot"
        x={{ label: 'update cost', unit: 'I/O per update', scale: 'log' }}
        y={{ label: 'lookup cost', unit: 'I/O per lookup', scale: 'log' }}
        series={series}
        highlight={{ x: 19, y: 0.25, label: 'chosen', color: '#e07a1f' }}
        annotations={[
          { x: 3, y: 0.1, label: 'RocksDB' },
          { x: 41, y: 0.3, label: 'Cassandra' },
        ]}
      />,
    );
    await expect(svg).toMatchFileSnapshot(snapshot('scatter-chart'));
  });
});
